import { loadKubernetesYaml } from '../api/yaml';
import {
  Algorithm,
  LEGACY_PROVIDERS,
  legacyPredicates,
  providerPredicates,
  legacyPriority,
  PredicateConfig,
  PriorityConfig,
} from './providers';
import { nodeLabelPresence } from './predicates/label-presence';
import { serviceAffinity } from './predicates/service-affinity';
import { nodeLabelPriority } from './priorities/node-label';
import { LEGACY_RELEASE } from './release';
import { serviceAntiAffinityPriority } from './priorities/service-anti-affinity';

/** The scheduler Policy (v1.12 pkg/scheduler/api/v1/types.go), kind Policy, apiVersion v1. */
export interface Policy {
  kind?: string;
  apiVersion?: string;
  predicates?: { name: string; argument?: PredicateArgument }[] | null;
  priorities?: { name: string; weight: number; argument?: PriorityArgument }[] | null;
  extenders?: unknown[];
  alwaysCheckAllPredicates?: boolean;
}

interface PredicateArgument {
  serviceAffinity?: { labels: string[] };
  labelsPresence?: { labels: string[]; presence: boolean };
}

interface PriorityArgument {
  serviceAntiAffinity?: { label: string };
  labelPreference?: { label: string; presence: boolean };
}

/** MaxWeight = MaxInt / MaxPriority (v1.12 scheduler api types.go). */
const MAX_WEIGHT = Math.floor(Number.MAX_SAFE_INTEGER / 10);

/** ValidatePolicy (api/validation/validation.go): errors aggregated, one per line. */
export function validatePolicy(policy: Policy): string[] {
  const errs: string[] = [];
  for (const p of policy.priorities ?? []) {
    if (!(p.weight > 0) || p.weight >= MAX_WEIGHT)
      errs.push(`Priority ${p.name} should have a positive weight applied to it or it has overflown`);
  }
  return errs;
}

/** Reads a Policy from JSON or YAML text (JSON is YAML). */
export function parsePolicy(text: string): Policy {
  const doc = loadKubernetesYaml(text);
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('invalid policy: not an object');
  const policy = doc as Policy;
  if (policy.kind !== undefined && policy.kind !== 'Policy')
    throw new Error(`invalid policy: kind "${policy.kind}", want "Policy"`);
  const errs = validatePolicy(policy);
  if (errs.length) throw new Error(`invalid policy: ${errs.join('; ')}`);
  if (policy.extenders?.length)
    throw new Error('invalid policy: scheduler extenders are not supported by the reference scheduler');
  return policy;
}

function customPredicate(name: string, arg: PredicateArgument): PredicateConfig {
  if (arg.serviceAffinity)
    return { name, kind: 'CheckServiceAffinity', fn: serviceAffinity(arg.serviceAffinity.labels ?? []) };
  if (arg.labelsPresence)
    return {
      name,
      kind: 'CheckNodeLabelPresence',
      fn: nodeLabelPresence(arg.labelsPresence.labels ?? [], !!arg.labelsPresence.presence),
    };
  throw new Error(`Invalid configuration: Predicate type not found for ${name}`);
}

function customPriority(name: string, weight: number, arg: PriorityArgument): PriorityConfig {
  if (arg.labelPreference)
    return { name, weight, fn: nodeLabelPriority(arg.labelPreference.label, !!arg.labelPreference.presence, 10) };
  if (arg.serviceAntiAffinity)
    return { name, weight, fn: serviceAntiAffinityPriority(arg.serviceAntiAffinity.label, 10) };
  throw new Error(`Invalid configuration: Priority type not found for ${name}`);
}

/**
 * CreateFromConfig (v1.12 factory.go): a predicate or priority with an argument is a custom
 * one under its own name (RegisterCustomFitPredicate / RegisterCustomPriorityFunction);
 * without one the name must be registered. An absent list (null) means the
 * DefaultProvider's; an empty list means none. Mandatory predicates are always added.
 * Custom predicates run at the place of their kind in predicatesOrdering.
 */
export function algorithmFromPolicy(policy: Policy, taintNodesByCondition = true): Algorithm {
  const defaults = LEGACY_PROVIDERS.DefaultProvider;
  const named: string[] = [];
  const custom: PredicateConfig[] = [];
  if (policy.predicates == null) named.push(...providerPredicates('DefaultProvider', taintNodesByCondition));
  else
    for (const p of policy.predicates) {
      if (p.argument) custom.push(customPredicate(p.name, p.argument));
      else named.push(p.name);
    }
  const priorities: PriorityConfig[] =
    policy.priorities == null
      ? defaults.priorities.map((n) => legacyPriority(n))
      : policy.priorities.map((p) =>
          p.argument ? customPriority(p.name, p.weight, p.argument) : legacyPriority(p.name, p.weight),
        );
  return {
    release: LEGACY_RELEASE,
    provider: 'policy',
    predicates: legacyPredicates(named, custom, taintNodesByCondition),
    priorities,
  };
}

import { Pod } from '../api/core';
import { LabelSelector, Selector, selectorFromLabelSelector } from '../api/labels/selector';
import { NodeInfo } from './nodeinfo';
import type { ClusterView } from './meta';

/*
 * Pod (anti-)affinity terms as both releases read them: v1.12's predicates and priorities
 * (GetNamespacesFromPodAffinityTerm, PodMatchesTermsNamespaceAndSelector,
 * NodesHaveSameTopologyKey) and v1.32's framework.AffinityTerm (newAffinityTerm, Matches).
 */

/** v1.PodAffinityTerm as a pod spec carries it. */
interface PodAffinityTerm {
  labelSelector?: LabelSelector | null;
  namespaces?: string[] | null;
  topologyKey: string;
  /** v1.21+ (GA v1.24); v1.12 has no such field. */
  namespaceSelector?: LabelSelector | null;
}

interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

interface AffinityRules {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[] | null;
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[] | null;
}

interface PodAffinitySpec {
  podAffinity?: AffinityRules | null;
  podAntiAffinity?: AffinityRules | null;
}

/** A term compiled once: which namespaces, which labels, over which topology. */
export interface AffinityTerm {
  /** Namespaces the term looks in; `all` for an empty namespaceSelector (v1.32). */
  namespaces: ReadonlySet<string> | 'all';
  selector: Selector;
  topologyKey: string;
  weight: number;
}

/**
 * How a release reads a term: v1.32 honours namespaceSelector (v1.21+); v1.12 has no such
 * field and takes the pod's own namespace when the term lists none.
 */
export interface TermRules {
  namespaceSelector: boolean;
}

function compile(pod: Pod, term: PodAffinityTerm, weight: number, rules: TermRules): AffinityTerm | undefined {
  let selector: Selector;
  try {
    selector = selectorFromLabelSelector(term.labelSelector);
  } catch {
    // LabelSelectorAsSelector failed: upstream's PodInfo records a parse error and the pod
    // is unschedulable; validation refuses such selectors before they get here.
    return undefined;
  }
  const listed = term.namespaces ?? [];
  const nsSelector = rules.namespaceSelector ? term.namespaceSelector : undefined;
  // An empty namespaceSelector ({}) selects every namespace. A non-empty one would need the
  // namespaces' labels, which the scheduler here does not watch: it adds no namespace.
  const all =
    nsSelector != null &&
    Object.keys(nsSelector.matchLabels ?? {}).length + (nsSelector.matchExpressions ?? []).length === 0;
  const namespaces: ReadonlySet<string> | 'all' = all
    ? 'all'
    : listed.length === 0 && nsSelector == null
      ? new Set([pod.metadata.namespace ?? 'default'])
      : new Set(listed);
  return { namespaces, selector, topologyKey: term.topologyKey, weight };
}

/** The pod's terms of one kind, compiled (nil or unparsable terms left out). */
export interface PodTerms {
  requiredAffinity: AffinityTerm[];
  requiredAntiAffinity: AffinityTerm[];
  preferredAffinity: AffinityTerm[];
  preferredAntiAffinity: AffinityTerm[];
}

const cache = new WeakMap<Pod, { namespaceSelector: boolean; terms: PodTerms }>();

/** The pod's affinity terms, compiled once per pod object (pods in the cache are immutable). */
export function podTerms(pod: Pod, rules: TermRules): PodTerms {
  const hit = cache.get(pod);
  if (hit && hit.namespaceSelector === rules.namespaceSelector) return hit.terms;
  const spec = (pod.spec.affinity ?? {}) as PodAffinitySpec;
  const required = (r: AffinityRules | null | undefined) =>
    (r?.requiredDuringSchedulingIgnoredDuringExecution ?? [])
      .map((t) => compile(pod, t, 1, rules))
      .filter((t): t is AffinityTerm => !!t);
  const preferred = (r: AffinityRules | null | undefined) =>
    (r?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
      .map((w) => compile(pod, w.podAffinityTerm ?? ({} as PodAffinityTerm), w.weight, rules))
      .filter((t): t is AffinityTerm => !!t);
  const terms = {
    requiredAffinity: required(spec.podAffinity),
    requiredAntiAffinity: required(spec.podAntiAffinity),
    preferredAffinity: preferred(spec.podAffinity),
    preferredAntiAffinity: preferred(spec.podAntiAffinity),
  };
  cache.set(pod, { namespaceSelector: rules.namespaceSelector, terms });
  return terms;
}

/** Whether the pod has any inter-pod affinity term at all (NodeInfo.PodsWithAffinity). */
export function hasAffinity(t: PodTerms): boolean {
  return (
    t.requiredAffinity.length +
      t.requiredAntiAffinity.length +
      t.preferredAffinity.length +
      t.preferredAntiAffinity.length >
    0
  );
}

/** AffinityTerm.Matches / PodMatchesTermsNamespaceAndSelector: the namespace, then the labels. */
export function termMatches(term: AffinityTerm, pod: Pod): boolean {
  if (term.namespaces !== 'all' && !term.namespaces.has(pod.metadata.namespace ?? 'default')) return false;
  return term.selector.matches(pod.metadata.labels ?? {});
}

/** podMatchesAllAffinityTerms / podMatchesAllAffinityTermProperties: false for no terms. */
export function matchesAll(terms: readonly AffinityTerm[], pod: Pod): boolean {
  return terms.length > 0 && terms.every((t) => termMatches(t, pod));
}

/** "key=value" of the node's label for a topology key, or undefined when the node lacks it. */
export function topologyPair(info: NodeInfo, key: string): string | undefined {
  const labels = info.node?.metadata.labels;
  if (!labels || !(key in labels)) return undefined;
  return `${key}=${labels[key]}`;
}

/**
 * Scheduled pods with their node, skipping nodes without a Node object: every pod, or only
 * the pods with affinity terms when the others cannot matter (upstream's
 * HavePodsWithAffinityList and PodsWithAffinity).
 */
export function* scheduledPods(
  cluster: ClusterView,
  onlyWithAffinity: boolean,
): Generator<{ pod: Pod; node: NodeInfo }> {
  for (const node of onlyWithAffinity ? cluster.nodesWithAffinityPods() : cluster.allNodes()) {
    if (!node.node) continue;
    for (const pod of onlyWithAffinity ? node.podsWithAffinity() : node.pods()) yield { pod, node };
  }
}

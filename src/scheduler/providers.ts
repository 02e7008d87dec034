import { FRAMEWORK_RELEASE, LEGACY_RELEASE, SchedulerRelease } from './release';
import { Predicate } from './predicates/predicate';
import { generalPredicates } from './predicates/general';
import { fitsResources } from './predicates/fits-resources';
import { podFitsHost } from './predicates/host-name';
import { podFitsHostPorts } from './predicates/host-ports';
import { podMatchNodeSelector } from './predicates/node-selector';
import { noDiskConflict } from './predicates/no-disk-conflict';
import { podToleratesNodeTaints } from './predicates/taint-toleration';
import { checkNodeUnschedulable } from './predicates/node-unschedulable';
import { Priority } from './priorities/priority';
import { leastRequested } from './priorities/least-requested';
import { mostRequested } from './priorities/most-requested';
import { balancedAllocation, legacyBalancedAllocation } from './priorities/balanced';
import { selectorSpread } from './priorities/selector-spread';
import { taintTolerationPriority } from './priorities/taint-toleration';
import { nodeAffinityPriority } from './priorities/node-affinity';
import { preferAvoidPodsPriority } from './priorities/prefer-avoid-pods';
import { equalPriority } from './priorities/equal';
import { podTopologySpread } from './priorities/topology-spread';
import { interPodAffinity, V1_12_AFFINITY_FILTER, V1_32_AFFINITY_FILTER } from './predicates/inter-pod-affinity';
import { podTopologySpreadFilter } from './predicates/topology-spread';
import {
  checkNodeCondition,
  checkNodeDiskPressure,
  checkNodeMemoryPressure,
  checkNodePIDPressure,
} from './predicates/node-conditions';
import { maxVolumeCount, noServedVolumes } from './predicates/volume-count';
import { requestedToCapacityRatio } from './priorities/requested-to-capacity';
import { imageLocality, V1_12_IMAGE_LOCALITY, V1_32_IMAGE_LOCALITY } from './priorities/image-locality';
import { interPodAffinityPriority, V1_12_AFFINITY_SCORE, V1_32_AFFINITY_SCORE } from './priorities/inter-pod-affinity';

/** A configured predicate: its name (as a policy names it), its kind (its place in the order) and the function. */
export interface PredicateConfig {
  name: string;
  kind: string;
  fn: Predicate;
}

export interface PriorityConfig {
  name: string;
  weight: number;
  fn: Priority;
}

/** What one scheduler runs: its release (arithmetic, wording, node order, tie-breaking) and its predicates and priorities. */
export interface Algorithm {
  release: SchedulerRelease;
  provider: string;
  predicates: PredicateConfig[];
  priorities: PriorityConfig[];
  /**
   * The SchedulingGates plugin's PreEnqueue (v1.26+): a pod with spec.schedulingGates is not
   * queued until its last gate is removed. v1.12 has no such field (its API server drops it).
   */
  schedulingGates?: boolean;
}

/**
 * predicatesOrdering (v1.12 predicates.go): predicates run in this order and, by default
 * (alwaysCheckAllPredicates false), a node's evaluation stops at the first that fails.
 * Custom predicates from a policy run at the place of their kind.
 */
export const PREDICATE_ORDER = [
  'CheckNodeCondition',
  'CheckNodeUnschedulable',
  'GeneralPredicates',
  'HostName',
  'PodFitsHostPorts',
  'MatchNodeSelector',
  'PodFitsResources',
  'NoDiskConflict',
  'PodToleratesNodeTaints',
  'PodToleratesNodeNoExecuteTaints',
  'CheckNodeLabelPresence',
  'CheckServiceAffinity',
  'MaxEBSVolumeCount',
  'MaxGCEPDVolumeCount',
  'MaxCSIVolumeCount',
  'MaxAzureDiskVolumeCount',
  'CheckVolumeBinding',
  'NoVolumeZoneConflict',
  'CheckNodeMemoryPressure',
  'CheckNodePIDPressure',
  'CheckNodeDiskPressure',
  'MatchInterPodAffinity',
];

/**
 * Predicates registered by name in v1.12 (algorithmprovider/defaults init, defaultPredicates
 * and ApplyFeatureGates): every name a Policy may use. The volume predicates see no
 * PersistentVolumes here (predicates/volume-count.ts).
 */
export const LEGACY_PREDICATES: Record<string, Predicate> = {
  GeneralPredicates: generalPredicates,
  PodFitsResources: fitsResources(false),
  HostName: podFitsHost,
  PodFitsHostPorts: podFitsHostPorts,
  MatchNodeSelector: podMatchNodeSelector,
  NoDiskConflict: noDiskConflict,
  PodToleratesNodeTaints: podToleratesNodeTaints,
  CheckNodeUnschedulable: checkNodeUnschedulable,
  MatchInterPodAffinity: interPodAffinity(V1_12_AFFINITY_FILTER),
  MaxEBSVolumeCount: maxVolumeCount('MaxEBSVolumeCount'),
  MaxGCEPDVolumeCount: maxVolumeCount('MaxGCEPDVolumeCount'),
  MaxAzureDiskVolumeCount: maxVolumeCount('MaxAzureDiskVolumeCount'),
  MaxCSIVolumeCount: noServedVolumes,
  NoVolumeZoneConflict: noServedVolumes,
  CheckVolumeBinding: noServedVolumes,
  CheckNodeCondition: checkNodeCondition,
  CheckNodeMemoryPressure: checkNodeMemoryPressure,
  CheckNodeDiskPressure: checkNodeDiskPressure,
  CheckNodePIDPressure: checkNodePIDPressure,
};

/**
 * ApplyFeatureGates with TaintNodesByCondition (on in v1.12 and the seed profile) removes
 * these from the registry (RemoveFitPredicate): the conditions reach the scheduler as
 * taints, and a Policy naming one is refused like an unknown name. Without the gate they
 * are registered, CheckNodeCondition mandatory, and CheckNodeUnschedulable is not.
 */
export const CONDITION_PREDICATES = [
  'CheckNodeCondition',
  'CheckNodeMemoryPressure',
  'CheckNodeDiskPressure',
  'CheckNodePIDPressure',
];

/** PodFitsPorts is PodFitsHostPorts, "registered for backwards compatibility with 1.0". */
export const PREDICATE_ALIASES: Record<string, string> = { PodFitsPorts: 'PodFitsHostPorts' };

/** Priorities registered by name in v1.12 with their default weights (0–10 scores). */
export const LEGACY_PRIORITIES: Record<string, { fn: Priority; weight: number }> = {
  SelectorSpreadPriority: { fn: selectorSpread(10), weight: 1 },
  ServiceSpreadingPriority: { fn: selectorSpread(10), weight: 1 },
  LeastRequestedPriority: { fn: leastRequested(10), weight: 1 },
  MostRequestedPriority: { fn: mostRequested(10), weight: 1 },
  BalancedResourceAllocation: { fn: legacyBalancedAllocation, weight: 1 },
  NodePreferAvoidPodsPriority: { fn: preferAvoidPodsPriority(10), weight: 10000 },
  NodeAffinityPriority: { fn: nodeAffinityPriority(10), weight: 1 },
  TaintTolerationPriority: { fn: taintTolerationPriority(10), weight: 1 },
  EqualPriority: { fn: equalPriority, weight: 1 },
  InterPodAffinityPriority: { fn: interPodAffinityPriority(V1_12_AFFINITY_SCORE), weight: 1 },
  ImageLocalityPriority: { fn: imageLocality(V1_12_IMAGE_LOCALITY), weight: 1 },
  RequestedToCapacityRatioPriority: { fn: requestedToCapacityRatio, weight: 1 },
};

/**
 * With TaintNodesByCondition (on in v1.12 and in the seed profile) ApplyFeatureGates makes
 * PodToleratesNodeTaints and CheckNodeUnschedulable mandatory: every provider and every
 * policy gets them. Without it CheckNodeCondition is the mandatory one.
 */
export const MANDATORY_PREDICATES = ['CheckNodeUnschedulable', 'PodToleratesNodeTaints'];

function mandatory(taintNodesByCondition: boolean): string[] {
  return taintNodesByCondition ? MANDATORY_PREDICATES : ['CheckNodeCondition'];
}

/** defaultPredicates of v1.12 as ApplyFeatureGates leaves them (no volume predicate can fail here without PVs). */
const DEFAULT_PREDICATES = [
  'NoVolumeZoneConflict',
  'MaxEBSVolumeCount',
  'MaxGCEPDVolumeCount',
  'MaxAzureDiskVolumeCount',
  'MaxCSIVolumeCount',
  'MatchInterPodAffinity',
  'NoDiskConflict',
  'GeneralPredicates',
  'CheckVolumeBinding',
];

/**
 * Providers as v1.12 registers them (algorithmprovider/defaults/defaults.go): the
 * predicates above plus PodToleratesNodeTaints and, by the feature gate, the mandatory
 * ones (or the condition predicates without TaintNodesByCondition). ClusterAutoscalerProvider is the same with MostRequestedPriority in place of
 * LeastRequestedPriority (copyAndReplace).
 */
export const LEGACY_PROVIDERS: Record<string, { predicates: string[]; priorities: string[] }> = {
  DefaultProvider: {
    predicates: DEFAULT_PREDICATES,
    priorities: [
      'SelectorSpreadPriority',
      'InterPodAffinityPriority',
      'LeastRequestedPriority',
      'BalancedResourceAllocation',
      'NodePreferAvoidPodsPriority',
      'NodeAffinityPriority',
      'TaintTolerationPriority',
      'ImageLocalityPriority',
    ],
  },
  ClusterAutoscalerProvider: {
    predicates: DEFAULT_PREDICATES,
    priorities: [
      'SelectorSpreadPriority',
      'InterPodAffinityPriority',
      'MostRequestedPriority',
      'BalancedResourceAllocation',
      'NodePreferAvoidPodsPriority',
      'NodeAffinityPriority',
      'TaintTolerationPriority',
      'ImageLocalityPriority',
    ],
  },
};

export function orderPredicates(configs: PredicateConfig[]): PredicateConfig[] {
  const rank = (k: string) => {
    const i = PREDICATE_ORDER.indexOf(k);
    return i < 0 ? PREDICATE_ORDER.length : i;
  };
  return configs
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c.kind) - rank(b.c.kind) || a.i - b.i)
    .map((x) => x.c);
}

function legacyPredicate(name: string, taintNodesByCondition: boolean): PredicateConfig {
  const kind = PREDICATE_ALIASES[name] ?? name;
  const unregistered = taintNodesByCondition ? CONDITION_PREDICATES.includes(kind) : kind === 'CheckNodeUnschedulable';
  const fn = unregistered ? undefined : LEGACY_PREDICATES[kind];
  // RegisterCustomFitPredicate: glog.Fatalf, the scheduler does not start.
  if (!fn) throw new Error(`Invalid configuration: Predicate type not found for ${name}`);
  return { name, kind, fn };
}

export function legacyPriority(name: string, weight?: number): PriorityConfig {
  const p = LEGACY_PRIORITIES[name];
  if (!p) throw new Error(`Invalid configuration: Priority type not found for ${name}`);
  return { name, weight: weight ?? p.weight, fn: p.fn };
}

/** Predicate configs for names, plus the mandatory ones, de-duplicated and ordered. */
export function legacyPredicates(
  names: string[],
  custom: PredicateConfig[] = [],
  taintNodesByCondition = true,
): PredicateConfig[] {
  const seen = new Set<string>();
  const out: PredicateConfig[] = [];
  for (const n of [...names, ...mandatory(taintNodesByCondition)]) {
    if (seen.has(n)) continue;
    seen.add(n);
    out.push(legacyPredicate(n, taintNodesByCondition));
  }
  return orderPredicates([...out, ...custom]);
}

/** A provider's predicate names after ApplyFeatureGates (PodToleratesNodeTaints inserted; condition predicates kept only without the gate). */
export function providerPredicates(name: string, taintNodesByCondition: boolean): string[] {
  const p = LEGACY_PROVIDERS[name].predicates;
  return taintNodesByCondition
    ? [...p, 'PodToleratesNodeTaints']
    : [...p, 'PodToleratesNodeTaints', ...CONDITION_PREDICATES];
}

/** --algorithm-provider: a legacy provider by name. */
export function legacyProvider(name: string, taintNodesByCondition = true): Algorithm {
  const p = LEGACY_PROVIDERS[name];
  if (!p)
    throw new Error(
      `failed to create scheduler: plugin "${name}" has not been registered (known providers: ${Object.keys(LEGACY_PROVIDERS).join(', ')})`,
    );
  return {
    release: LEGACY_RELEASE,
    provider: name,
    predicates: legacyPredicates(providerPredicates(name, taintNodesByCondition), [], taintNodesByCondition),
    priorities: p.priorities.map((n) => legacyPriority(n)),
  };
}

/**
 * The v1.32 default plugin set (pkg/scheduler/apis/config/v1/default_plugins.go) as far
 * as this control plane models it. Filters, in order: NodeUnschedulable, NodeName,
 * TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, VolumeRestrictions,
 * PodTopologySpread (DoNotSchedule), InterPodAffinity. Scores (weight): TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1
 * (LeastAllocated), PodTopologySpread 2 (its ScheduleAnyway score, with the system default
 * constraints for a pod without its own), InterPodAffinity 2,
 * NodeResourcesBalancedAllocation 1, ImageLocality 1 (from node.status.images). Not
 * modelled: volume limits/binding/zone (no PVs).
 */
export function frameworkPlugins(): Algorithm {
  const kinds: [string, Predicate][] = [
    ['NodeUnschedulable', checkNodeUnschedulable],
    ['NodeName', podFitsHost],
    ['TaintToleration', podToleratesNodeTaints],
    ['NodeAffinity', podMatchNodeSelector],
    ['NodePorts', podFitsHostPorts],
    ['NodeResourcesFit', fitsResources(true)],
    ['VolumeRestrictions', noDiskConflict],
    ['PodTopologySpread', podTopologySpreadFilter],
    ['InterPodAffinity', interPodAffinity(V1_32_AFFINITY_FILTER)],
  ];
  return {
    release: FRAMEWORK_RELEASE,
    provider: 'default-plugins',
    schedulingGates: true,
    predicates: kinds.map(([name, fn]) => ({ name, kind: name, fn })),
    priorities: [
      { name: 'TaintToleration', weight: 3, fn: taintTolerationPriority(100) },
      { name: 'NodeAffinity', weight: 2, fn: nodeAffinityPriority(100) },
      { name: 'NodeResourcesFit', weight: 1, fn: leastRequested(100, true) },
      { name: 'PodTopologySpread', weight: 2, fn: podTopologySpread },
      { name: 'InterPodAffinity', weight: 2, fn: interPodAffinityPriority(V1_32_AFFINITY_SCORE) },
      { name: 'NodeResourcesBalancedAllocation', weight: 1, fn: balancedAllocation },
      { name: 'ImageLocality', weight: 1, fn: imageLocality(V1_32_IMAGE_LOCALITY) },
    ],
  };
}

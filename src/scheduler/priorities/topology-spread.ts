import { Pod } from '../../api/core';
import {
  LabelSelector,
  matchesNothing,
  Selector,
  selectorFromLabelSelector,
  selectorFromSet,
} from '../../api/labels/selector';
import { NodeInfo } from '../nodeinfo';
import { PodMeta } from '../meta';
import { podMatchNodeSelector } from '../predicates/node-selector';
import { tolerated } from '../taints';
import { podServices, SpreadSources } from '../spread-selectors';
import { Priority } from './priority';

/**
 * PodTopologySpread's Score (v1.32 framework/plugins/podtopologyspread/scoring.go), the
 * soft (ScheduleAnyway) half: the pod's own ScheduleAnyway constraints, or — for a pod
 * with none — the system default constraints (hostname maxSkew 3, zone maxSkew 5) over
 * helper.DefaultSelector. The DoNotSchedule filter is predicates/topology-spread.ts.
 */

export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** systemDefaultConstraints (podtopologyspread/plugin.go): both ScheduleAnyway. */
export const SYSTEM_DEFAULT_CONSTRAINTS: readonly { topologyKey: string; maxSkew: number }[] = [
  { topologyKey: HOSTNAME_LABEL, maxSkew: 3 },
  { topologyKey: ZONE_LABEL, maxSkew: 5 },
];

type Policy = 'Honor' | 'Ignore';

export interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  selector: Selector;
  nodeAffinityPolicy: Policy;
  nodeTaintsPolicy: Policy;
  /** minDomains (DoNotSchedule only; default 1). */
  minDomains?: number;
}

/** v1.TopologySpreadConstraint as a pod spec carries it (the fields scoring reads). */
interface PodConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector | null;
  matchLabelKeys?: string[];
  nodeAffinityPolicy?: Policy;
  nodeTaintsPolicy?: Policy;
  minDomains?: number | null;
}

function parse(ls: LabelSelector | null | undefined): Selector | undefined {
  try {
    return selectorFromLabelSelector(ls);
  } catch {
    // LabelSelectorAsSelector failed: DefaultSelector keeps the selector it has so far.
    return undefined;
  }
}

/**
 * helper.DefaultSelector (v1.32): the merged selectors of the Services selecting the pod,
 * and of its controller (by controllerRef: a v1 ReplicationController's map, an apps/v1
 * ReplicaSet's or StatefulSet's requirements).
 */
export function defaultSelector(pod: Pod, sources: SpreadSources): Selector {
  const set: Record<string, string> = {};
  for (const s of podServices(pod, sources.services)) Object.assign(set, s.spec!.selector);
  const owner = (pod.metadata.ownerReferences ?? []).find((r) => r.controller);
  const ns = pod.metadata.namespace ?? 'default';
  const named = <T extends { metadata: { name?: string; namespace?: string } }>(list: readonly T[]) =>
    list.find((o) => o.metadata.name === owner!.name && (o.metadata.namespace ?? 'default') === ns);
  if (owner?.apiVersion === 'v1' && owner.kind === 'ReplicationController') {
    const rc = named(sources.replicationControllers);
    if (rc) Object.assign(set, rc.spec?.selector ?? {});
    return selectorFromSet(set);
  }
  const list =
    owner?.apiVersion === 'apps/v1' && owner.kind === 'ReplicaSet'
      ? sources.replicaSets
      : owner?.apiVersion === 'apps/v1' && owner.kind === 'StatefulSet'
        ? sources.statefulSets
        : undefined;
  const base = selectorFromSet(set);
  const controller = list ? named(list) : undefined;
  const other = controller ? parse(controller.spec?.selector) : undefined;
  // A nil selector (Nothing) has no requirements to add.
  return other && !matchesNothing(other) ? base.add(...other.requirements()) : base;
}

/**
 * filterTopologySpreadConstraints: the pod's constraints of one kind (ScheduleAnyway for
 * the score, DoNotSchedule for the filter), each selector with matchLabelKeys' values
 * merged in (MatchLabelKeysInPodTopologySpread, beta and on in v1.32); nodeAffinityPolicy
 * defaults to Honor, nodeTaintsPolicy to Ignore, minDomains to 1.
 */
export function podConstraints(pod: Pod, when: PodConstraint['whenUnsatisfiable']): SpreadConstraint[] {
  const own = (pod.spec as { topologySpreadConstraints?: PodConstraint[] }).topologySpreadConstraints ?? [];
  const out: SpreadConstraint[] = [];
  for (const c of own) {
    if (c.whenUnsatisfiable !== when) continue;
    let selector = parse(c.labelSelector);
    if (!selector) continue;
    const keys: Record<string, string> = {};
    for (const k of c.matchLabelKeys ?? [])
      if (pod.metadata.labels?.[k] !== undefined) keys[k] = pod.metadata.labels[k];
    if (Object.keys(keys).length > 0) selector = selector.add(...selectorFromSet(keys).requirements());
    out.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector,
      nodeAffinityPolicy: c.nodeAffinityPolicy ?? 'Honor',
      nodeTaintsPolicy: c.nodeTaintsPolicy ?? 'Ignore',
      minDomains: c.minDomains ?? 1,
    });
  }
  return out;
}

/** buildDefaultConstraints: none when DefaultSelector is empty (no Service, no known controller). */
export function systemDefaultConstraints(pod: Pod, sources: SpreadSources): SpreadConstraint[] {
  const selector = defaultSelector(pod, sources);
  if (selector.empty()) return [];
  return SYSTEM_DEFAULT_CONSTRAINTS.map((c) => ({
    ...c,
    selector,
    nodeAffinityPolicy: 'Honor',
    nodeTaintsPolicy: 'Ignore',
  }));
}

/** countPodsMatchSelector: same namespace, not terminating; an empty selector counts nothing. */
export function countMatching(info: NodeInfo, selector: Selector, namespace: string | undefined): number {
  if (selector.empty()) return 0;
  let n = 0;
  for (const p of info.pods())
    if (!p.metadata.deletionTimestamp && p.metadata.namespace === namespace && selector.matches(p.metadata.labels)) n++;
  return n;
}

/** topologyNormalizingWeight: ln(size + 2). */
export const normalizingWeight = (size: number) => Math.log(size + 2);

export interface SpreadInput {
  constraints: readonly SpreadConstraint[];
  /** Whether a node lacking a topology key is ignored (own constraints, or non-system defaults). */
  requireAllTopologies: boolean;
  feasible: readonly NodeInfo[];
  all: readonly NodeInfo[];
  /** matchNodeInclusionPolicies for one constraint and node. */
  included: (c: SpreadConstraint, node: NodeInfo) => boolean;
}

/** PreScore, Score and NormalizeScore for the feasible nodes (0–100); all 0 when there are no constraints (Skip). */
export function topologySpreadScores(pod: Pod, input: SpreadInput): number[] {
  const { constraints, feasible } = input;
  if (constraints.length === 0) return feasible.map(() => 0);
  const labels = (n: NodeInfo) => n.node?.metadata.labels ?? {};
  const hasAll = (n: NodeInfo) => constraints.every((c) => Object.hasOwn(labels(n), c.topologyKey));
  const ignored = new Set<string>();
  const counts = constraints.map(() => new Map<string, number>());
  for (const n of feasible) {
    if (input.requireAllTopologies && !hasAll(n)) {
      ignored.add(n.name);
      continue;
    }
    constraints.forEach((c, i) => {
      if (c.topologyKey === HOSTNAME_LABEL) return;
      const v = labels(n)[c.topologyKey] ?? '';
      if (!counts[i].has(v)) counts[i].set(v, 0);
    });
  }
  const weights = constraints.map((c, i) =>
    normalizingWeight(c.topologyKey === HOSTNAME_LABEL ? feasible.length - ignored.size : counts[i].size),
  );
  for (const n of input.all) {
    if (input.requireAllTopologies && !hasAll(n)) continue;
    constraints.forEach((c, i) => {
      if (!input.included(c, n)) return;
      const v = labels(n)[c.topologyKey] ?? '';
      const sum = counts[i].get(v);
      if (sum === undefined) return;
      counts[i].set(v, sum + countMatching(n, c.selector, pod.metadata.namespace));
    });
  }
  const raw = feasible.map((n) => {
    if (ignored.has(n.name)) return 0;
    let score = 0;
    constraints.forEach((c, i) => {
      const l = labels(n);
      if (!Object.hasOwn(l, c.topologyKey)) return;
      const cnt =
        c.topologyKey === HOSTNAME_LABEL
          ? countMatching(n, c.selector, pod.metadata.namespace)
          : counts[i].get(l[c.topologyKey])!;
      score += cnt * weights[i] + (c.maxSkew - 1);
    });
    return Math.round(score);
  });
  let min = Number.MAX_SAFE_INTEGER;
  let max = 0;
  feasible.forEach((n, i) => {
    if (ignored.has(n.name)) return;
    min = Math.min(min, raw[i]);
    max = Math.max(max, raw[i]);
  });
  return feasible.map((n, i) => {
    if (ignored.has(n.name)) return 0;
    if (max === 0) return 100;
    return Math.trunc((100 * (max + min - raw[i])) / max);
  });
}

/** matchNodeInclusionPolicies: nodeAffinityPolicy Honor (default) keeps the nodes the pod's nodeSelector/affinity allows; nodeTaintsPolicy Honor drops nodes with untolerated NoSchedule/NoExecute taints. */
export function inclusion(pod: Pod, meta: PodMeta): SpreadInput['included'] {
  return (c, node) => {
    if (c.nodeAffinityPolicy === 'Honor' && podMatchNodeSelector(pod, meta, node).length > 0) return false;
    if (c.nodeTaintsPolicy === 'Honor') {
      const taints = (node.node?.spec?.taints ?? []).filter(
        (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute',
      );
      if (taints.some((t) => !tolerated(pod.spec.tolerations, t))) return false;
    }
    return true;
  };
}

/** The PodTopologySpread score plugin with systemDefaulted (the v1.32 default configuration). */
export const podTopologySpread: Priority = (pod, meta, nodes) => {
  const own = ((pod.spec as { topologySpreadConstraints?: unknown[] }).topologySpreadConstraints ?? []).length > 0;
  const constraints = own
    ? podConstraints(pod, 'ScheduleAnyway')
    : systemDefaultConstraints(pod, meta.cluster.spreadSources());
  return topologySpreadScores(pod, {
    constraints,
    requireAllTopologies: own,
    feasible: nodes,
    all: meta.cluster.allNodes(),
    included: inclusion(pod, meta),
  });
};

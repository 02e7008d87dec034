import { Pod } from '../../api/core';
import {
  AffinityTerm,
  matchesAll,
  podTerms,
  scheduledPods,
  termMatches,
  TermRules,
  topologyPair,
} from '../affinity-terms';
import { PodMeta } from '../meta';
import { NodeInfo } from '../nodeinfo';
import { FailureReason, PredicateReason } from '../reasons';
import { FITS, NodeCheck, Predicate, withForPod } from './predicate';

/**
 * Counts per topology pair ("key=value"), computed once per scheduling cycle over every
 * node (v1.32 InterPodAffinity PreFilter; v1.12 predicate metadata's
 * topologyPairsAntiAffinityPodsMap, topologyPairsPotentialAffinityPods and
 * topologyPairsPotentialAntiAffinityPods).
 */
interface AffinityState {
  /** Pairs where an existing pod's required anti-affinity term matches the incoming pod. */
  existingAntiAffinity: Map<string, number>;
  /** Pairs holding a pod that matches all of the incoming pod's required affinity terms. */
  affinity: Map<string, number>;
  /** Pairs holding a pod that matches one of the incoming pod's required anti-affinity terms. */
  antiAffinity: Map<string, number>;
  requiredAffinity: readonly AffinityTerm[];
  requiredAntiAffinity: readonly AffinityTerm[];
}

function bump(m: Map<string, number>, info: NodeInfo, key: string): void {
  const pair = topologyPair(info, key);
  if (pair !== undefined) m.set(pair, (m.get(pair) ?? 0) + 1);
}

/** How a release filters: term reading, the order of the three checks, and its reasons. */
export interface AffinityFilterRules extends TermRules {
  /**
   * v1.12 (InterPodAffinityMatches): the existing pods' anti-affinity first, each failure
   * after the generic ErrPodAffinityNotMatch; v1.32: the pod's own terms first, one reason.
   */
  existingFirstWithGenericReason: boolean;
  /** v1.32: a node lacking a required affinity term's topology key never fits. */
  requireTopologyKeys: boolean;
}

export const V1_12_AFFINITY_FILTER: AffinityFilterRules = {
  namespaceSelector: false,
  existingFirstWithGenericReason: true,
  requireTopologyKeys: false,
};
export const V1_32_AFFINITY_FILTER: AffinityFilterRules = {
  namespaceSelector: true,
  existingFirstWithGenericReason: false,
  requireTopologyKeys: true,
};

function state(pod: Pod, meta: PodMeta, rules: TermRules): AffinityState {
  return meta.once(`InterPodAffinity/${rules.namespaceSelector ? 'namespaceSelector' : 'namespaces'}`, () => {
    const own = podTerms(pod, rules);
    const s: AffinityState = {
      existingAntiAffinity: new Map(),
      affinity: new Map(),
      antiAffinity: new Map(),
      requiredAffinity: own.requiredAffinity,
      requiredAntiAffinity: own.requiredAntiAffinity,
    };
    // Without required terms of its own, only running pods with (anti-)affinity can refuse the pod.
    const onlyWithAffinity = own.requiredAffinity.length + own.requiredAntiAffinity.length === 0;
    for (const { pod: existing, node } of scheduledPods(meta.cluster, onlyWithAffinity)) {
      for (const t of podTerms(existing, rules).requiredAntiAffinity)
        if (termMatches(t, pod)) bump(s.existingAntiAffinity, node, t.topologyKey);
      if (matchesAll(own.requiredAffinity, existing))
        for (const t of own.requiredAffinity) bump(s.affinity, node, t.topologyKey);
      for (const t of own.requiredAntiAffinity) if (termMatches(t, existing)) bump(s.antiAffinity, node, t.topologyKey);
    }
    return s;
  });
}

/** satisfyExistingPodsAntiAffinity: no label pair of the node is one an existing pod's anti-affinity claims. */
function existingAntiAffinityHolds(s: AffinityState, info: NodeInfo): boolean {
  if (s.existingAntiAffinity.size === 0) return true;
  for (const [k, v] of Object.entries(info.labels))
    if ((s.existingAntiAffinity.get(`${k}=${v}`) ?? 0) > 0) return false;
  return true;
}

/** satisfyPodAntiAffinity / nodeMatchesAnyTopologyTerm: no term's pair on this node holds a matching pod. */
function antiAffinityHolds(s: AffinityState, info: NodeInfo): boolean {
  for (const t of s.requiredAntiAffinity) {
    const pair = topologyPair(info, t.topologyKey);
    if (pair !== undefined && (s.antiAffinity.get(pair) ?? 0) > 0) return false;
  }
  return true;
}

/**
 * satisfyPodAffinity / nodeMatchesAllTopologyTerms: every term's pair on this node holds a
 * pod matching all terms. Otherwise the pod may be the first of a group that has affinity
 * to itself: it passes when no pod anywhere matches and it matches its own terms. v1.32
 * asks, even then, that the node carry every topology key; v1.12 does not.
 */
function affinityHolds(s: AffinityState, pod: Pod, info: NodeInfo, rules: AffinityFilterRules): boolean {
  if (s.requiredAffinity.length === 0) return true;
  let found = true;
  for (const t of s.requiredAffinity) {
    const pair = topologyPair(info, t.topologyKey);
    if (pair === undefined) {
      if (rules.requireTopologyKeys) return false;
      found = false;
    } else if ((s.affinity.get(pair) ?? 0) <= 0) found = false;
  }
  if (found) return true;
  return s.affinity.size === 0 && matchesAll(s.requiredAffinity, pod);
}

/**
 * InterPodAffinity's Filter (v1.32 interpodaffinity/filtering.go): the incoming pod's
 * required affinity, then its required anti-affinity, then the existing pods' required
 * anti-affinity. MatchInterPodAffinity (v1.12 InterPodAffinityMatches): the existing pods'
 * anti-affinity first, then the pod's own affinity and anti-affinity; each failure comes
 * with the generic ErrPodAffinityNotMatch before its own reason.
 */
export function interPodAffinity(rules: AffinityFilterRules): Predicate {
  const check: NodeCheck = (pod, meta, info) => {
    const s = state(pod, meta, rules);
    if (!constrains(s)) return FITS;
    const fail = (reason: PredicateReason): FailureReason[] =>
      rules.existingFirstWithGenericReason
        ? [
            { kind: 'predicate', reason: 'MatchInterPodAffinity' },
            { kind: 'predicate', reason },
          ]
        : [{ kind: 'predicate', reason }];
    if (rules.existingFirstWithGenericReason) {
      if (!existingAntiAffinityHolds(s, info)) return fail('ExistingPodsAntiAffinityRulesNotMatch');
      if (!affinityHolds(s, pod, info, rules)) return fail('PodAffinityRulesNotMatch');
      if (!antiAffinityHolds(s, info)) return fail('PodAntiAffinityRulesNotMatch');
      return FITS;
    }
    if (!affinityHolds(s, pod, info, rules)) return fail('PodAffinityRulesNotMatch');
    if (!antiAffinityHolds(s, info)) return fail('PodAntiAffinityRulesNotMatch');
    if (!existingAntiAffinityHolds(s, info)) return fail('ExistingPodsAntiAffinityRulesNotMatch');
    return FITS;
  };
  // Without terms of its own and with no existing pod's anti-affinity matching it, the pod fits every node.
  return withForPod(check, (pod, meta) => (constrains(state(pod, meta, rules)) ? check : undefined));
}

function constrains(s: AffinityState): boolean {
  return s.requiredAffinity.length + s.requiredAntiAffinity.length + s.existingAntiAffinity.size > 0;
}

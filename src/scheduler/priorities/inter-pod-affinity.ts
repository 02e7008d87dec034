import { Pod } from '../../api/core';
import { AffinityTerm, podTerms, scheduledPods, termMatches, TermRules } from '../affinity-terms';
import { NodeInfo } from '../nodeinfo';
import type { ClusterView } from '../meta';
import { Priority } from './priority';

/** hardPodAffinityWeight (v1.12 --hard-pod-affinity-symmetric-weight, v1.32 InterPodAffinityArgs): 1. */
export const HARD_POD_AFFINITY_WEIGHT = 1;

/** topology key → value → summed weight. */
type TopologyScore = Map<string, Map<string, number>>;

function add(
  score: TopologyScore,
  terms: readonly AffinityTerm[],
  target: Pod,
  node: NodeInfo,
  sign: number,
  weight?: number,
): void {
  const labels = node.node?.metadata.labels ?? {};
  for (const t of terms) {
    if (!(t.topologyKey in labels) || !termMatches(t, target)) continue;
    let values = score.get(t.topologyKey);
    if (!values) score.set(t.topologyKey, (values = new Map()));
    const v = labels[t.topologyKey];
    values.set(v, (values.get(v) ?? 0) + sign * (weight ?? t.weight));
  }
}

/**
 * The weights an existing pod lends to its topology (processExistingPod, v1.32 scoring.go;
 * processPod in v1.12 CalculateInterPodAffinityPriority): the incoming pod's preferred
 * affinity (+) and anti-affinity (−) terms the existing pod matches; the existing pod's
 * required affinity terms the incoming pod matches (+ hardPodAffinityWeight); its preferred
 * affinity (+) and anti-affinity (−) terms the incoming pod matches.
 */
function topologyScore(pod: Pod, cluster: ClusterView, rules: TermRules): TopologyScore {
  const own = podTerms(pod, rules);
  const score: TopologyScore = new Map();
  // Unless the pod has preferred terms, only running pods with affinity terms lend weight.
  const onlyWithAffinity = own.preferredAffinity.length + own.preferredAntiAffinity.length === 0;
  for (const { pod: existing, node } of scheduledPods(cluster, onlyWithAffinity)) {
    const theirs = podTerms(existing, rules);
    add(score, own.preferredAffinity, existing, node, 1);
    add(score, own.preferredAntiAffinity, existing, node, -1);
    if (HARD_POD_AFFINITY_WEIGHT > 0) add(score, theirs.requiredAffinity, pod, node, 1, HARD_POD_AFFINITY_WEIGHT);
    add(score, theirs.preferredAffinity, pod, node, 1);
    add(score, theirs.preferredAntiAffinity, pod, node, -1);
  }
  return score;
}

/** A node's raw score: the summed weight of each topology pair it is in (Score). */
function rawScore(score: TopologyScore, node: NodeInfo): number {
  const labels = node.node?.metadata.labels ?? {};
  let s = 0;
  for (const [key, values] of score) if (key in labels) s += values.get(labels[key]) ?? 0;
  return s;
}

/**
 * InterPodAffinity (v1.32 plugin, weight 2; v1.12 InterPodAffinityPriority, weight 1).
 * v1.32 NormalizeScore: 100 × (s − min) / (max − min) over the feasible nodes, 0 when all are
 * equal; skipped (0 everywhere) when no pod lends any weight. v1.12 starts max and min at 0
 * (Go's zero floats), so a node with no weight stays the floor: 10 × (s − min) / (max − min)
 * with min ≤ 0 ≤ max.
 */
export interface AffinityScoreRules extends TermRules {
  /** The top score: 10 (v1.12) or 100 (v1.32). */
  maxScore: number;
  /** v1.12: max and min start at 0, so a node with no weight is the floor. */
  zeroFloor: boolean;
}

export const V1_12_AFFINITY_SCORE: AffinityScoreRules = { namespaceSelector: false, maxScore: 10, zeroFloor: true };
export const V1_32_AFFINITY_SCORE: AffinityScoreRules = { namespaceSelector: true, maxScore: 100, zeroFloor: false };

export function interPodAffinityPriority(rules: AffinityScoreRules): Priority {
  return (pod, meta, nodes) => {
    const score = topologyScore(pod, meta.cluster, rules);
    if (score.size === 0) return nodes.map(() => 0);
    const raw = nodes.map((n) => rawScore(score, n));
    let max = rules.zeroFloor ? 0 : Number.NEGATIVE_INFINITY;
    let min = rules.zeroFloor ? 0 : Number.POSITIVE_INFINITY;
    for (const s of raw) {
      if (s > max) max = s;
      if (s < min) min = s;
    }
    const top = rules.maxScore;
    return raw.map((s) => (max - min > 0 ? Math.trunc(top * ((s - min) / (max - min))) : 0));
  };
}

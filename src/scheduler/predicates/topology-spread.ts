import { Pod } from '../../api/core';
import { PodMeta } from '../meta';
import { countMatching, inclusion, podConstraints, SpreadConstraint } from '../priorities/topology-spread';
import { FITS, Predicate, withForPod } from './predicate';

/** What PreFilter computes once per cycle: the matching pods per topology pair of every eligible node. */
interface SpreadState {
  constraints: SpreadConstraint[];
  /** Per constraint: domain value → matching pods (0 for an eligible domain without any). */
  counts: Map<string, number>[];
}

function state(pod: Pod, meta: PodMeta): SpreadState {
  return meta.once('PodTopologySpread/filter', () => {
    const constraints = podConstraints(pod, 'DoNotSchedule');
    const counts = constraints.map(() => new Map<string, number>());
    if (constraints.length === 0) return { constraints, counts };
    const included = inclusion(pod, meta);
    for (const n of meta.cluster.allNodes()) {
      const labels = n.node?.metadata.labels ?? {};
      // nodeLabelsMatchSpreadConstraints: a node lacking any constraint's key counts for none.
      if (!constraints.every((c) => Object.hasOwn(labels, c.topologyKey))) continue;
      constraints.forEach((c, i) => {
        if (!included(c, n)) return;
        const v = labels[c.topologyKey];
        counts[i].set(v, (counts[i].get(v) ?? 0) + countMatching(n, c.selector, pod.metadata.namespace));
      });
    }
    return { constraints, counts };
  });
}

/**
 * PodTopologySpread's Filter (v1.32 podtopologyspread/filtering.go), the DoNotSchedule
 * half: for each of the pod's DoNotSchedule constraints the node must carry the topology
 * key ("missing required label", UnschedulableAndUnresolvable), and placing the pod there
 * must keep matching pods in that domain + 1 if the pod matches its own selector − the
 * global minimum ≤ maxSkew. The minimum is over the eligible domains (nodes passing the
 * inclusion policies), or 0 while there are fewer than minDomains of them.
 */
export const podTopologySpreadFilter: Predicate = withForPod(
  (pod, meta, node) => {
    const s = state(pod, meta);
    if (s.constraints.length === 0) return FITS;
    const labels = node.labels;
    for (let i = 0; i < s.constraints.length; i++) {
      const c = s.constraints[i];
      if (!Object.hasOwn(labels, c.topologyKey))
        return [{ kind: 'predicate', reason: 'PodTopologySpreadMissingLabel' }];
      const domains = s.counts[i];
      let min = domains.size > 0 ? Number.POSITIVE_INFINITY : 0;
      for (const n of domains.values()) min = Math.min(min, n);
      if (domains.size < (c.minDomains ?? 1)) min = 0;
      const self = c.selector.matches(pod.metadata.labels ?? {}) ? 1 : 0;
      const skew = (domains.get(labels[c.topologyKey]) ?? 0) + self - min;
      if (skew > c.maxSkew) return [{ kind: 'predicate', reason: 'PodTopologySpread' }];
    }
    return FITS;
  },
  // No DoNotSchedule constraint: nothing to filter on.
  (pod, meta) => (state(pod, meta).constraints.length ? podTopologySpreadFilter : undefined),
);

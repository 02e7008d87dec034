import { selectorFromSet } from '../../api/labels/selector';
import { Priority } from './priority';

const ZONE_WEIGHTING = 2 / 3;

/**
 * The reduce step of SelectorSpreadPriority (CalculateSpreadPriorityReduce), on counts of
 * matching pods per node: max × (maxNode − count) / maxNode (max when no node has one);
 * where nodes carry zones, blended 1/3 node, 2/3 zone with the same formula over zone
 * sums; truncated to an integer. Float64 arithmetic, as upstream.
 */
export function spreadScores(counts: readonly number[], zones: readonly string[], maxScore: number): number[] {
  const byZone = new Map<string, number>();
  let maxNode = 0;
  counts.forEach((c, i) => {
    if (c > maxNode) maxNode = c;
    if (zones[i] !== '') byZone.set(zones[i], (byZone.get(zones[i]) ?? 0) + c);
  });
  const maxZone = Math.max(0, ...byZone.values());
  return counts.map((c, i) => {
    let f = maxNode > 0 ? maxScore * ((maxNode - c) / maxNode) : maxScore;
    if (byZone.size > 0 && zones[i] !== '') {
      const zoneScore = maxZone > 0 ? maxScore * ((maxZone - byZone.get(zones[i])!) / maxZone) : maxScore;
      f = f * (1 - ZONE_WEIGHTING) + ZONE_WEIGHTING * zoneScore;
    }
    return Math.trunc(f);
  });
}

/**
 * SelectorSpreadPriority (v1.12 selector_spreading.go): spreads the pods of one service
 * (the reference control plane has no ReplicationController/ReplicaSet/StatefulSet
 * listers in the scheduler, so services are the selectors — upstream's
 * ServiceSpreadingPriority): on each node count the pods of the same namespace, not
 * being deleted, matched by every selector of the services that select the pod
 * (countMatchingPods; releases before it counted a match of any selector).
 */
export function selectorSpread(maxScore: number): Priority {
  return (pod, meta, nodes) => {
    const selectors = meta.cluster.servicesForPod(pod).map((s) => selectorFromSet(s.spec?.selector ?? {}));
    // No selector: every count is 0, so every node gets the max, zones or not.
    if (selectors.length === 0) return new Array<number>(nodes.length).fill(maxScore);
    const counts = nodes.map((n) => {
      let c = 0;
      for (const p of n.pods()) {
        if (p.metadata.namespace !== pod.metadata.namespace || p.metadata.deletionTimestamp) continue;
        if (selectors.every((s) => s.matches(p.metadata.labels))) c++;
      }
      return c;
    });
    return spreadScores(counts, nodes.map((n) => n.zone), maxScore);
  };
}

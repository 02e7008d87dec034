import { Priority } from './priority';

const ZONE_WEIGHTING = 2 / 3;

/**
 * The reduce step of SelectorSpreadPriority (v1.12 CalculateSpreadPriorityReduce), on
 * counts of matching pods per feasible node: max × (maxNode − count) / maxNode (max when
 * no node has one); where feasible nodes carry zones, blended 1/3 node, 2/3 zone with the
 * same formula over zone sums; truncated to an integer. Float64 arithmetic, as upstream.
 * (v1.13 and later count the pods of every node through the pod lister instead.)
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
 * SelectorSpreadPriority (v1.12 selector_spreading.go CalculateSpreadPriorityMap): the
 * selectors are those of the Services, ReplicationControllers, ReplicaSets and
 * StatefulSets that select the pod (getSelectors); on each node count the pods of the
 * same namespace, not being deleted, that match ANY of them (v1.12 breaks at the first
 * match; v1.13's countMatchingPods requires all). ServiceSpreadingPriority is registered
 * with empty controller listers, but its map reads the selectors from the priority
 * metadata, which v1.12's PriorityMetadataFactory builds with all four listers: in a
 * running scheduler it spreads exactly as SelectorSpreadPriority does.
 */
export function selectorSpread(maxScore: number): Priority {
  return (pod, meta, nodes) => {
    const selectors = meta.cluster.spreadSelectors(pod);
    // No selector: every count is 0, so every node gets the max, zones or not.
    if (selectors.length === 0) return new Array<number>(nodes.length).fill(maxScore);
    const counts = nodes.map((n) => {
      let c = 0;
      for (const p of n.pods()) {
        if (p.metadata.namespace !== pod.metadata.namespace || p.metadata.deletionTimestamp) continue;
        if (selectors.some((s) => s.matches(p.metadata.labels))) c++;
      }
      return c;
    });
    return spreadScores(
      counts,
      nodes.map((n) => n.zone),
      maxScore,
    );
  };
}

import { NodeCondition } from '../../api/core';

/** A node with this label (any value) is left out of zone state computations. */
export const EXCLUDE_DISRUPTION_LABEL = 'node.kubernetes.io/exclude-disruption';

export type ZoneState = 'Initial' | 'Normal' | 'FullDisruption' | 'PartialDisruption';

/**
 * Upstream ComputeZoneState: a zone with no ready node and at least one not-ready node
 * is fully disrupted; with more than 2 not-ready nodes and a not-ready fraction of at
 * least the threshold (float32 arithmetic) it is partially disrupted; else normal. A
 * node without a Ready condition counts as not ready.
 */
export function computeZoneState(
  readyConditions: readonly (NodeCondition | undefined)[],
  unhealthyZoneThreshold: number,
): { notReady: number; state: ZoneState } {
  let ready = 0;
  let notReady = 0;
  for (const c of readyConditions) {
    if (c && c.status === 'True') ready++;
    else notReady++;
  }
  if (ready === 0 && notReady > 0) return { notReady, state: 'FullDisruption' };
  if (
    notReady > 2 &&
    Math.fround(Math.fround(notReady) / Math.fround(notReady + ready)) >= Math.fround(unhealthyZoneThreshold)
  ) {
    return { notReady, state: 'PartialDisruption' };
  }
  return { notReady, state: 'Normal' };
}

export interface ZoneRates {
  /** --node-eviction-rate, nodes per second */
  nodeEvictionRate: number;
  /** --secondary-node-eviction-rate */
  secondaryNodeEvictionRate: number;
  /** --large-cluster-size-threshold: a zone is large when it has MORE nodes than this. */
  largeClusterSizeThreshold: number;
}

/**
 * Upstream setLimiterInZone: Normal and FullDisruption evict at the normal rate (a fully
 * disrupted zone still drains while another zone is healthy); PartialDisruption at the
 * secondary rate when the zone is larger than the threshold, else not at all.
 */
export function zoneEvictionRate(state: ZoneState, zoneSize: number, r: ZoneRates): number {
  switch (state) {
    case 'PartialDisruption':
      return zoneSize > r.largeClusterSizeThreshold ? r.secondaryNodeEvictionRate : 0;
    case 'Normal':
    case 'FullDisruption':
    case 'Initial':
      return r.nodeEvictionRate;
  }
}

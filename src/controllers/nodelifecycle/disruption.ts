import { NodeCondition } from '../../api/core';
import { computeZoneState, ZoneRates, ZoneState, zoneEvictionRate } from './zones';

/** What one pass of handleDisruption decided. */
export type DisruptionDecision =
  /** Every zone was and is fully disrupted: change nothing. */
  | { kind: 'stay-master-disruption' }
  /** Every zone just became fully disrupted: untaint every node, stop every queue. */
  | { kind: 'enter-master-disruption' }
  /** Some node is ready again after master disruption: restart every node's timers, set every zone's rate. */
  | { kind: 'exit-master-disruption'; rates: Map<string, number> }
  /** Only zones whose state changed get a new rate. */
  | { kind: 'normal'; rates: Map<string, number> };

/**
 * The zone states the node lifecycle controller keeps between passes and upstream's
 * handleDisruption over them. Pure: the caller applies the decision to its queues.
 */
export class ZoneDisruption {
  readonly states = new Map<string, ZoneState>();

  constructor(private readonly options: ZoneRates & { unhealthyZoneThreshold: number }) {}

  /** A zone seen for the first time (addPodEvictorForNewZone). */
  addZone(zone: string): void {
    if (!this.states.has(zone)) this.states.set(zone, 'Initial');
  }

  /**
   * @param zoneConditions each zone's non-excluded nodes' Ready conditions after this pass
   */
  handle(zoneConditions: Map<string, readonly (NodeCondition | undefined)[]>): DisruptionDecision {
    const newStates = new Map<string, ZoneState>();
    let allAreFullyDisrupted = true;
    for (const [zone, conditions] of zoneConditions) {
      if (!this.states.has(zone)) this.states.set(zone, 'Initial');
      const { state } = computeZoneState(conditions, this.options.unhealthyZoneThreshold);
      newStates.set(zone, state);
      if (state !== 'FullDisruption') allAreFullyDisrupted = false;
    }
    let allWasFullyDisrupted = true;
    for (const [zone, state] of [...this.states]) {
      if (!zoneConditions.has(zone)) {
        this.states.delete(zone); // no nodes left in it; its queue is kept
        continue;
      }
      if (state !== 'FullDisruption') allWasFullyDisrupted = false;
    }
    if (allAreFullyDisrupted && allWasFullyDisrupted) return { kind: 'stay-master-disruption' };
    if (allAreFullyDisrupted) {
      for (const zone of this.states.keys()) this.states.set(zone, 'FullDisruption');
      return { kind: 'enter-master-disruption' };
    }
    const rates = new Map<string, number>();
    const exiting = allWasFullyDisrupted;
    for (const [zone, previous] of this.states) {
      const next = newStates.get(zone)!;
      if (!exiting && next === previous) continue;
      rates.set(zone, zoneEvictionRate(next, zoneConditions.get(zone)!.length, this.options));
      this.states.set(zone, next);
    }
    return exiting ? { kind: 'exit-master-disruption', rates } : { kind: 'normal', rates };
  }
}

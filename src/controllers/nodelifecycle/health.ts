import { jsonEqual } from '../../api/meta';
import { Lease, Node, NodeCondition } from '../../api/core';
import { isoTime, parseTime } from '../../clock';

/** What the controller remembers of a node between passes (upstream nodeHealthData). */
export interface NodeHealth {
  /** When the controller last saw a heartbeat (its own clock, never the kubelet's). */
  probeTimestamp: number;
  /** When the controller last saw the Ready condition change. */
  readyTransitionTimestamp: number;
  /** The node's Ready condition as last seen (undefined: none). */
  ready?: NodeCondition;
  lease?: Lease;
  /** lease's spec.renewTime, parsed once when the lease was recorded (undefined: none or unreadable). */
  leaseRenewTime?: number;
}

export const CONDITIONS_SET_UNKNOWN = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;
/** The seed's release (v1.12) also reset OutOfDisk; it had no separate list upstream. */
export const LEGACY_CONDITIONS_SET_UNKNOWN = [
  'Ready',
  'OutOfDisk',
  'MemoryPressure',
  'DiskPressure',
  'PIDPressure',
] as const;

export interface HealthOptions {
  now: number;
  gracePeriodMs: number;
  startupGracePeriodMs: number;
  /** Condition types set Unknown when the grace period passes. */
  conditionTypes: readonly string[];
}

export interface HealthResult {
  /** Grace period that applied to this node this pass. */
  gracePeriodMs: number;
  /** Ready as observed before this pass changed anything (synthetic Unknown if absent). */
  observed: NodeCondition;
  /** The Ready condition after this pass (undefined if the node has none). */
  current?: NodeCondition;
  /** A new status to write, when the node must be marked Unknown. */
  updatedConditions?: NodeCondition[];
  health: NodeHealth;
}

function sameCondition(a: NodeCondition | undefined, b: NodeCondition | undefined): boolean {
  return jsonEqual(a ?? null, b ?? null);
}

/** Whether the node has been silent past its grace period: strictly after probe + grace. */
export function gracePassed(now: number, health: NodeHealth, gracePeriodMs: number): boolean {
  return now > health.probeTimestamp + gracePeriodMs;
}

/** The first Ready condition (upstream GetNodeCondition): a plain loop, as it runs for every node on every pass. */
function readyCondition(conditions: readonly NodeCondition[]): NodeCondition | undefined {
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === 'Ready') return conditions[i];
  return undefined;
}

/**
 * One node, one pass of upstream's tryUpdateNodeHealth: detect heartbeats (the Ready
 * condition's lastHeartbeatTime changing, or the Lease's renewTime advancing), and once
 * now is strictly after probe + grace, set the conditions Unknown. Pure: the caller
 * writes the status and keeps the returned health record.
 */
export function assessNodeHealth(
  node: Node,
  saved: NodeHealth | undefined,
  lease: Lease | undefined,
  o: HealthOptions,
): HealthResult {
  const now = o.now;
  const conditions = node.status?.conditions ?? [];
  const current = readyCondition(conditions);
  let observed: NodeCondition;
  let gracePeriodMs: number;
  // Kept as it is unless a heartbeat changes it: every change below makes a new record, so
  // the common pass (no heartbeat since the last one) allocates nothing for the node.
  let health: NodeHealth | undefined = saved;

  if (!current) {
    const t = node.metadata.creationTimestamp;
    observed = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: t, lastTransitionTime: t };
    gracePeriodMs = o.startupGracePeriodMs;
    const created = parseTime(node.metadata.creationTimestamp) ?? now;
    health = health ? { ...health, ready: undefined } : { probeTimestamp: created, readyTransitionTimestamp: created };
  } else {
    // Read only: the informer's condition is frozen, so it needs no copy.
    observed = current;
    gracePeriodMs = o.gracePeriodMs;
  }

  // Heartbeat by status: only Ready's lastHeartbeatTime counts.
  const savedReady = health?.ready;
  if (!health) {
    health = { probeTimestamp: now, readyTransitionTimestamp: now, ready: current };
  } else if (!savedReady && current) {
    health = { ...health, probeTimestamp: now, readyTransitionTimestamp: now, ready: current };
  } else if (savedReady && current && savedReady.lastHeartbeatTime !== current.lastHeartbeatTime) {
    const transitioned = savedReady.lastTransitionTime !== current.lastTransitionTime;
    health = {
      ...health,
      probeTimestamp: now,
      readyTransitionTimestamp: transitioned ? now : health.readyTransitionTimestamp,
      ready: current,
    };
  }

  // Heartbeat by Lease: the first lease seen counts, then each strictly later renewTime.
  // The same (frozen) Lease as last pass cannot have been renewed: no need to compare.
  // The seen lease's time is the record's (parsed when it was recorded): no table of parsed
  // times, which at thousands of nodes gained an entry for every Lease version.
  if (lease && lease !== health.lease) {
    const renewed = parseTime(lease.spec?.renewTime);
    if (!health.lease || (health.leaseRenewTime ?? -Infinity) < (renewed ?? -Infinity)) {
      health = { ...health, lease, leaseRenewTime: renewed, probeTimestamp: now };
    }
  }

  if (!gracePassed(now, health, gracePeriodMs)) {
    return { gracePeriodMs, observed, current, health };
  }

  // Grace passed: Unknown, keeping the kubelet's last heartbeat time.
  const stamp = isoTime(now);
  const next = conditions.map((c) => ({ ...c }));
  for (const type of o.conditionTypes) {
    const c = next.find((x) => x.type === type);
    if (!c) {
      next.push({
        type,
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        lastHeartbeatTime: node.metadata.creationTimestamp,
        lastTransitionTime: stamp,
      });
    } else if (c.status !== 'Unknown') {
      c.status = 'Unknown';
      c.reason = 'NodeStatusUnknown';
      c.message = 'Kubelet stopped posting node status.';
      c.lastTransitionTime = stamp;
    }
  }
  const newReady = next.find((c) => c.type === 'Ready');
  if (sameCondition(newReady, observed)) {
    // Ready already Unknown: upstream writes nothing, even if other conditions changed.
    return { gracePeriodMs, observed, current, health };
  }
  return {
    gracePeriodMs,
    observed,
    current: newReady,
    updatedConditions: next,
    health: { ...health, ready: newReady, readyTransitionTimestamp: now },
  };
}

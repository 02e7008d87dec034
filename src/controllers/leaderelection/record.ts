/**
 * client-go's LeaderElectionRecord: who holds a lock and since when, stored in a Lease's
 * spec or, for the older Endpoints / ConfigMap locks, as JSON in the annotation
 * control-plane.alpha.kubernetes.io/leader.
 */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  leaderTransitions: number;
}

export const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

/** What tryAcquireOrRenew decides from the record it read. */
export type Decision = { act: 'create' } | { act: 'wait'; holder: string } | { act: 'write'; renew: boolean };

/**
 * client-go tryAcquireOrRenew's rule: no record → create it; a record held by another
 * identity that this candidate saw change less than leaseDuration ago → wait (the time is
 * the candidate's own observation of the record, not the record's renewTime, so clocks
 * need not agree); else write — a renewal when we hold it, a takeover otherwise.
 */
export function decide(
  record: LeaderElectionRecord | undefined,
  me: string,
  observedAt: number,
  leaseDurationMs: number,
  now: number,
): Decision {
  if (!record) return { act: 'create' };
  const held = record.holderIdentity.length > 0;
  const mine = record.holderIdentity === me;
  if (held && !mine && observedAt + leaseDurationMs > now) return { act: 'wait', holder: record.holderIdentity };
  return { act: 'write', renew: mine };
}

/** The record to write: acquireTime and transitions kept on renewal, transitions + 1 on takeover. */
export function nextRecord(
  old: LeaderElectionRecord | undefined,
  me: string,
  leaseDurationSeconds: number,
  nowIso: string,
): LeaderElectionRecord {
  const renew = old?.holderIdentity === me;
  return {
    holderIdentity: me,
    leaseDurationSeconds,
    acquireTime: renew ? old!.acquireTime : nowIso,
    renewTime: nowIso,
    leaderTransitions: !old ? 0 : renew ? old.leaderTransitions : old.leaderTransitions + 1,
  };
}

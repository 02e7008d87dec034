import { Deployment } from '../../api/resources/deployment';
import { ReplicaSet, WorkloadCondition } from '../../api/resources/replicaset';
import { isoTime, parseTime } from '../../clock';
import { maxUnavailable } from './fenceposts';
import {
  actualReplicaCount,
  availableReplicaCount,
  hasProgressDeadline,
  readyReplicaCount,
  replicaCount,
} from './revisions';

type Status = NonNullable<Deployment['status']>;

// Reasons of the Progressing condition (upstream deployment_util.go).
export const NEW_RS_AVAILABLE = 'NewReplicaSetAvailable';
export const RS_UPDATED = 'ReplicaSetUpdated';
export const TIMED_OUT = 'ProgressDeadlineExceeded';
export const NEW_RS_CREATED = 'NewReplicaSetCreated';
export const FOUND_NEW_RS = 'FoundNewReplicaSet';
export const FAILED_RS_CREATE = 'ReplicaSetCreateError';
export const PAUSED = 'DeploymentPaused';
export const RESUMED = 'DeploymentResumed';

export function condition(
  type: string,
  status: WorkloadCondition['status'],
  reason: string,
  message: string,
  now: number,
): WorkloadCondition {
  const t = isoTime(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export function getCondition(status: Status | undefined, type: string): WorkloadCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/**
 * Upstream SetDeploymentCondition: the same status and reason change nothing (not even
 * lastUpdateTime); the same status keeps lastTransitionTime; the condition moves last.
 */
export function setCondition(status: Status, c: WorkloadCondition): void {
  const current = getCondition(status, c.type);
  if (current && current.status === c.status && current.reason === c.reason) return;
  const next = { ...c };
  if (current && current.status === c.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((x) => x.type !== c.type), next];
}

export function removeCondition(status: Status, type: string): void {
  if (!status.conditions) return;
  status.conditions = status.conditions.filter((c) => c.type !== type);
  if (status.conditions.length === 0) delete status.conditions;
}

/**
 * Upstream calculateStatus (sync.go): counts summed over the ReplicaSets, updatedReplicas
 * from the new one, unavailable = spec replicas of the sets − available (not below 0), and
 * the Available condition: True while available ≥ replicas − maxUnavailable.
 */
export function calculateStatus(
  allSets: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  now: number,
): Status {
  const available = availableReplicaCount(allSets);
  const status: Status = {
    observedGeneration: d.metadata.generation,
    replicas: actualReplicaCount(allSets),
    updatedReplicas: actualReplicaCount([newRS]),
    readyReplicas: readyReplicaCount(allSets),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, replicaCount(allSets) - available),
    ...(d.status?.collisionCount !== undefined ? { collisionCount: d.status.collisionCount } : {}),
    ...(d.status?.conditions ? { conditions: d.status.conditions.map((c) => ({ ...c })) } : {}),
  };
  // Every count is omitempty in apps/v1 DeploymentStatus.
  for (const k of [
    'observedGeneration',
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'unavailableReplicas',
  ] as const)
    if (!status[k]) delete status[k];
  if (available >= (d.spec.replicas ?? 1) - maxUnavailable(d)) {
    setCondition(
      status,
      condition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', now),
    );
  } else {
    setCondition(
      status,
      condition(
        'Available',
        'False',
        'MinimumReplicasUnavailable',
        'Deployment does not have minimum availability.',
        now,
      ),
    );
  }
  return status;
}

/** Upstream DeploymentComplete: every replica updated and available, none old, this generation observed. */
export function deploymentComplete(d: Deployment, s: Status): boolean {
  const replicas = d.spec.replicas ?? 1;
  return (
    (s.updatedReplicas ?? 0) === replicas &&
    (s.replicas ?? 0) === replicas &&
    (s.availableReplicas ?? 0) === replicas &&
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** Upstream DeploymentProgressing: more updated, fewer old, more ready or more available pods than the stored status says. */
export function deploymentProgressing(d: Deployment, s: Status): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** Upstream DeploymentTimedOut: Progressing last updated more than progressDeadlineSeconds ago (strictly). */
export function deploymentTimedOut(d: Deployment, s: Status, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s, 'Progressing');
  if (!c) return false;
  if (c.reason === NEW_RS_AVAILABLE) return false;
  if (c.reason === TIMED_OUT) return true;
  const from = parseTime(c.lastUpdateTime) ?? 0;
  return from + d.spec.progressDeadlineSeconds! * 1000 < now;
}

/**
 * The status syncRolloutStatus writes: calculateStatus plus the Progressing condition —
 * NewReplicaSetAvailable once complete, ReplicaSetUpdated (lastUpdateTime refreshed) on
 * progress, ProgressDeadlineExceeded when the deadline passed without progress — and the
 * ReplicaFailure condition of the ReplicaSets.
 */
export function rolloutStatus(
  allSets: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  now: number,
): Status {
  const s = calculateStatus(allSets, newRS, d, now);
  if (!hasProgressDeadline(d)) removeCondition(s, 'Progressing');
  const current = getCondition(s, 'Progressing');
  const isComplete = s.replicas === s.updatedReplicas && current?.reason === NEW_RS_AVAILABLE;
  if (hasProgressDeadline(d) && !isComplete) {
    const what = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`;
    if (deploymentComplete(d, s)) {
      setCondition(s, condition('Progressing', 'True', NEW_RS_AVAILABLE, `${what} has successfully progressed.`, now));
    } else if (deploymentProgressing(d, s)) {
      const c = condition('Progressing', 'True', RS_UPDATED, `${what} is progressing.`, now);
      if (current?.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
      removeCondition(s, 'Progressing');
      setCondition(s, c);
    } else if (deploymentTimedOut(d, s, now)) {
      setCondition(s, condition('Progressing', 'False', TIMED_OUT, `${what} has timed out progressing.`, now));
    }
  }
  const failure = allSets.flatMap((rs) => rs?.status?.conditions ?? []).find((c) => c.type === 'ReplicaFailure');
  if (failure) setCondition(s, { ...failure, lastUpdateTime: failure.lastTransitionTime });
  else removeCondition(s, 'ReplicaFailure');
  return s;
}

/** Upstream requeueStuckDeployment: ms until the deadline check is due, or undefined when none is. */
export function stuckRecheckIn(d: Deployment, s: Status, now: number): number | undefined {
  const c = getCondition(s, 'Progressing');
  if (!hasProgressDeadline(d) || !c) return undefined;
  if (deploymentComplete(d, s) || c.reason === TIMED_OUT) return undefined;
  const due = (parseTime(c.lastUpdateTime) ?? 0) + d.spec.progressDeadlineSeconds! * 1000 - now;
  return Math.max(0, due);
}

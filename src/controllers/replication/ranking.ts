import { Pod, podCondition } from '../../api/core';
import { parseTime } from '../../clock';

/** Upstream IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

export function isPodReady(pod: Pod): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function maxRestarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount));
}

/** Upstream afterOrZero: a missing (zero) time goes first, else the later one; negative when a goes first. */
function laterOrZeroFirst(a: string | null | undefined, b: string | null | undefined): number {
  const ta = parseTime(a ?? undefined);
  const tb = parseTime(b ?? undefined);
  if (ta === tb) return 0;
  if (ta === undefined) return -1;
  if (tb === undefined) return 1;
  return ta > tb ? -1 : 1;
}

/**
 * Upstream ActivePods.Less (controller_utils.go), "smaller is deleted first": unassigned
 * before assigned; Pending < Unknown < Running; not ready before ready; among ready pods
 * the more recently ready first; more container restarts first; newer pods first.
 * Returns a negative number when a goes before b.
 */
export function compareForDeletion(a: Pod, b: Pod): number {
  const assignedA = a.spec.nodeName ? 1 : 0;
  const assignedB = b.spec.nodeName ? 1 : 0;
  if (assignedA !== assignedB) return assignedA - assignedB;
  const phaseA = PHASE_RANK[a.status?.phase ?? 'Pending'] ?? 0;
  const phaseB = PHASE_RANK[b.status?.phase ?? 'Pending'] ?? 0;
  if (phaseA !== phaseB) return phaseA - phaseB;
  const readyA = isPodReady(a) ? 1 : 0;
  const readyB = isPodReady(b) ? 1 : 0;
  if (readyA !== readyB) return readyA - readyB;
  if (readyA && readyB) {
    const since = laterOrZeroFirst(podCondition(a, 'Ready')?.lastTransitionTime, podCondition(b, 'Ready')?.lastTransitionTime);
    if (since !== 0) return since; // more recently ready first
  }
  const restartsA = maxRestarts(a);
  const restartsB = maxRestarts(b);
  if (restartsA !== restartsB) return restartsB - restartsA;
  return laterOrZeroFirst(a.metadata.creationTimestamp, b.metadata.creationTimestamp); // newer first
}

/** The pods to delete when diff too many run (upstream getPodsToDelete): all when scaling to 0, else the first diff by rank. */
export function podsToDelete(pods: readonly Pod[], diff: number, replicas: number): Pod[] {
  if (replicas === 0) return pods.slice(0, diff);
  return [...pods].sort(compareForDeletion).slice(0, diff);
}

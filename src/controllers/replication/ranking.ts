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

/** Missing times sort as the zero time, i.e. before any real one. */
function time(s: string | null | undefined): number {
  return parseTime(s ?? undefined) ?? Number.NEGATIVE_INFINITY;
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
    const sinceA = time(podCondition(a, 'Ready')?.lastTransitionTime);
    const sinceB = time(podCondition(b, 'Ready')?.lastTransitionTime);
    if (sinceA !== sinceB) return sinceB - sinceA > 0 ? 1 : -1; // more recent first
  }
  const restartsA = maxRestarts(a);
  const restartsB = maxRestarts(b);
  if (restartsA !== restartsB) return restartsB - restartsA;
  const createdA = time(a.metadata.creationTimestamp);
  const createdB = time(b.metadata.creationTimestamp);
  if (createdA !== createdB) return createdB - createdA > 0 ? 1 : -1; // newer first
  return 0;
}

/** The pods to delete when diff too many run (upstream getPodsToDelete): all when scaling to 0, else the first diff by rank. */
export function podsToDelete(pods: readonly Pod[], diff: number, replicas: number): Pod[] {
  if (replicas === 0) return pods.slice(0, diff);
  return [...pods].sort(compareForDeletion).slice(0, diff);
}

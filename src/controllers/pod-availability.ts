import { Pod, podCondition } from '../api/core';
import { parseTime } from '../clock';

/** Upstream IsPodReady (pkg/api/v1/pod/util.go): the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

/**
 * Upstream IsPodAvailable (pkg/api/v1/pod/util.go, the same at v1.12 and v1.32): ready, and
 * either minReadySeconds is 0 or the Ready condition's lastTransitionTime + minReadySeconds
 * is strictly before now (`.Before(now)`): at exactly minReadySeconds the pod is not yet
 * available.
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = parseTime(podCondition(pod, 'Ready')?.lastTransitionTime);
  return since !== undefined && since + minReadySeconds * 1000 < now;
}

/**
 * When a controller looks again at ready pods that are not yet available. Upstream requeues
 * minReadySeconds after a sync that ran after the pods turned ready (real time has passed in
 * between), so that look sees them ready for more than minReadySeconds. In virtual time the
 * sync and the transition can share an instant: looking one millisecond later keeps that.
 */
export function availabilityRecheckMs(minReadySeconds: number): number {
  return minReadySeconds * 1000 + 1;
}

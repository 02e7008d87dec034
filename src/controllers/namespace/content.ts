import { KubeObject } from '../../api/meta';

export const KUBERNETES_FINALIZER = 'kubernetes';

/** spec.finalizers after the controller's own token is removed: de-duplicated and sorted (upstream finalizeNamespace). */
export function finalizersWithout(finalizers: readonly string[] | undefined, token = KUBERNETES_FINALIZER): string[] {
  return [...new Set((finalizers ?? []).filter((f) => f !== token))].sort();
}

/** Upstream's finalizer estimate: 15 s for an object held by finalizers. */
export const FINALIZER_ESTIMATE_SECONDS = 15;

/** Delay before a namespace marked for deletion is processed (upstream namespaceDeletionGracePeriod). */
export const NAMESPACE_DELETION_GRACE_MS = 5_000;

/**
 * How long the remaining content will probably take, in seconds (upstream
 * estimateGracefulTermination + deleteAllContentForGroupVersionResource, v1.12 and v1.32):
 * for pods, the longest spec.terminationGracePeriodSeconds of those not yet Succeeded or
 * Failed, as listed before they were deleted — 0 once the namespace has been deleting
 * that long; for anything else 0. Remaining content with finalizers and no such estimate
 * gets finalizerEstimateSeconds (15). 0 with content left is unexpected (an error upstream,
 * retried with backoff).
 */
export function remainingEstimate(
  podsBefore: readonly KubeObject[],
  remaining: readonly KubeObject[],
  deletedAt: number,
  now: number,
): number {
  let estimate = 0;
  for (const p of podsBefore as readonly {
    status?: { phase?: string };
    spec?: { terminationGracePeriodSeconds?: number };
  }[]) {
    const phase = p.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const grace = p.spec?.terminationGracePeriodSeconds;
    if (grace !== undefined && grace > estimate) estimate = grace;
  }
  if (now - deletedAt >= estimate * 1000) estimate = 0;
  if (estimate === 0 && remaining.some((o) => (o.metadata.finalizers ?? []).length > 0))
    estimate = FINALIZER_ESTIMATE_SECONDS;
  return estimate;
}

/** Upstream's requeue for content remaining: half the estimate, plus one second. */
export function recheckAfterMs(estimateSeconds: number): number {
  return (Math.floor(estimateSeconds / 2) + 1) * 1000;
}

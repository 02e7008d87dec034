import { KubeObject } from '../../api/meta';
import { parseTime } from '../../clock';

export const KUBERNETES_FINALIZER = 'kubernetes';

/** spec.finalizers after the controller's own token is removed: de-duplicated and sorted (upstream finalizeNamespace). */
export function finalizersWithout(finalizers: readonly string[] | undefined, token = KUBERNETES_FINALIZER): string[] {
  return [...new Set((finalizers ?? []).filter((f) => f !== token))].sort();
}

/** Upstream's finalizer estimate: 15 s for an object held by finalizers. */
export const FINALIZER_ESTIMATE_SECONDS = 15;

/**
 * How long until the remaining content is probably gone (upstream estimateGracefulTermination
 * for pods, the finalizer estimate otherwise), in seconds, at least 1.
 */
export function remainingEstimate(remaining: readonly KubeObject[], now: number): number {
  let estimate = 1;
  for (const o of remaining) {
    const due = parseTime(o.metadata.deletionTimestamp);
    const graceLeft = due !== undefined ? Math.ceil((due - now) / 1000) : 0;
    const held = (o.metadata.finalizers ?? []).length > 0 ? FINALIZER_ESTIMATE_SECONDS : 0;
    estimate = Math.max(estimate, graceLeft, held);
  }
  return estimate;
}

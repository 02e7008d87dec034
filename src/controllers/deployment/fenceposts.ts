import { scaledValue } from '../../api/intstr';
import { Deployment, IntOrString } from '../../api/resources/deployment';

/**
 * Upstream ResolveFenceposts: maxSurge rounds up, maxUnavailable rounds down; when both come
 * out 0 (validation forbids that as written, rounding down can still get there),
 * maxUnavailable becomes 1 so the rollout can progress.
 */
export function resolveFenceposts(
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge, desired, true);
  let unavailable = scaledValue(maxUnavailable, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function isRollingUpdate(d: Deployment): boolean {
  return (d.spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** Upstream MaxUnavailable: 0 unless rolling with replicas; never more than replicas. */
export function maxUnavailable(d: Deployment): number {
  const replicas = d.spec.replicas ?? 1;
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const ru = d.spec.strategy?.rollingUpdate;
  const { unavailable } = resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, replicas);
  return Math.min(unavailable, replicas);
}

/** Upstream MaxSurge: 0 unless rolling. */
export function maxSurge(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = d.spec.strategy?.rollingUpdate;
  return resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, d.spec.replicas ?? 1).surge;
}

import { Deployment, IntOrString } from '../../api/resources/deployment';

/**
 * Upstream GetScaledValueFromIntOrPercent (apimachinery intstr): an integer is itself; "N%"
 * is N percent of total, rounded up or down as asked. Anything else is an error.
 */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m)
    throw new Error(`invalid value for IntOrString: invalid value "${v}": must be an integer or percentage (e.g '5%')`);
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

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

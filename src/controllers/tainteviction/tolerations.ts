import { Taint, Toleration } from '../../api/core';
import { toleratesTaint } from '../../api/taints';

/**
 * Upstream GetMatchingTolerations: whether every taint is tolerated, and the tolerations
 * used (the first matching toleration of each taint).
 */
export function matchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): { all: boolean; used: Toleration[] } {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = tolerations.find((tol) => toleratesTaint(tol, taint));
    if (!t) return { all: false, used: [] };
    used.push(t);
  }
  return { all: true, used };
}

/**
 * Upstream getMinTolerationTime, in ms: 0 for none used or any tolerationSeconds <= 0; the
 * smallest positive value otherwise; -1 ("forever") when every used toleration has no
 * tolerationSeconds.
 */
export function minTolerationTime(used: readonly Toleration[]): number {
  if (used.length === 0) return 0;
  let min = -1;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    const ms = t.tolerationSeconds * 1000;
    if (min < 0 || ms < min) min = ms;
  }
  return min;
}

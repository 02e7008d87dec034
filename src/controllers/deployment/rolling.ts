import { Deployment } from '../../api/resources/deployment';
import { ReplicaSet } from '../../api/resources/replicaset';
import { isRollingUpdate, maxSurge, maxUnavailable } from './fenceposts';
import {
  activeReplicaSets,
  availableReplicaCount,
  byCreation,
  desiredReplicasAnnotation,
  maxReplicasAnnotation,
  replicaCount,
  specReplicas,
} from './revisions';

/** A ReplicaSet and the size the rule gives it. */
export interface Resize {
  rs: ReplicaSet;
  replicas: number;
}

/**
 * Upstream NewRSNewReplicas: under RollingUpdate the new ReplicaSet grows while all
 * ReplicaSets together stay within replicas + maxSurge, and never beyond replicas;
 * under Recreate it takes all replicas at once.
 */
export function newRSNewReplicas(d: Deployment, allSets: readonly ReplicaSet[], newRS: ReplicaSet): number {
  const replicas = d.spec.replicas ?? 1;
  if (!isRollingUpdate(d)) return replicas;
  const maxTotal = replicas + maxSurge(d);
  const current = replicaCount(allSets);
  if (current >= maxTotal) return specReplicas(newRS);
  const up = Math.min(maxTotal - current, replicas - specReplicas(newRS));
  return specReplicas(newRS) + up;
}

/** Upstream reconcileNewReplicaSet: the new ReplicaSet's next size, or undefined to leave it. */
export function reconcileNewReplicaSet(
  allSets: readonly ReplicaSet[],
  newRS: ReplicaSet,
  d: Deployment,
): number | undefined {
  const replicas = d.spec.replicas ?? 1;
  if (specReplicas(newRS) === replicas) return undefined;
  if (specReplicas(newRS) > replicas) return replicas;
  const next = newRSNewReplicas(d, allSets, newRS);
  return next === specReplicas(newRS) ? undefined : next;
}

/**
 * Upstream reconcileOldReplicaSets: how far old ReplicaSets may shrink without the
 * available pods falling below replicas − maxUnavailable, not counting the new
 * ReplicaSet's unavailable pods as room. First the old ReplicaSets' unhealthy replicas go
 * (cleanupUnhealthyReplicas), then available ones, oldest ReplicaSet first
 * (scaleDownOldReplicaSetsForRollingUpdate). Returns the resizes in order.
 */
export function reconcileOldReplicaSets(
  allSets: readonly ReplicaSet[],
  oldSets: readonly ReplicaSet[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
): Resize[] {
  const oldCount = replicaCount(oldSets);
  if (oldCount === 0) return [];
  const allCount = replicaCount(allSets);
  const minAvailable = (d.spec.replicas ?? 1) - maxUnavailable(d);
  const newUnavailable = newRS ? specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0) : 0;
  const maxScaledDown = allCount - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return [];
  const sizes = new Map(oldSets.map((rs) => [rs.metadata.uid, specReplicas(rs)]));
  const resizes: Resize[] = [];
  const record = (rs: ReplicaSet, replicas: number) => {
    sizes.set(rs.metadata.uid, replicas);
    const i = resizes.findIndex((r) => r.rs.metadata.uid === rs.metadata.uid);
    if (i >= 0) resizes[i].replicas = replicas;
    else resizes.push({ rs, replicas });
  };
  const sorted = [...oldSets].sort(byCreation);
  const cleaned = cleanupUnhealthyReplicas(sorted, maxScaledDown);
  for (const r of cleaned) record(r.rs, r.replicas);
  // The rest: available pods across every ReplicaSet, with the sizes cleanup left.
  const afterCleanup = sorted.map((rs) => ({ ...rs, spec: { ...rs.spec, replicas: sizes.get(rs.metadata.uid)! } }));
  for (const r of scaleDownOldForRollingUpdate(allSets, afterCleanup, d))
    record(sorted.find((rs) => rs.metadata.uid === r.rs.metadata.uid)!, r.replicas);
  return resizes;
}

/**
 * Upstream scaleDownOldReplicaSetsForRollingUpdate: shrink old ReplicaSets (oldest first) by
 * as many as the available pods exceed replicas − maxUnavailable. Not capped by
 * reconcileOldReplicaSets' maxScaledDown: the ReplicaSet controller deletes unavailable
 * pods first, so available pods stay at the minimum.
 */
export function scaleDownOldForRollingUpdate(
  allSets: readonly ReplicaSet[],
  oldSets: readonly ReplicaSet[],
  d: Deployment,
): Resize[] {
  const minAvailable = (d.spec.replicas ?? 1) - maxUnavailable(d);
  const available = availableReplicaCount(allSets);
  if (available <= minAvailable) return [];
  const total = available - minAvailable;
  const out: Resize[] = [];
  let done = 0;
  for (const rs of [...oldSets].sort(byCreation)) {
    if (done >= total) break;
    if (specReplicas(rs) === 0) continue;
    const down = Math.min(specReplicas(rs), total - done);
    out.push({ rs, replicas: specReplicas(rs) - down });
    done += down;
  }
  return out;
}

/**
 * Upstream cleanupUnhealthyReplicas: scale old ReplicaSets (oldest first) down by their
 * unavailable replicas, at most maxCleanup in all.
 */
export function cleanupUnhealthyReplicas(oldSets: readonly ReplicaSet[], maxCleanup: number): Resize[] {
  const out: Resize[] = [];
  let total = 0;
  for (const rs of [...oldSets].sort(byCreation)) {
    if (total >= maxCleanup) break;
    const replicas = specReplicas(rs);
    const available = rs.status?.availableReplicas ?? 0;
    if (replicas === 0 || replicas === available) continue;
    const down = Math.min(maxCleanup - total, replicas - available);
    out.push({ rs, replicas: replicas - down });
    total += down;
  }
  return out;
}

/** Upstream IsSaturated: the new ReplicaSet has all replicas, annotated so, all available. */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const replicas = d.spec.replicas ?? 1;
  return (
    desiredReplicasAnnotation(rs) === replicas &&
    specReplicas(rs) === replicas &&
    (rs.status?.availableReplicas ?? 0) === replicas
  );
}

/** Upstream FindActiveOrLatest: the only active ReplicaSet, or the newest when none is active, else undefined. */
export function findActiveOrLatest(
  newRS: ReplicaSet | undefined,
  oldSets: readonly ReplicaSet[],
): ReplicaSet | undefined {
  if (!newRS && oldSets.length === 0) return undefined;
  const newestFirst = [...oldSets].sort((a, b) => byCreation(b, a));
  const active = activeReplicaSets([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  if (active.length === 1) return active[0];
  return undefined;
}

/** Upstream isScalingEvent: an active ReplicaSet was annotated for another size than spec.replicas. */
export function isScalingEvent(d: Deployment, sets: readonly (ReplicaSet | undefined)[]): boolean {
  return activeReplicaSets(sets).some((rs) => {
    const desired = desiredReplicasAnnotation(rs);
    return desired !== undefined && desired !== (d.spec.replicas ?? 1);
  });
}

/** Go's math.Round: half away from zero. */
const round = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

/** Upstream getReplicaSetFraction: this ReplicaSet's share of a resize, by its max-replicas annotation. */
function replicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  const replicas = d.spec.replicas ?? 1;
  if (replicas === 0) return -specReplicas(rs);
  const deploymentReplicas = replicas + maxSurge(d);
  const annotated = maxReplicasAnnotation(rs) ?? d.status?.replicas ?? 0;
  return round((specReplicas(rs) * deploymentReplicas) / annotated) - specReplicas(rs);
}

/**
 * Upstream scale (sync.go): a scaling event during a rollout. One active (or the latest)
 * ReplicaSet simply takes spec.replicas; a saturated new ReplicaSet sends the old ones to 0;
 * otherwise (RollingUpdate) replicas + maxSurge is shared out in proportion to each
 * ReplicaSet's size (GetProportion), the leftover to the first — the largest, newest first
 * when growing, oldest first when shrinking. Returns the sizes to write (every active
 * ReplicaSet when proportional: their annotations are refreshed too) and the direction.
 */
export function proportionalScale(
  d: Deployment,
  newRS: ReplicaSet | undefined,
  oldSets: readonly ReplicaSet[],
): { resizes: Resize[]; operation?: 'up' | 'down' } {
  const replicas = d.spec.replicas ?? 1;
  const one = findActiveOrLatest(newRS, oldSets);
  if (one) return specReplicas(one) === replicas ? { resizes: [] } : { resizes: [{ rs: one, replicas }] };
  if (isSaturated(d, newRS)) return { resizes: activeReplicaSets(oldSets).map((rs) => ({ rs, replicas: 0 })) };
  if (!isRollingUpdate(d)) return { resizes: [] };
  const all = activeReplicaSets([...oldSets, newRS]);
  const allowed = replicas > 0 ? replicas + maxSurge(d) : 0;
  const toAdd = allowed - replicaCount(all);
  let operation: 'up' | 'down' | undefined;
  if (toAdd > 0) {
    operation = 'up';
    all.sort((a, b) => specReplicas(b) - specReplicas(a) || byCreation(b, a)); // ReplicaSetsBySizeNewer
  } else if (toAdd < 0) {
    operation = 'down';
    all.sort((a, b) => specReplicas(b) - specReplicas(a) || byCreation(a, b)); // ReplicaSetsBySizeOlder
  }
  const sizes = all.map((rs) => specReplicas(rs));
  let added = 0;
  if (toAdd !== 0) {
    all.forEach((rs, i) => {
      let p = 0;
      if (specReplicas(rs) !== 0 && toAdd !== added) {
        const fraction = replicaSetFraction(rs, d);
        const allowedLeft = toAdd - added;
        p = toAdd > 0 ? Math.min(fraction, allowedLeft) : Math.max(fraction, allowedLeft);
      }
      sizes[i] += p;
      added += p;
    });
    sizes[0] = Math.max(0, sizes[0] + toAdd - added);
  }
  return { resizes: all.map((rs, i) => ({ rs, replicas: sizes[i] })), operation };
}

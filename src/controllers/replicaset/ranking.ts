import { Pod, podCondition } from '../../api/core';
import { isPodReady } from '../pod-availability';
import { parseTime } from '../../clock';

/** Upstream IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function maxRestarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount));
}

/** Upstream afterOrZero on times in ms (undefined = zero): a zero time goes first, else the later one; negative when a goes first. */
function afterOrZero(ta: number | undefined, tb: number | undefined): number {
  if (ta === tb) return 0;
  if (ta === undefined) return -1;
  if (tb === undefined) return 1;
  return ta > tb ? -1 : 1;
}

function laterOrZeroFirst(a: string | null | undefined, b: string | null | undefined): number {
  return afterOrZero(parseTime(a ?? undefined), parseTime(b ?? undefined));
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
    const since = laterOrZeroFirst(
      podCondition(a, 'Ready')?.lastTransitionTime,
      podCondition(b, 'Ready')?.lastTransitionTime,
    );
    if (since !== 0) return since; // more recently ready first
  }
  const restartsA = maxRestarts(a);
  const restartsB = maxRestarts(b);
  if (restartsA !== restartsB) return restartsB - restartsA;
  return laterOrZeroFirst(a.metadata.creationTimestamp, b.metadata.creationTimestamp); // newer first
}

/** Which ordering a release's getPodsToDelete sorts by. */
export type DeletionOrder = 'ActivePods' | 'ActivePodsWithRanks';

export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/**
 * GetDeletionCostFromPodAnnotations: the annotation as an int32 (strconv.ParseInt base 10);
 * absent, or refused by validFirstDigit (a leading "+", or a leading zero after which
 * more follows — "-010" passes, its sign first), or out of int32 range, counts 0.
 */
export function deletionCost(pod: Pod): number {
  const v = pod.metadata.annotations?.[POD_DELETION_COST];
  if (v === undefined || !/^(-[0-9]+|0|[1-9][0-9]*)$/.test(v)) return 0;
  const n = Number(v);
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

/** podReadyTime: the Ready=True condition's lastTransitionTime; undefined (zero) otherwise. */
function readyTime(pod: Pod): number | undefined {
  if (!isPodReady(pod)) return undefined;
  return parseTime(podCondition(pod, 'Ready')?.lastTransitionTime ?? undefined);
}

/** logarithmicRankDiff: ⌊log2⌋ of each age in nanoseconds (−1 when not positive), compared. */
function logRankDiff(t1: number, t2: number, now: number): number {
  const rank = (t: number) => {
    const d = (now - t) * 1e6;
    return d > 0 ? Math.floor(Math.log2(d)) : -1;
  };
  return rank(t1) - rank(t2);
}

/** afterOrZero with LogarithmicScaleDown: a zero time first, else by log2 age, equal buckets by UID. */
function logarithmicOrder(a: Pod, ta: number | undefined, b: Pod, tb: number | undefined, now: number): number {
  if (ta === undefined || tb === undefined || now === 0) return afterOrZero(ta, tb);
  const diff = logRankDiff(ta, tb, now);
  if (diff !== 0) return diff;
  const ua = a.metadata.uid ?? '';
  const ub = b.metadata.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

/** maxContainerRestarts (v1.32): app containers, then restartable init (sidecar) containers. */
function restarts(pod: Pod): [number, number] {
  const sidecars = new Set(
    (pod.spec.initContainers ?? [])
      .filter((c) => (c as { restartPolicy?: string }).restartPolicy === 'Always')
      .map((c) => c.name),
  );
  const side = (pod.status?.initContainerStatuses ?? []).filter((c) => sidecars.has(c.name)).map((c) => c.restartCount);
  return [maxRestarts(pod), Math.max(0, ...side)];
}

/**
 * ActivePodsWithRanks.Less (v1.32 controller_utils.go), negative when a goes first:
 * unassigned; Pending < Unknown < Running; not ready; lower pod-deletion-cost; higher rank
 * (more related pods on its node); among ready pods the more recently ready by log2 age
 * (LogarithmicScaleDown); more restarts (app, then sidecar); newer by log2 age.
 */
export function compareWithRanks(a: Pod, rankA: number, b: Pod, rankB: number, now: number): number {
  const assignedA = a.spec.nodeName ? 1 : 0;
  const assignedB = b.spec.nodeName ? 1 : 0;
  if (a.spec.nodeName !== b.spec.nodeName && assignedA !== assignedB) return assignedA - assignedB;
  const phaseA = PHASE_RANK[a.status?.phase ?? 'Pending'] ?? 0;
  const phaseB = PHASE_RANK[b.status?.phase ?? 'Pending'] ?? 0;
  if (phaseA !== phaseB) return phaseA - phaseB;
  const readyA = isPodReady(a);
  const readyB = isPodReady(b);
  if (readyA !== readyB) return readyA ? 1 : -1;
  const costA = deletionCost(a);
  const costB = deletionCost(b);
  if (costA !== costB) return costA - costB;
  if (rankA !== rankB) return rankB - rankA;
  if (readyA && readyB) {
    const ta = readyTime(a);
    const tb = readyTime(b);
    if (ta !== tb) {
      const o = logarithmicOrder(a, ta, b, tb, now);
      if (o !== 0) return o;
    }
  }
  const [ra, sa] = restarts(a);
  const [rb, sb] = restarts(b);
  if (ra !== rb) return rb - ra;
  if (sa !== sb) return sb - sa;
  const ca = parseTime(a.metadata.creationTimestamp ?? undefined);
  const cb = parseTime(b.metadata.creationTimestamp ?? undefined);
  if (ca !== cb) return logarithmicOrder(a, ca, b, cb, now);
  return 0;
}

/** getPodsRankedByRelatedPodsOnSameNode: each pod's rank is the number of active related pods on its node ("" for unassigned). */
export function ranksByRelatedPods(pods: readonly Pod[], related: readonly Pod[]): number[] {
  const onNode = new Map<string, number>();
  for (const p of related)
    if (isPodActive(p)) onNode.set(p.spec.nodeName ?? '', (onNode.get(p.spec.nodeName ?? '') ?? 0) + 1);
  return pods.map((p) => onNode.get(p.spec.nodeName ?? '') ?? 0);
}

/**
 * getPodsToDelete: when fewer than all pods go, sort them — v1.12 by ActivePods, v1.32 by
 * ActivePodsWithRanks over the pods of the ReplicaSets sharing the controller's owner
 * (none for an unowned ReplicaSet or a ReplicationController) — and take the first diff;
 * when all go, they go in the order given.
 */
export function podsToDelete(
  pods: readonly Pod[],
  diff: number,
  order: DeletionOrder = 'ActivePods',
  related: readonly Pod[] = [],
  now = 0,
): Pod[] {
  if (diff >= pods.length) return pods.slice(0, diff);
  if (order === 'ActivePods') return [...pods].sort(compareForDeletion).slice(0, diff);
  const ranks = ranksByRelatedPods(pods, related);
  const idx = pods.map((_, i) => i).sort((i, j) => compareWithRanks(pods[i], ranks[i], pods[j], ranks[j], now));
  return idx.slice(0, diff).map((i) => pods[i]);
}

import { DaemonSet, Pod } from '../../api/core';
import { isPodAvailable, isPodReady } from '../pod-availability';
import { scaledValue } from '../../api/intstr';
import { TEMPLATE_GENERATION_ANNOTATION } from '../../api/resources/daemonset';

/**
 * The DaemonSet controller's rules as pure functions (pkg/controller/daemon: manage,
 * podsShouldBeOnNode, rollingUpdate, updateDaemonSetStatus, util.IsPodUpdated), over a
 * node → pods map the controller builds from its caches. Two releases differ: v1.12 knows
 * only maxUnavailable and counts every desired node without an available pod as
 * unavailable; v1.22+ (maxSurge) counts per node that has pods and can surge.
 */

export const REVISION_HASH_LABEL = 'controller-revision-hash';
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

export interface NodeView {
  name: string;
  shouldRun: boolean;
  shouldContinueRunning: boolean;
}

export interface Plan {
  /** Nodes to create a daemon pod on. */
  create: string[];
  /** Pods to delete, by name. */
  delete: string[];
}

export function templateGeneration(ds: DaemonSet): string | undefined {
  return ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
}

/** Upstream util.IsPodUpdated: the pod carries the current revision hash, or the current template generation. */
export function isPodUpdated(pod: Pod, hash: string, generation: string | undefined): boolean {
  const byGeneration = generation !== undefined && pod.metadata.labels?.[TEMPLATE_GENERATION_LABEL] === generation;
  const byHash = hash !== '' && pod.metadata.labels?.[REVISION_HASH_LABEL] === hash;
  return byHash || byGeneration;
}

/** Upstream podByCreationTimestampAndPhase: running pods first, then the oldest, then by name. */
export function byCreationAndPhase(a: Pod, b: Pod): number {
  const ar = a.status?.phase === 'Running' ? 0 : 1;
  const br = b.status?.phase === 'Running' ? 0 : 1;
  if (ar !== br) return ar - br;
  const at = a.metadata.creationTimestamp ?? '';
  const bt = b.metadata.creationTimestamp ?? '';
  if (at !== bt) return at < bt ? -1 : 1;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}

/** Upstream util.SurgeCount / UnavailableCount (both round up), and the 0/0 → unavailable 1 fallback of updatedDesiredNodeCounts. */
export function rollingNumbers(
  ds: DaemonSet,
  desired: number,
  surgeEnabled: boolean,
): { maxSurge: number; maxUnavailable: number } {
  const ru = ds.spec.updateStrategy?.type === 'RollingUpdate' ? ds.spec.updateStrategy.rollingUpdate : undefined;
  const maxSurge = surgeEnabled && ru ? scaledValue(ru.maxSurge, desired, true) : 0;
  let maxUnavailable = ru ? scaledValue(ru.maxUnavailable, desired, true) : 0;
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/** Upstream util.AllowsSurge: a rolling update whose maxSurge comes to more than 0 of one pod. */
export function allowsSurge(ds: DaemonSet, surgeEnabled: boolean): boolean {
  return (
    surgeEnabled &&
    ds.spec.updateStrategy?.type === 'RollingUpdate' &&
    scaledValue(ds.spec.updateStrategy.rollingUpdate?.maxSurge, 1, true) > 0
  );
}

/**
 * Upstream manage + podsShouldBeOnNode: a pod where one should run and none exists (a
 * terminating pod still counts as existing); failed pods deleted; where pods should no
 * longer run, all deleted; extra pods deleted, keeping the oldest — or, when surging, the
 * oldest new pod plus the oldest old one while the old is ready and the new not yet available.
 */
export function managePlan(
  ds: DaemonSet,
  nodes: readonly NodeView[],
  podsByNode: ReadonlyMap<string, Pod[]>,
  hash: string,
  now: number,
  surgeEnabled: boolean,
): Plan {
  const plan: Plan = { create: [], delete: [] };
  const minReady = ds.spec.minReadySeconds ?? 0;
  const known = new Set(nodes.map((n) => n.name));
  for (const node of nodes) {
    const pods = podsByNode.get(node.name) ?? [];
    if (node.shouldRun && pods.length === 0) {
      plan.create.push(node.name);
      continue;
    }
    if (!node.shouldContinueRunning) {
      for (const p of pods) if (!p.metadata.deletionTimestamp) plan.delete.push(p.metadata.name!);
      continue;
    }
    const running: Pod[] = [];
    for (const p of pods) {
      if (p.metadata.deletionTimestamp) continue;
      if (p.status?.phase === 'Failed') plan.delete.push(p.metadata.name!);
      else running.push(p);
    }
    running.sort(byCreationAndPhase);
    if (!allowsSurge(ds, surgeEnabled)) {
      for (const p of running.slice(1)) plan.delete.push(p.metadata.name!);
      continue;
    }
    let oldestNew: Pod | undefined;
    let oldestOld: Pod | undefined;
    for (const p of running) {
      if (p.metadata.labels?.[REVISION_HASH_LABEL] === hash) {
        if (!oldestNew) {
          oldestNew = p;
          continue;
        }
      } else if (!oldestOld) {
        oldestOld = p;
        continue;
      }
      plan.delete.push(p.metadata.name!);
    }
    if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, minReady, now)))
      plan.delete.push(oldestOld.metadata.name!);
  }
  // Pods bound to nodes that are gone.
  for (const [node, pods] of podsByNode) {
    if (known.has(node)) continue;
    for (const p of pods) if (!p.metadata.deletionTimestamp) plan.delete.push(p.metadata.name!);
  }
  return plan;
}

/** Nodes in name order, so the reference picks deterministically where upstream iterates a map. */
function sortedEntries(podsByNode: ReadonlyMap<string, Pod[]>): [string, Pod[]][] {
  return [...podsByNode.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * v1.12 rollingUpdate (getUnavailableNumbers): every desired node without an available pod
 * counts as unavailable; old pods that are not available are deleted at once, then old
 * available ones while fewer than maxUnavailable are unavailable. A terminating pod is not
 * available here: a hollow node stops its containers as soon as it is marked.
 */
export function rollingUpdatePlanV112(
  ds: DaemonSet,
  nodes: readonly NodeView[],
  podsByNode: ReadonlyMap<string, Pod[]>,
  hash: string,
  now: number,
): Plan {
  const minReady = ds.spec.minReadySeconds ?? 0;
  const generation = templateGeneration(ds);
  const available = (p: Pod) => !p.metadata.deletionTimestamp && isPodAvailable(p, minReady, now);
  let desired = 0;
  let numUnavailable = 0;
  for (const node of nodes) {
    if (!node.shouldRun) continue;
    desired++;
    if (!(podsByNode.get(node.name) ?? []).some(available)) numUnavailable++;
  }
  const { maxUnavailable } = rollingNumbers(ds, desired, false);
  const old = sortedEntries(podsByNode)
    .flatMap(([, pods]) => pods)
    .filter((p) => !isPodUpdated(p, hash, generation));
  const plan: Plan = { create: [], delete: [] };
  for (const p of old) if (!available(p) && !p.metadata.deletionTimestamp) plan.delete.push(p.metadata.name!);
  for (const p of old.filter(available)) {
    if (numUnavailable >= maxUnavailable) break;
    plan.delete.push(p.metadata.name!);
    numUnavailable++;
  }
  return plan;
}

/** Upstream findUpdatedPodsOnNode: at most one new and one old non-deleted pod, else not ok. */
function updatedPodsOnNode(
  pods: readonly Pod[],
  hash: string,
  generation: string | undefined,
): { newPod?: Pod; oldPod?: Pod; ok: boolean } {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const p of pods) {
    if (p.metadata.deletionTimestamp) continue;
    if (isPodUpdated(p, hash, generation)) {
      if (newPod) return { ok: false };
      newPod = p;
    } else {
      if (oldPod) return { ok: false };
      oldPod = p;
    }
  }
  return { newPod, oldPod, ok: true };
}

/**
 * v1.22+ rollingUpdate (update.go). Without surge: count the nodes whose pods are
 * unavailable (a node with an old and a new pod, or none, counts), replace unavailable old
 * pods at once and available ones up to maxUnavailable. With surge: create a new pod beside
 * an old one on up to maxSurge nodes (at once where the old pod is unavailable), and delete
 * the old pod once the new one is available.
 */
export function rollingUpdatePlanV132(
  ds: DaemonSet,
  nodes: readonly NodeView[],
  podsByNode: ReadonlyMap<string, Pod[]>,
  hash: string,
  now: number,
): Plan {
  const minReady = ds.spec.minReadySeconds ?? 0;
  const generation = templateGeneration(ds);
  const desired = nodes.filter((n) => n.shouldRun).length;
  const { maxSurge, maxUnavailable } = rollingNumbers(ds, desired, true);
  const available = (p: Pod) => isPodAvailable(p, minReady, now);
  const shouldRun = new Map(nodes.map((n) => [n.name, n.shouldRun]));
  const entries = sortedEntries(podsByNode);
  if (maxSurge === 0) {
    let numUnavailable = 0;
    const replacements: string[] = [];
    const candidates: string[] = [];
    for (const [, pods] of entries) {
      const { newPod, oldPod, ok } = updatedPodsOnNode(pods, hash, generation);
      if (!ok) {
        numUnavailable++;
        continue;
      }
      if ((!oldPod && !newPod) || (oldPod && newPod)) {
        numUnavailable++;
        continue;
      }
      if (newPod) {
        if (!available(newPod)) numUnavailable++;
        continue;
      }
      if (!available(oldPod!)) {
        replacements.push(oldPod!.metadata.name!);
        numUnavailable++;
      } else if (numUnavailable < maxUnavailable) candidates.push(oldPod!.metadata.name!);
    }
    const remaining = Math.min(Math.max(maxUnavailable - numUnavailable, 0), candidates.length);
    return { create: [], delete: [...replacements, ...candidates.slice(0, remaining)] };
  }
  const toDelete: string[] = [];
  const shouldNotRun: string[] = [];
  const allowedNew: string[] = [];
  const candidateNew: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const [node, pods] of entries) {
    const { newPod, oldPod, ok } = updatedPodsOnNode(pods, hash, generation);
    if (!ok) {
      numSurge++;
      continue;
    }
    if (oldPod ? available(oldPod) : newPod ? available(newPod) : false) numAvailable++;
    if (!oldPod) continue;
    if (!newPod) {
      if (!available(oldPod)) {
        if (!shouldRun.get(node)) toDelete.push(oldPod.metadata.name!);
        else allowedNew.push(node);
      } else if (!shouldRun.get(node)) shouldNotRun.push(oldPod.metadata.name!);
      else if (numSurge < maxSurge) candidateNew.push(node);
      continue;
    }
    if (!available(newPod)) {
      numSurge++;
      continue;
    }
    toDelete.push(oldPod.metadata.name!);
  }
  const deletable = Math.min(numAvailable - desired, shouldNotRun.length);
  if (deletable > 0) toDelete.push(...shouldNotRun.slice(0, deletable));
  const remaining = Math.min(Math.max(maxSurge - numSurge, 0), candidateNew.length);
  return { create: [...allowedNew, ...candidateNew.slice(0, remaining)], delete: toDelete };
}

export interface DaemonSetStatusCounts {
  desiredNumberScheduled: number;
  currentNumberScheduled: number;
  numberMisscheduled: number;
  numberReady: number;
  numberAvailable: number;
  updatedNumberScheduled: number;
  numberUnavailable: number;
}

/** Upstream updateDaemonSetStatus: counted per node over its oldest (running first) pod. */
export function statusCounts(
  ds: DaemonSet,
  nodes: readonly NodeView[],
  podsByNode: ReadonlyMap<string, Pod[]>,
  hash: string,
  now: number,
): DaemonSetStatusCounts {
  const c: DaemonSetStatusCounts = {
    desiredNumberScheduled: 0,
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    numberReady: 0,
    numberAvailable: 0,
    updatedNumberScheduled: 0,
    numberUnavailable: 0,
  };
  const generation = templateGeneration(ds);
  for (const node of nodes) {
    const pods = [...(podsByNode.get(node.name) ?? [])].sort(byCreationAndPhase);
    if (!node.shouldRun) {
      if (pods.length > 0) c.numberMisscheduled++;
      continue;
    }
    c.desiredNumberScheduled++;
    if (pods.length === 0) continue;
    c.currentNumberScheduled++;
    const pod = pods[0];
    if (isPodReady(pod)) {
      c.numberReady++;
      if (isPodAvailable(pod, ds.spec.minReadySeconds ?? 0, now)) c.numberAvailable++;
    }
    if (isPodUpdated(pod, hash, generation)) c.updatedNumberScheduled++;
  }
  c.numberUnavailable = c.desiredNumberScheduled - c.numberAvailable;
  return c;
}

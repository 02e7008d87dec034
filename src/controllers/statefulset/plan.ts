import { Pod, podCondition } from '../../api/core';
import { StatefulSet } from '../../api/resources/statefulset';

/** The label naming the ControllerRevision a pod was made from (upstream ControllerRevisionHashLabelKey). */
export const REVISION_LABEL = 'controller-revision-hash';
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

/** Upstream getParentNameAndOrdinal: "<set>-<n>" → n, or -1 when the name is not of that shape. */
export function ordinalOf(pod: Pod, setName: string): number {
  const name = pod.metadata.name ?? '';
  const m = /^(.*)-(\d+)$/.exec(name);
  if (!m || m[1] !== setName) return -1;
  return Number(m[2]);
}

export const isCreated = (pod: Pod | undefined): pod is Pod => !!pod?.metadata.uid;
export const isFailed = (pod: Pod) => pod.status?.phase === 'Failed';
export const isTerminating = (pod: Pod) => !!pod.metadata.deletionTimestamp;
/** Upstream isRunningAndReady: phase Running and the Ready condition True. */
export const isRunningAndReady = (pod: Pod) =>
  pod.status?.phase === 'Running' && podCondition(pod, 'Ready')?.status === 'True';
/** Upstream isHealthy: running and ready and not being deleted. */
export const isHealthy = (pod: Pod) => isRunningAndReady(pod) && !isTerminating(pod);
export const revisionOf = (pod: Pod) => pod.metadata.labels?.[REVISION_LABEL];

/** What the controller asks for next, in order; a sync stops at the first it cannot go past. */
export type Action =
  | { type: 'create'; ordinal: number; revision: 'current' | 'update' }
  | { type: 'delete'; pod: Pod; reason: 'failed' | 'condemned' | 'update' };

export interface Plan {
  actions: Action[];
  status: { replicas: number; readyReplicas: number; currentReplicas: number; updatedReplicas: number };
}

/**
 * Which revision a missing pod is made from (upstream newVersionedStatefulSetPod): under
 * RollingUpdate, ordinals below the partition keep the current revision; the rest get the
 * update revision. (OnDelete and a missing rollingUpdate: below currentReplicas.)
 */
export function revisionForOrdinal(set: StatefulSet, ordinal: number): 'current' | 'update' {
  const strategy = set.spec.updateStrategy;
  const rolling = (strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  if (rolling && strategy?.rollingUpdate && ordinal < (strategy.rollingUpdate.partition ?? 0)) return 'current';
  if (rolling && !strategy?.rollingUpdate && ordinal < (set.status?.currentReplicas ?? 0)) return 'current';
  return 'update';
}

/**
 * Upstream updateStatefulSet (stateful_set_control.go) as a plan. Pods with an ordinal in
 * [0, replicas) are kept (failed ones deleted and recreated, missing ones created); the
 * rest are condemned and deleted from the highest ordinal down; then, under RollingUpdate,
 * the highest ordinal ≥ partition not at the update revision is deleted (to be recreated
 * at it). With OrderedReady ("monotonic") everything waits: one creation, one deletion per
 * pass, nothing past a pod that is not Running and Ready or is terminating. Parallel does
 * every creation and condemnation at once but still updates one pod at a time.
 */
export function planStatefulSet(
  set: StatefulSet,
  pods: readonly Pod[],
  currentRevision: string,
  updateRevision: string,
): Plan {
  const name = set.metadata.name!;
  const replicaCount = set.spec.replicas ?? 1;
  const monotonic = (set.spec.podManagementPolicy ?? 'OrderedReady') !== 'Parallel';
  const status = { replicas: 0, readyReplicas: 0, currentReplicas: 0, updatedReplicas: 0 };
  const replicas: (Pod | undefined)[] = Array.from({ length: replicaCount }, () => undefined);
  const condemned: Pod[] = [];
  for (const pod of pods) {
    status.replicas++;
    if (isRunningAndReady(pod)) status.readyReplicas++;
    if (isCreated(pod) && !isTerminating(pod)) {
      if (revisionOf(pod) === currentRevision) status.currentReplicas++;
      if (revisionOf(pod) === updateRevision) status.updatedReplicas++;
    }
    const ord = ordinalOf(pod, name);
    if (ord >= 0 && ord < replicaCount) replicas[ord] = pod;
    else if (ord >= replicaCount) condemned.push(pod);
  }
  condemned.sort((a, b) => ordinalOf(a, name) - ordinalOf(b, name));
  let firstUnhealthy: Pod | undefined;
  for (const pod of [...replicas, ...condemned]) {
    if (pod && !isHealthy(pod) && (!firstUnhealthy || ordinalOf(pod, name) < ordinalOf(firstUnhealthy, name)))
      firstUnhealthy = pod;
  }
  const actions: Action[] = [];
  const plan = { actions, status };
  if (set.metadata.deletionTimestamp) return plan;
  const revisionName = (r: 'current' | 'update') => (r === 'current' ? currentRevision : updateRevision);
  for (let i = 0; i < replicaCount; i++) {
    let pod = replicas[i];
    if (pod && isFailed(pod)) {
      actions.push({ type: 'delete', pod, reason: 'failed' });
      if (revisionOf(pod) === currentRevision) status.currentReplicas--;
      if (revisionOf(pod) === updateRevision) status.updatedReplicas--;
      status.replicas--;
      pod = replicas[i] = undefined;
    }
    if (!pod) {
      const revision = revisionForOrdinal(set, i);
      actions.push({ type: 'create', ordinal: i, revision });
      status.replicas++;
      if (revisionName(revision) === currentRevision) status.currentReplicas++;
      if (revisionName(revision) === updateRevision) status.updatedReplicas++;
      if (monotonic) return plan;
      continue;
    }
    if (isTerminating(pod) && monotonic) return plan;
    if (!isRunningAndReady(pod) && monotonic) return plan;
  }
  for (let t = condemned.length - 1; t >= 0; t--) {
    const pod = condemned[t];
    if (isTerminating(pod)) {
      if (monotonic) return plan;
      continue;
    }
    if (!isRunningAndReady(pod) && monotonic && pod !== firstUnhealthy) return plan;
    actions.push({ type: 'delete', pod, reason: 'condemned' });
    if (revisionOf(pod) === currentRevision) status.currentReplicas--;
    if (revisionOf(pod) === updateRevision) status.updatedReplicas--;
    if (monotonic) return plan;
  }
  if ((set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'OnDelete') return plan;
  const updateMin = set.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
  for (let t = replicaCount - 1; t >= updateMin; t--) {
    const pod = replicas[t]!;
    if (!isCreated(pod)) return plan; // created in this pass: look again once it exists
    if (revisionOf(pod) !== updateRevision && !isTerminating(pod)) {
      actions.push({ type: 'delete', pod, reason: 'update' });
      status.currentReplicas--;
      return plan;
    }
    if (!isHealthy(pod)) return plan;
  }
  return plan;
}

/**
 * Upstream completeRollingUpdate: once every pod is updated and ready, the update revision
 * becomes the current one.
 */
export function completeRollingUpdate(
  set: StatefulSet,
  status: {
    replicas: number;
    readyReplicas: number;
    currentReplicas: number;
    updatedReplicas: number;
    currentRevision?: string;
    updateRevision?: string;
  },
): void {
  if (
    (set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' &&
    status.updatedReplicas === status.replicas &&
    status.readyReplicas === status.replicas
  ) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
}

import { Deployment } from '../../api/resources/deployment';
import { ReplicaSet } from '../../api/resources/replicaset';
import { PodTemplateSpec } from '../../api/resources/replicationcontroller';
import { parseTime } from '../../clock';
import { maxSurge } from './fenceposts';
import { canonical } from '../hash';

export const REVISION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
export const POD_TEMPLATE_HASH = 'pod-template-hash';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const ROLLBACK_TO = 'deprecated.deployment.rollback.to';
/** Upstream MaxInt32: a limit or deadline set to it means "none". */
export const MAX_INT32 = 2147483647;

/** Annotations a Deployment never copies to its ReplicaSets (upstream skipCopyAnnotation). */
const SKIPPED = new Set([LAST_APPLIED, REVISION, REVISION_HISTORY, DESIRED_REPLICAS, MAX_REPLICAS, ROLLBACK_TO]);

function withoutHash(t: PodTemplateSpec): PodTemplateSpec {
  const labels = { ...(t.metadata?.labels ?? {}) };
  delete labels[POD_TEMPLATE_HASH];
  return { ...t, metadata: { ...t.metadata, labels } };
}

/** Upstream EqualIgnoreHash: templates equal once the pod-template-hash label is dropped from both. */
export function equalIgnoreHash(a: PodTemplateSpec, b: PodTemplateSpec): boolean {
  return JSON.stringify(canonical(withoutHash(a))) === JSON.stringify(canonical(withoutHash(b)));
}

/** Oldest first, then by name (upstream ReplicaSetsByCreationTimestamp). */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const ta = parseTime(a.metadata.creationTimestamp) ?? 0;
  const tb = parseTime(b.metadata.creationTimestamp) ?? 0;
  if (ta !== tb) return ta - tb;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}

/** Upstream Revision: the revision annotation as a number (0 when absent or unparsable). */
export function revisionOf(obj: { metadata: { annotations?: Record<string, string> } }): number {
  const v = obj.metadata.annotations?.[REVISION];
  const n = v === undefined ? 0 : Number(v);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

/** Lowest revision first, ties by creation (upstream ReplicaSetsByRevision). */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  const ra = revisionOf(a);
  const rb = revisionOf(b);
  return ra !== rb ? ra - rb : byCreation(a, b);
}

export function maxRevision(sets: readonly ReplicaSet[]): number {
  return Math.max(0, ...sets.map(revisionOf));
}

/** Upstream FindNewReplicaSet: the oldest ReplicaSet whose template equals the Deployment's, ignoring the hash. */
export function findNewReplicaSet(d: Deployment, sets: readonly ReplicaSet[]): ReplicaSet | undefined {
  return [...sets].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
}

/** Upstream FindOldReplicaSets: every other one; `required` are those that still have replicas. */
export function findOldReplicaSets(
  d: Deployment,
  sets: readonly ReplicaSet[],
): { required: ReplicaSet[]; all: ReplicaSet[] } {
  const newRS = findNewReplicaSet(d, sets);
  const all = sets.filter((rs) => rs.metadata.uid !== newRS?.metadata.uid);
  return { required: all.filter((rs) => (rs.spec.replicas ?? 0) !== 0), all };
}

export const specReplicas = (rs: ReplicaSet): number => rs.spec.replicas ?? 0;
/** Upstream GetReplicaCountForReplicaSets: the sum of spec.replicas. */
export const replicaCount = (sets: readonly (ReplicaSet | undefined)[]): number =>
  sets.reduce((n, rs) => n + (rs ? specReplicas(rs) : 0), 0);
/** Upstream GetActualReplicaCountForReplicaSets: the sum of status.replicas. */
export const actualReplicaCount = (sets: readonly (ReplicaSet | undefined)[]): number =>
  sets.reduce((n, rs) => n + (rs?.status?.replicas ?? 0), 0);
export const readyReplicaCount = (sets: readonly (ReplicaSet | undefined)[]): number =>
  sets.reduce((n, rs) => n + (rs?.status?.readyReplicas ?? 0), 0);
export const availableReplicaCount = (sets: readonly (ReplicaSet | undefined)[]): number =>
  sets.reduce((n, rs) => n + (rs?.status?.availableReplicas ?? 0), 0);
/** Upstream FilterActiveReplicaSets: those with spec.replicas > 0. */
export const activeReplicaSets = (sets: readonly (ReplicaSet | undefined)[]): ReplicaSet[] =>
  sets.filter((rs): rs is ReplicaSet => !!rs && specReplicas(rs) > 0);

function intAnnotation(rs: ReplicaSet, key: string): number | undefined {
  const v = rs.metadata.annotations?.[key];
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isInteger(n) ? n : undefined;
}
export const desiredReplicasAnnotation = (rs: ReplicaSet) => intAnnotation(rs, DESIRED_REPLICAS);
export const maxReplicasAnnotation = (rs: ReplicaSet) => intAnnotation(rs, MAX_REPLICAS);

/** Upstream SetReplicasAnnotations: desired-replicas and max-replicas; true when either changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = (rs.metadata.annotations ??= {});
  let changed = false;
  if (a[DESIRED_REPLICAS] !== String(desired)) {
    a[DESIRED_REPLICAS] = String(desired);
    changed = true;
  }
  if (a[MAX_REPLICAS] !== String(max)) {
    a[MAX_REPLICAS] = String(max);
    changed = true;
  }
  return changed;
}

export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = rs.metadata.annotations ?? {};
  return a[DESIRED_REPLICAS] !== String(desired) || a[MAX_REPLICAS] !== String(max);
}

/**
 * Upstream SetNewReplicaSetAnnotations: copy the Deployment's own annotations, raise the
 * revision to newRevision (recording the one it had in revision-history when an old
 * ReplicaSet becomes new again: a rollback), and on creation the replicas annotations.
 * Mutates rs; true when anything changed.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: number,
  exists: boolean,
): boolean {
  const a = (rs.metadata.annotations ??= {});
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (SKIPPED.has(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  const old = a[REVISION];
  const oldN = old === undefined ? 0 : Number(old);
  if (old !== undefined && !Number.isInteger(oldN)) return changed;
  if (oldN < newRevision) {
    a[REVISION] = String(newRevision);
    changed = true;
    if (old !== undefined && old !== '') {
      a[REVISION_HISTORY] = a[REVISION_HISTORY] ? `${a[REVISION_HISTORY]},${old}` : old;
    }
  }
  if (!exists && setReplicasAnnotations(rs, d.spec.replicas ?? 1, (d.spec.replicas ?? 1) + maxSurge(d))) changed = true;
  return changed;
}

/** Upstream HasRevisionHistoryLimit / HasProgressDeadline: set and not MaxInt32. */
export const hasRevisionHistoryLimit = (d: Deployment) =>
  d.spec.revisionHistoryLimit !== undefined && d.spec.revisionHistoryLimit !== MAX_INT32;
export const hasProgressDeadline = (d: Deployment) =>
  d.spec.progressDeadlineSeconds !== undefined && d.spec.progressDeadlineSeconds !== MAX_INT32;

/**
 * Upstream cleanupDeployment's choice: of the old ReplicaSets not being deleted, the
 * (count − revisionHistoryLimit) first by revision (v1.32; the seed's v1.12 by creation)
 * that are fully scaled down and observed.
 */
export function replicaSetsToClean(
  d: Deployment,
  oldSets: readonly ReplicaSet[],
  order: 'revision' | 'creation',
): ReplicaSet[] {
  if (!hasRevisionHistoryLimit(d)) return [];
  const alive = oldSets.filter((rs) => !rs.metadata.deletionTimestamp);
  const diff = alive.length - d.spec.revisionHistoryLimit!;
  if (diff <= 0) return [];
  const sorted = [...alive].sort(order === 'revision' ? byRevision : byCreation);
  return sorted
    .slice(0, diff)
    .filter(
      (rs) =>
        (rs.status?.replicas ?? 0) === 0 &&
        specReplicas(rs) === 0 &&
        (rs.metadata.generation ?? 0) <= (rs.status?.observedGeneration ?? 0),
    );
}

import { Pod } from '../../api/core';
import { ReplicationController } from '../../api/resources/replicationcontroller';
import { isPodAvailable, isPodReady } from '../pod-availability';

type RCStatus = NonNullable<ReplicationController['status']>;

/** A create or delete failure of manageReplicas, reported as the ReplicaFailure condition. */
export type ManageError = { reason: 'FailedCreate' | 'FailedDelete'; message: string; at: string };

/** What calculateStatus reads of a ReplicaSet or ReplicationController. */
interface Replicated {
  metadata: { generation?: number };
  spec: { minReadySeconds?: number; template?: { metadata?: { labels?: Record<string, string> } } };
  status?: { conditions?: RCStatus['conditions'] };
}

/**
 * Upstream calculateStatus (replica_set_utils.go), for ReplicaSets and ReplicationControllers alike: counts over the controller's active
 * pods; fullyLabeled pods carry every template label; the ReplicaFailure condition
 * reports the last create/delete error and is dropped once manageReplicas succeeds.
 */
export function calculateStatus<S extends RCStatus>(
  rc: Replicated,
  pods: readonly Pod[],
  now: number,
  manageError?: ManageError,
): S {
  const templateLabels = Object.entries(rc.spec.template?.metadata?.labels ?? {});
  const minReady = rc.spec.minReadySeconds ?? 0;
  const status: RCStatus = {
    replicas: pods.length,
    fullyLabeledReplicas: pods.filter((p) => templateLabels.every(([k, v]) => p.metadata.labels?.[k] === v)).length,
    readyReplicas: pods.filter(isPodReady).length,
    availableReplicas: pods.filter((p) => isPodAvailable(p, minReady, now)).length,
    observedGeneration: rc.metadata.generation,
  };
  // fullyLabeledReplicas, readyReplicas, availableReplicas and observedGeneration are omitempty.
  for (const k of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const)
    if (!status[k]) delete status[k];
  // Upstream sets ReplicaFailure only when it is absent (the first error's message stays) and drops it on success.
  const existing = rc.status?.conditions ?? [];
  const hasFailure = existing.some((c) => c.type === 'ReplicaFailure');
  let conditions = existing;
  if (manageError && !hasFailure) {
    conditions = [
      ...existing,
      {
        type: 'ReplicaFailure',
        status: 'True',
        lastTransitionTime: manageError.at,
        reason: manageError.reason,
        message: manageError.message,
      },
    ];
  } else if (!manageError && hasFailure) {
    conditions = existing.filter((c) => c.type !== 'ReplicaFailure');
  }
  if (conditions.length > 0) status.conditions = conditions;
  return status as S;
}

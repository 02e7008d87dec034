import { Pod } from '../../api/core';
import { ReplicaSet } from '../../api/resources/replicaset';
import { isPodReady } from '../replication/ranking';
import { isPodAvailable } from '../replication/status';

type RSStatus = NonNullable<ReplicaSet['status']>;

/**
 * Upstream calculateStatus (replica_set_utils.go) for a ReplicaSet: the same counts as for
 * a ReplicationController; ReplicaFailure is kept from the first error and dropped on success.
 */
export function replicaSetStatus(rs: ReplicaSet, pods: readonly Pod[], now: number, manageError?: { reason: 'FailedCreate' | 'FailedDelete'; message: string; at: string }): RSStatus {
  const templateLabels = Object.entries(rs.spec.template?.metadata?.labels ?? {});
  const minReady = rs.spec.minReadySeconds ?? 0;
  const status: RSStatus = {
    replicas: pods.length,
    fullyLabeledReplicas: pods.filter((p) => templateLabels.every(([k, v]) => p.metadata.labels?.[k] === v)).length,
    readyReplicas: pods.filter(isPodReady).length,
    availableReplicas: pods.filter((p) => isPodAvailable(p, minReady, now)).length,
    observedGeneration: rs.metadata.generation,
  };
  for (const k of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const) if (!status[k]) delete status[k];
  const existing = rs.status?.conditions ?? [];
  const hasFailure = existing.some((c) => c.type === 'ReplicaFailure');
  let conditions = existing;
  if (manageError && !hasFailure) conditions = [...existing, { type: 'ReplicaFailure', status: 'True', lastTransitionTime: manageError.at, reason: manageError.reason, message: manageError.message }];
  else if (!manageError && hasFailure) conditions = existing.filter((c) => c.type !== 'ReplicaFailure');
  if (conditions.length > 0) status.conditions = conditions;
  return status;
}

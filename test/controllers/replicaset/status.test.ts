import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReplicationController } from '../../../src/api/resources/replicationcontroller';
import { calculateStatus } from '../../../src/controllers/replicaset/status';
import { iso, pod, T0 } from './pods';

// The replication controller's status (calculateStatus); the table of v1.12
// pkg/controller/replication/replication_controller_test.go TestControllerUpdateReplicas.

test('calculateStatus (TestControllerUpdateReplicas): replicas, ready, available, observedGeneration; zeros omitted', () => {
  const rc: ReplicationController = {
    metadata: { name: 'rc', generation: 1 },
    spec: { replicas: 5, template: { metadata: { labels: { app: 'x', extra: 'y' } }, spec: { containers: [] } } },
    status: { replicas: 2 },
  };
  const ready = (n: string, labels: Record<string, string>) => ({
    ...pod(n, { node: 'n', phase: 'Running', ready: true, readySince: T0 }),
    metadata: { name: n, labels },
  });
  const pods = [
    ready('a', { app: 'x', extra: 'y' }),
    ready('b', { app: 'x', extra: 'y' }),
    ready('c', { app: 'x' }),
    ready('d', { app: 'x' }),
  ];
  assert.deepEqual(calculateStatus(rc, pods, T0), {
    replicas: 4,
    fullyLabeledReplicas: 2,
    readyReplicas: 4,
    availableReplicas: 4,
    observedGeneration: 1,
  });
  assert.deepEqual(
    calculateStatus({ ...rc, spec: { ...rc.spec, minReadySeconds: 10 } }, pods, T0 + 9_000).availableReplicas,
    undefined,
  );
  // Upstream IsPodAvailable: ready for strictly more than minReadySeconds.
  assert.equal(
    calculateStatus({ ...rc, spec: { ...rc.spec, minReadySeconds: 10 } }, pods, T0 + 10_000).availableReplicas,
    undefined,
  );
  assert.equal(
    calculateStatus({ ...rc, spec: { ...rc.spec, minReadySeconds: 10 } }, pods, T0 + 10_001).availableReplicas,
    4,
  );
  assert.deepEqual(calculateStatus(rc, [], T0), { replicas: 0, observedGeneration: 1 });
});

test('ReplicaFailure is set once with the first error and removed on success', () => {
  const rc: ReplicationController = {
    metadata: { name: 'rc', generation: 1 },
    spec: { replicas: 1, template: { spec: { containers: [] } } },
  };
  const failed = calculateStatus(rc, [], T0, { reason: 'FailedCreate', message: 'first', at: iso(T0) });
  assert.equal(failed.conditions?.[0].message, 'first');
  const again = calculateStatus({ ...rc, status: failed }, [], T0, {
    reason: 'FailedCreate',
    message: 'second',
    at: iso(T0 + 1000),
  });
  assert.equal(again.conditions?.[0].message, 'first');
  assert.equal(calculateStatus({ ...rc, status: failed }, [], T0).conditions, undefined);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pod } from '../../../src/api/core';
import { StatefulSet } from '../../../src/api/resources/statefulset';
import {
  completeRollingUpdate,
  ordinalOf,
  planStatefulSet,
  revisionForOrdinal,
} from '../../../src/controllers/statefulset/plan';
import { hashRevision, revisionsToTruncate } from '../../../src/controllers/statefulset/revisions';
import { ControllerRevision } from '../../../src/api/resources/controllerrevision';

// After upstream's stateful_set_control_test.go (scale up/down, update, partition) and stateful_set_utils_test.go.

function set(replicas: number, extra: Partial<StatefulSet['spec']> = {}): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default', uid: 's' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [] } },
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      ...extra,
    },
  };
}
function pod(ordinal: number, state: 'ready' | 'pending' | 'terminating' | 'failed', revision = 'r1'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `web-${ordinal}`,
      uid: `u${ordinal}`,
      labels: { app: 'web', 'controller-revision-hash': revision },
      ...(state === 'terminating' ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}),
    },
    spec: { containers: [] },
    status: {
      phase: state === 'pending' ? 'Pending' : state === 'failed' ? 'Failed' : 'Running',
      conditions: [{ type: 'Ready', status: state === 'ready' || state === 'terminating' ? 'True' : 'False' }],
    },
  } as Pod;
}
const acts = (set: StatefulSet, pods: Pod[], current = 'r1', update = 'r1') =>
  planStatefulSet(set, pods, current, update).actions.map((a) =>
    a.type === 'create' ? `create ${a.ordinal} ${a.revision}` : `delete ${a.pod.metadata.name} ${a.reason}`,
  );

test('getParentNameAndOrdinal: <set>-<n>, else -1', () => {
  assert.equal(ordinalOf(pod(3, 'ready'), 'web'), 3);
  assert.equal(ordinalOf({ metadata: { name: 'web-x' } } as Pod, 'web'), -1);
  assert.equal(ordinalOf({ metadata: { name: 'other-1' } } as Pod, 'web'), -1);
  assert.equal(ordinalOf({ metadata: { name: 'my-web-1' } } as Pod, 'web'), -1);
});

test('OrderedReady scale up: one pod per pass, only after the one before is Running and Ready', () => {
  assert.deepEqual(acts(set(3), []), ['create 0 update']);
  assert.deepEqual(acts(set(3), [pod(0, 'pending')]), []);
  assert.deepEqual(acts(set(3), [pod(0, 'ready')]), ['create 1 update']);
  assert.deepEqual(acts(set(3), [pod(0, 'ready'), pod(1, 'terminating')]), []);
});

test('Parallel scale up and down: everything at once', () => {
  const p = set(3, { podManagementPolicy: 'Parallel' });
  assert.deepEqual(acts(p, []), ['create 0 update', 'create 1 update', 'create 2 update']);
  assert.deepEqual(
    acts(set(1, { podManagementPolicy: 'Parallel' }), [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'pending')]),
    ['delete web-2 condemned', 'delete web-1 condemned'],
  );
});

test('OrderedReady scale down: highest ordinal first, waiting while it terminates; an unhealthy first pod may go', () => {
  assert.deepEqual(acts(set(1), [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'ready')]), ['delete web-2 condemned']);
  assert.deepEqual(acts(set(1), [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'terminating')]), []);
  // web-2 is the first unhealthy pod: it may go; a healthy web-2 goes too; an unhealthy web-2 behind an unhealthy web-1 waits.
  assert.deepEqual(acts(set(1), [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'pending')]), ['delete web-2 condemned']);
  assert.deepEqual(acts(set(1), [pod(0, 'ready'), pod(1, 'pending'), pod(2, 'ready')]), ['delete web-2 condemned']);
  assert.deepEqual(acts(set(1), [pod(0, 'ready'), pod(1, 'pending'), pod(2, 'pending')]), []);
});

test('a failed pod is deleted and recreated', () => {
  assert.deepEqual(acts(set(2), [pod(0, 'failed'), pod(1, 'ready')]), ['delete web-0 failed', 'create 0 update']);
});

test('RollingUpdate: the highest ordinal not at the update revision goes first, one at a time, down to the partition', () => {
  const pods = [pod(0, 'ready', 'r1'), pod(1, 'ready', 'r1'), pod(2, 'ready', 'r1')];
  assert.deepEqual(acts(set(3), pods, 'r1', 'r2'), ['delete web-2 update']);
  assert.deepEqual(
    acts(set(3), [pod(0, 'ready', 'r1'), pod(1, 'ready', 'r1'), pod(2, 'pending', 'r2')], 'r1', 'r2'),
    [],
  );
  assert.deepEqual(acts(set(3), [pod(0, 'ready', 'r1'), pod(1, 'ready', 'r1'), pod(2, 'ready', 'r2')], 'r1', 'r2'), [
    'delete web-1 update',
  ]);
  const partitioned = set(3, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } });
  assert.deepEqual(
    acts(partitioned, [pod(0, 'ready', 'r1'), pod(1, 'ready', 'r1'), pod(2, 'ready', 'r2')], 'r1', 'r2'),
    [],
  );
  assert.deepEqual(acts(set(3, { updateStrategy: { type: 'OnDelete' } }), pods, 'r1', 'r2'), []);
});

test('newVersionedStatefulSetPod: below the partition the current revision, else the update revision', () => {
  const s = set(3, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } });
  assert.equal(revisionForOrdinal(s, 1), 'current');
  assert.equal(revisionForOrdinal(s, 2), 'update');
  const onDelete = set(3, { updateStrategy: { type: 'OnDelete' } });
  assert.equal(revisionForOrdinal(onDelete, 0), 'update');
});

test('status counts and completeRollingUpdate', () => {
  const plan = planStatefulSet(
    set(3),
    [pod(0, 'ready', 'r2'), pod(1, 'ready', 'r2'), pod(2, 'ready', 'r2')],
    'r1',
    'r2',
  );
  assert.deepEqual(plan.status, { replicas: 3, readyReplicas: 3, currentReplicas: 0, updatedReplicas: 3 });
  const status = { ...plan.status, currentRevision: 'r1', updateRevision: 'r2' };
  completeRollingUpdate(set(3), status);
  assert.equal(status.currentRevision, 'r2');
  assert.equal(status.currentReplicas, 3);
});

test('truncateHistory keeps current, update and live revisions, then revisionHistoryLimit of the rest', () => {
  const rev = (name: string, revision: number) => ({ metadata: { name }, revision }) as ControllerRevision;
  const revisions = [rev('a', 1), rev('b', 2), rev('c', 3), rev('d', 4), rev('e', 5)];
  const s = set(1, { revisionHistoryLimit: 1 });
  assert.deepEqual(
    revisionsToTruncate(s, revisions, new Set(['b']), 'e', 'e').map((r) => r.metadata.name),
    ['a', 'c'],
  );
});

test('HashControllerRevision: stable, changed by the collision count, safe alphabet', () => {
  assert.equal(hashRevision({ a: 1 }), hashRevision({ a: 1 }));
  assert.notEqual(hashRevision({ a: 1 }), hashRevision({ a: 1 }, 1));
  assert.match(hashRevision({ a: 1 }), /^[bcdfghjklmnpqrstvwxz2456789]+$/);
});

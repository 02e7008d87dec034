// Pure rules of the controller manager, against upstream's test vectors where they exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pod } from '../../src/api/core';
import { compareForDeletion, podsToDelete } from '../../src/controllers/replication/ranking';
import { calculateStatus } from '../../src/controllers/replication/status';
import { Expectations, EXPECTATIONS_TIMEOUT_MS, slowStartBatch } from '../../src/controllers/expectations';
import { decide } from '../../src/controllers/job/state';
import { finalizersWithout, remainingEstimate, recheckAfterMs } from '../../src/controllers/namespace/content';
import { dependentVerdict } from '../../src/controllers/garbagecollector/owners';
import { ReplicationController } from '../../src/api/resources/replicationcontroller';
import { Job } from '../../src/api/resources/job';

const T0 = Date.UTC(2025, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function pod(
  name: string,
  o: {
    node?: string;
    phase?: Pod['status'] extends infer S ? (S extends { phase?: infer P } ? P : never) : never;
    ready?: boolean;
    readySince?: number;
    restarts?: number[];
    created?: number;
  } = {},
): Pod {
  return {
    metadata: { name, creationTimestamp: o.created !== undefined ? iso(o.created) : undefined },
    spec: { containers: [{ name: 'c' }], ...(o.node ? { nodeName: o.node } : {}) },
    status: {
      phase: o.phase ?? 'Pending',
      conditions:
        o.ready === undefined
          ? []
          : [
              {
                type: 'Ready',
                status: o.ready ? 'True' : 'False',
                ...(o.readySince !== undefined ? { lastTransitionTime: iso(o.readySince) } : {}),
              },
            ],
      containerStatuses: (o.restarts ?? []).map((r, i) => ({
        name: `c${i}`,
        ready: true,
        restartCount: r,
        image: '',
        imageID: '',
      })),
    },
  };
}

test('ActivePods order (TestSortingActivePods): unscheduled, pending, unknown, not ready, ready newest first, restarts, newest', () => {
  const month = 30 * 24 * 3600_000;
  const now = T0 + 2 * month;
  const want = [
    pod('unscheduled-pending'),
    pod('scheduled-pending', { node: 'n' }),
    pod('unknown', { node: 'n', phase: 'Unknown' }),
    pod('running-not-ready', { node: 'n', phase: 'Running', ready: false }),
    pod('ready-no-time', { node: 'n', phase: 'Running', ready: true, restarts: [3] }),
    pod('ready-now', { node: 'n', phase: 'Running', ready: true, readySince: now, restarts: [3] }),
    pod('ready-month-3', { node: 'n', phase: 'Running', ready: true, readySince: now - month, restarts: [3] }),
    pod('ready-month-2-new', {
      node: 'n',
      phase: 'Running',
      ready: true,
      readySince: now - month,
      restarts: [2, 1],
      created: now,
    }),
    pod('ready-month-2-old', {
      node: 'n',
      phase: 'Running',
      ready: true,
      readySince: now - month,
      restarts: [2, 1],
      created: now - month,
    }),
  ];
  for (let i = 0; i < 10; i++) {
    const shuffled = [...want].sort(() => Math.random() - 0.5);
    assert.deepEqual(
      shuffled.sort(compareForDeletion).map((p) => p.metadata.name),
      want.map((p) => p.metadata.name),
    );
  }
});

test('getPodsToDelete (v1.12 and v1.32): all of them in the order given; fewer, the lowest ranked first — at replicas 0 too, past the burst', () => {
  const pods = [pod('bound', { node: 'n', phase: 'Running', ready: true }), pod('unbound')];
  assert.deepEqual(
    podsToDelete(pods, 1).map((p) => p.metadata.name),
    ['unbound'],
  );
  assert.deepEqual(
    podsToDelete(pods, 2).map((p) => p.metadata.name),
    ['bound', 'unbound'],
  );
  // replicas 0, 2 pods, a burst of 1: diff 1 < 2 pods, so sorted (v1.12 sorts whenever diff < len).
  assert.deepEqual(
    podsToDelete(pods, 1, 'ActivePodsWithRanks').map((p) => p.metadata.name),
    ['unbound'],
  );
});

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

test('expectations: satisfied once observed, or after 5 minutes', () => {
  let now = T0;
  const e = new Expectations(() => now);
  assert.equal(e.satisfied('k'), true);
  e.expect('k', 2, 0);
  e.creationObserved('k');
  assert.equal(e.satisfied('k'), false);
  e.creationObserved('k');
  assert.equal(e.satisfied('k'), true);
  e.expect('k', 1, 0);
  now += EXPECTATIONS_TIMEOUT_MS + 1;
  assert.equal(e.satisfied('k'), true);
});

test('slowStartBatch: batches of 1, 2, 4… stop at the first failing batch (vector: 500 creations)', async () => {
  let calls = 0;
  const ok = await slowStartBatch(500, 1, async () => {
    calls++;
  });
  assert.deepEqual([ok.successes, calls], [500, 500]);
  calls = 0;
  const failing = await slowStartBatch(10, 1, async () => {
    calls++;
    if (calls === 2) throw new Error('quota');
  });
  assert.equal(failing.successes, 2); // batch 1 (1 ok), batch 2 (1 ok, 1 failed): stop
  assert.equal(calls, 3);
});

test('Job rule: parallelism bounded by remaining completions; complete at completions; failed past backoffLimit', () => {
  const job = (spec: Partial<Job['spec']>): Job => ({
    metadata: { name: 'j' },
    spec: { template: { spec: { containers: [] } }, ...spec },
  });
  assert.deepEqual(decide(job({ completions: 3, parallelism: 2 }), { active: 0, succeeded: 0, failed: 0 }), {
    kind: 'run',
    wantActive: 2,
  });
  assert.deepEqual(decide(job({ completions: 3, parallelism: 2 }), { active: 0, succeeded: 2, failed: 0 }), {
    kind: 'run',
    wantActive: 1,
  });
  assert.deepEqual(decide(job({ completions: 3, parallelism: 2 }), { active: 0, succeeded: 3, failed: 0 }), {
    kind: 'complete',
  });
  assert.equal(decide(job({ completions: 1, backoffLimit: 1 }), { active: 0, succeeded: 0, failed: 1 }).kind, 'run');
  assert.equal(decide(job({ completions: 1, backoffLimit: 1 }), { active: 0, succeeded: 0, failed: 2 }).kind, 'fail');
  assert.deepEqual(decide(job({ parallelism: 3 }), { active: 1, succeeded: 1, failed: 0 }), {
    kind: 'run',
    wantActive: 0,
  });
  assert.deepEqual(decide(job({ parallelism: 3 }), { active: 0, succeeded: 1, failed: 0 }), { kind: 'complete' });
});

test('namespace finalize: kubernetes removed, the rest de-duplicated and sorted; estimate and re-check as upstream', () => {
  assert.deepEqual(finalizersWithout(['kubernetes', 'z', 'a', 'z']), ['a', 'z']);
  assert.deepEqual(finalizersWithout(['kubernetes']), []);
  const pod = (grace: number, phase = 'Running') => ({
    metadata: {},
    spec: { terminationGracePeriodSeconds: grace },
    status: { phase },
  });
  // the longest grace period of the pods not yet finished, while the namespace has been deleting less than that
  assert.equal(remainingEstimate([pod(30), pod(10), pod(60, 'Succeeded')], [pod(30)], T0, T0 + 5_000), 30);
  assert.equal(remainingEstimate([pod(30)], [pod(30)], T0, T0 + 30_000), 0);
  // content held by finalizers and no grace estimate: finalizerEstimateSeconds
  assert.equal(remainingEstimate([], [{ metadata: { finalizers: ['x'] } }], T0, T0), 15);
  assert.equal(remainingEstimate([], [], T0, T0), 0);
  // re-checked after estimate/2 + 1 s (NamespaceController.worker)
  assert.equal(recheckAfterMs(30), 16_000);
  assert.equal(recheckAfterMs(15), 8_000);
  assert.equal(recheckAfterMs(0), 1_000);
});

test('garbage collector: dependents go when every owner is absent, stay while one is present', () => {
  const ref = (uid: string, block = false) => ({
    apiVersion: 'v1',
    kind: 'ReplicationController',
    name: uid,
    uid,
    ...(block ? { blockOwnerDeletion: true } : {}),
  });
  assert.deepEqual(
    dependentVerdict([ref('a')], () => 'absent'),
    { action: 'delete', policy: 'Background' },
  );
  assert.deepEqual(
    dependentVerdict([ref('a'), ref('b')], (r) => (r.uid === 'a' ? 'absent' : 'present')),
    { action: 'keep', dangling: [ref('a')] },
  );
  assert.deepEqual(
    dependentVerdict([ref('a', true)], () => 'deleting-foreground'),
    { action: 'delete', policy: 'Foreground' },
  );
  assert.deepEqual(
    dependentVerdict([ref('a')], () => 'deleting-foreground'),
    { action: 'delete', policy: 'Background' },
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DaemonSet, Pod } from '../../../src/api/core';
import { isoTime } from '../../../src/clock';
import { BasicAuthFile } from '../../../src/apiserver/auth/authenticator';
import {
  managePlan,
  NodeView,
  rollingNumbers,
  rollingUpdatePlanV112,
  rollingUpdatePlanV132,
  statusCounts,
} from '../../../src/controllers/daemonset/update';

/** The DaemonSet controller's rules (pkg/controller/daemon) as pure functions, on hand-made caches. */

const NOW = Date.parse('2025-01-01T00:01:00Z');

function ds(
  rollingUpdate: { maxUnavailable?: number | string; maxSurge?: number | string },
  minReadySeconds = 0,
): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: 'agent',
      namespace: 'default',
      uid: 'u',
      annotations: { 'deprecated.daemonset.template.generation': '2' },
    },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { spec: { containers: [] } },
      minReadySeconds,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate },
    },
  };
}

function pod(
  name: string,
  node: string,
  hash: string,
  readySince: number | undefined,
  extra: Partial<Pod['metadata']> = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      labels: { app: 'agent', 'controller-revision-hash': hash, 'pod-template-generation': hash === 'new' ? '2' : '1' },
      creationTimestamp: isoTime(NOW - 60_000),
      ...extra,
    },
    spec: { containers: [], nodeName: node },
    status: {
      phase: 'Running',
      conditions:
        readySince === undefined ? [] : [{ type: 'Ready', status: 'True', lastTransitionTime: isoTime(readySince) }],
    },
  } as Pod;
}

const nodes = (...names: string[]): NodeView[] =>
  names.map((name) => ({ name, shouldRun: true, shouldContinueRunning: true }));
const byNode = (pods: Pod[]) => new Map(pods.map((p) => [p.spec.nodeName!, [p]]));

test('maxUnavailable rounds up and 0/0 falls back to one unavailable', () => {
  assert.deepEqual(rollingNumbers(ds({ maxUnavailable: '34%' }), 3, false), { maxSurge: 0, maxUnavailable: 2 });
  assert.deepEqual(rollingNumbers(ds({ maxUnavailable: '33%' }), 3, false), { maxSurge: 0, maxUnavailable: 1 });
  assert.deepEqual(rollingNumbers(ds({ maxUnavailable: 0, maxSurge: '10%' }), 3, true), {
    maxSurge: 1,
    maxUnavailable: 0,
  });
  assert.deepEqual(rollingNumbers(ds({ maxUnavailable: 0, maxSurge: 0 }), 3, true), { maxSurge: 0, maxUnavailable: 1 });
});

test('v1.12: old pods go in node order while fewer than maxUnavailable nodes lack an available pod', () => {
  const pods = [
    pod('a', 'n1', 'old', NOW - 60_000),
    pod('b', 'n2', 'old', NOW - 60_000),
    pod('c', 'n3', 'old', NOW - 60_000),
  ];
  assert.deepEqual(
    rollingUpdatePlanV112(ds({ maxUnavailable: 2 }), nodes('n1', 'n2', 'n3'), byNode(pods), 'new', NOW).delete,
    ['a', 'b'],
  );
  // A node without a pod counts as unavailable.
  assert.deepEqual(
    rollingUpdatePlanV112(ds({ maxUnavailable: 2 }), nodes('n1', 'n2', 'n3', 'n4'), byNode(pods), 'new', NOW).delete,
    ['a'],
  );
  // An unavailable old pod is replaced at once, whatever the budget.
  const unready = [pod('a', 'n1', 'old', undefined), ...pods.slice(1)];
  assert.deepEqual(
    rollingUpdatePlanV112(ds({ maxUnavailable: 1 }), nodes('n1', 'n2', 'n3'), byNode(unready), 'new', NOW).delete,
    ['a'],
  );
});

test('minReadySeconds: a new pod Ready for less is unavailable and holds the next deletion back', () => {
  const pods = [pod('a', 'n1', 'new', NOW - 5_000), pod('b', 'n2', 'old', NOW - 60_000)];
  assert.deepEqual(
    rollingUpdatePlanV132(ds({ maxUnavailable: 1 }, 10), nodes('n1', 'n2'), byNode(pods), 'new', NOW).delete,
    [],
  );
  // Ready for exactly minReadySeconds is not yet available (upstream IsPodAvailable: strictly more).
  assert.deepEqual(
    rollingUpdatePlanV132(ds({ maxUnavailable: 1 }, 5), nodes('n1', 'n2'), byNode(pods), 'new', NOW).delete,
    [],
  );
  assert.deepEqual(
    rollingUpdatePlanV132(ds({ maxUnavailable: 1 }, 4), nodes('n1', 'n2'), byNode(pods), 'new', NOW).delete,
    ['b'],
  );
  assert.deepEqual(statusCounts(ds({ maxUnavailable: 1 }, 10), nodes('n1', 'n2'), byNode(pods), 'new', NOW), {
    desiredNumberScheduled: 2,
    currentNumberScheduled: 2,
    numberMisscheduled: 0,
    numberReady: 2,
    numberAvailable: 1,
    updatedNumberScheduled: 1,
    numberUnavailable: 1,
  });
});

test('surge: new pods beside old ones up to maxSurge; the old one goes once the new one is available', () => {
  const pods = [pod('a', 'n1', 'old', NOW - 60_000), pod('b', 'n2', 'old', NOW - 60_000)];
  assert.deepEqual(
    rollingUpdatePlanV132(ds({ maxUnavailable: 0, maxSurge: 1 }), nodes('n1', 'n2'), byNode(pods), 'new', NOW),
    { create: ['n1'], delete: [] },
  );
  const surged = new Map([
    ['n1', [pods[0], pod('a2', 'n1', 'new', NOW - 1_000)]],
    ['n2', [pods[1]]],
  ]);
  assert.deepEqual(
    managePlan(ds({ maxUnavailable: 0, maxSurge: 1 }, 10), nodes('n1', 'n2'), surged, 'new', NOW, true).delete,
    [],
  );
  assert.deepEqual(
    managePlan(ds({ maxUnavailable: 0, maxSurge: 1 }), nodes('n1', 'n2'), surged, 'new', NOW, true).delete,
    ['a'],
  );
  // Without surge, the extra pod (the younger) goes.
  assert.deepEqual(
    managePlan(ds({ maxUnavailable: 1 }), nodes('n1', 'n2'), surged, 'new', NOW, false).delete.length,
    1,
  );
});

test('a terminating pod still occupies its node: no second pod is created beside it', () => {
  const terminating = pod('a', 'n1', 'old', NOW - 60_000, { deletionTimestamp: isoTime(NOW) });
  assert.deepEqual(managePlan(ds({ maxUnavailable: 1 }), nodes('n1'), byNode([terminating]), 'new', NOW, false), {
    create: [],
    delete: [],
  });
  assert.deepEqual(managePlan(ds({ maxUnavailable: 1 }), nodes('n1'), new Map(), 'new', NOW, false), {
    create: ['n1'],
    delete: [],
  });
});

test('basic auth file: password,user,uid,"groups"; a wrong or longer password does not match', () => {
  const f = new BasicAuthFile('s3cr3t,alice,1,"system:masters,dev"\npw,bob,2\n');
  assert.deepEqual(f.authenticatePassword('alice', 's3cr3t'), {
    username: 'alice',
    uid: '1',
    groups: ['system:masters', 'dev'],
  });
  assert.deepEqual(f.authenticatePassword('bob', 'pw'), { username: 'bob', uid: '2', groups: [] });
  assert.equal(f.authenticatePassword('alice', 's3cr3t2'), undefined);
  assert.equal(f.authenticatePassword('carol', 's3cr3t'), undefined);
  assert.throws(() => new BasicAuthFile('only,two\n'), /at least 3 columns/);
});

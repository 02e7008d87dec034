import { test } from 'node:test';
import { computeHash } from '../../../src/controllers/hash';
import assert from 'node:assert/strict';
import { Deployment, IntOrString } from '../../../src/api/resources/deployment';
import { ReplicaSet } from '../../../src/api/resources/replicaset';
import { PodTemplateSpec } from '../../../src/api/resources/replicationcontroller';
import { resolveFenceposts, maxUnavailable, maxSurge } from '../../../src/controllers/deployment/fenceposts';
import {
  equalIgnoreHash,
  findNewReplicaSet,
  findOldReplicaSets,
  replicaSetsToClean,
  setNewReplicaSetAnnotations,
} from '../../../src/controllers/deployment/revisions';
import {
  cleanupUnhealthyReplicas,
  scaleDownOldForRollingUpdate,
  newRSNewReplicas,
  proportionalScale,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
} from '../../../src/controllers/deployment/rolling';
import {
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  rolloutStatus,
  setCondition,
} from '../../../src/controllers/deployment/status';

// Tables from upstream's pkg/controller/deployment (util/deployment_util_test.go, rolling_test.go).

let uid = 0;
function deployment(
  replicas: number,
  maxSurgeV?: IntOrString,
  maxUnavailableV?: IntOrString,
  type: 'RollingUpdate' | 'Recreate' = 'RollingUpdate',
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'foo', namespace: 'default', uid: 'd', generation: 1 },
    spec: {
      replicas,
      selector: { matchLabels: { foo: 'bar' } },
      template: tmpl('nginx'),
      strategy: { type, rollingUpdate: { maxSurge: maxSurgeV, maxUnavailable: maxUnavailableV } },
    },
  };
}
function tmpl(image: string, labels: Record<string, string> = { foo: 'bar' }): PodTemplateSpec {
  return { metadata: { labels }, spec: { containers: [{ name: 'c', image }] } };
}
function rs(
  name: string,
  replicas: number,
  available = 0,
  created = '2025-01-01T00:00:00Z',
  image = 'nginx',
): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, uid: `rs-${++uid}`, creationTimestamp: created, generation: 1 },
    spec: { replicas, selector: { matchLabels: { foo: 'bar' } }, template: tmpl(image) },
    status: { replicas, availableReplicas: available, observedGeneration: 1 },
  };
}

test('ResolveFenceposts (TestResolveFenceposts): surge rounds up, unavailable down, both 0 → unavailable 1', () => {
  const rows: [IntOrString | undefined, IntOrString | undefined, number, number, number][] = [
    ['0%', '0%', 0, 0, 1],
    ['39%', '39%', 10, 4, 3],
    [undefined, '39%', 10, 0, 3],
    ['39%', undefined, 10, 4, 0],
    [undefined, undefined, 10, 0, 1],
    ['25%', '25%', 3, 1, 0],
  ];
  for (const [s, u, desired, surge, unavailable] of rows)
    assert.deepEqual(resolveFenceposts(s, u, desired), { surge, unavailable }, `${s}/${u} of ${desired}`);
  assert.throws(() => resolveFenceposts('oops', '39%', 10));
  assert.throws(() => resolveFenceposts('55%', 'urg', 10));
});

test('MaxUnavailable is never more than replicas, 0 for Recreate and for 0 replicas; MaxSurge 0 for Recreate', () => {
  assert.equal(maxUnavailable(deployment(10, 0, '100%')), 10);
  assert.equal(maxUnavailable(deployment(2, 0, 5)), 2);
  assert.equal(maxUnavailable(deployment(0, 0, 5)), 0);
  assert.equal(maxUnavailable(deployment(10, 1, 1, 'Recreate')), 0);
  assert.equal(maxSurge(deployment(10, 3, 1, 'Recreate')), 0);
});

test('NewRSNewReplicas (TestNewRSNewReplicas)', () => {
  const rs5 = rs('rs5', 5);
  const rows: [string, 'RollingUpdate' | 'Recreate', number, number, number, number][] = [
    ['can not scale up - to newRSReplicas', 'RollingUpdate', 1, 5, 1, 5],
    ['scale up - to depReplicas', 'RollingUpdate', 6, 2, 10, 6],
    ['recreate - to depReplicas', 'Recreate', 3, 1, 1, 3],
  ];
  for (const [name, type, depReplicas, newReplicas, surge, expected] of rows) {
    const newRS = rs('new', newReplicas);
    assert.equal(newRSNewReplicas(deployment(depReplicas, surge, 1, type), [rs5], newRS), expected, name);
  }
});

test('reconcileNewReplicaSet (TestDeploymentController_reconcileNewReplicaSet)', () => {
  const rows: [number, number, number, number, number | undefined][] = [
    [10, 0, 10, 0, undefined],
    [10, 2, 10, 0, 2],
    [10, 2, 5, 0, 7],
    [10, 2, 10, 2, undefined],
    [10, 2, 2, 11, 10],
  ];
  for (const [replicas, surge, oldReplicas, newReplicas, expected] of rows) {
    const newRS = rs('foo-v2', newReplicas);
    const oldRS = rs('foo-v1', oldReplicas);
    assert.equal(
      reconcileNewReplicaSet([newRS, oldRS], newRS, deployment(replicas, surge, 0)),
      expected,
      `${replicas}/${surge}/${oldReplicas}/${newReplicas}`,
    );
  }
});

test('reconcileOldReplicaSets (TestDeploymentController_reconcileOldReplicaSets)', () => {
  const rows: [number, number, number, number, number, number, number | undefined][] = [
    // replicas, maxUnavailable, old, new, readyOld, readyNew, expected old size (undefined: no scaling)
    [10, 0, 10, 0, 10, 0, 9],
    [10, 2, 10, 0, 10, 0, 8],
    [10, 2, 10, 0, 8, 0, 8],
    [10, 2, 10, 0, 9, 0, 8],
    [10, 2, 8, 2, 8, 0, undefined],
  ];
  for (const [replicas, unavailable, oldN, newN, readyOld, readyNew, expected] of rows) {
    const newRS = rs('foo-new', newN, readyNew);
    const oldRS = rs('foo-old', oldN, readyOld);
    const resizes = reconcileOldReplicaSets([oldRS, newRS], [oldRS], newRS, deployment(replicas, 0, unavailable));
    const size = resizes.find((r) => r.rs === oldRS)?.replicas;
    assert.equal(size, expected, `${replicas}/${unavailable}/${oldN}/${newN}/${readyOld}/${readyNew}`);
  }
});

test('cleanupUnhealthyReplicas (TestDeploymentController_cleanupUnhealthyReplicas)', () => {
  const rows: [number, number, number, number][] = [
    [10, 8, 1, 1],
    [10, 8, 3, 2],
    [10, 8, 0, 0],
    [10, 10, 3, 0],
  ];
  for (const [oldReplicas, ready, maxCleanup, expected] of rows) {
    const old = rs('foo-v2', oldReplicas, ready);
    const cleaned = cleanupUnhealthyReplicas([old], maxCleanup).reduce((n, r) => n + oldReplicas - r.replicas, 0);
    assert.equal(cleaned, expected, `${oldReplicas}/${ready}/${maxCleanup}`);
  }
});

test('scaleDownOldReplicaSetsForRollingUpdate (TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate)', () => {
  const rows: [number, number, number, number, number | undefined][] = [
    [10, 0, 10, 10, 9],
    [10, 2, 10, 10, 8],
    [10, 2, 8, 10, undefined],
    [10, 2, 10, 0, undefined],
    [10, 2, 1, 10, undefined],
  ];
  for (const [replicas, unavailable, ready, oldReplicas, expected] of rows) {
    const old = rs('foo-v2', oldReplicas, ready);
    const resizes = scaleDownOldForRollingUpdate([old], [old], deployment(replicas, 0, unavailable));
    assert.equal(
      resizes.find((r) => r.rs === old)?.replicas,
      expected,
      `${replicas}/${unavailable}/${ready}/${oldReplicas}`,
    );
  }
});

test('DeploymentComplete (TestDeploymentComplete)', () => {
  const d = (desired: number, current: number, updated: number, available: number, mu: number, ms: number) => {
    const x = deployment(desired, ms, mu);
    x.status = { replicas: current, updatedReplicas: updated, availableReplicas: available, observedGeneration: 1 };
    return x;
  };
  const rows: [Deployment, boolean][] = [
    [d(5, 5, 5, 4, 1, 0), false],
    [d(5, 5, 5, 3, 1, 0), false],
    [d(5, 5, 5, 5, 0, 0), true],
    [d(5, 5, 4, 5, 0, 0), false],
    [d(1, 2, 1, 1, 0, 1), false],
    [d(1, 1, 1, 0, 1, 1), false],
  ];
  for (const [x, expected] of rows) assert.equal(deploymentComplete(x, x.status!), expected, JSON.stringify(x.status));
});

test('DeploymentProgressing (TestDeploymentProgressing)', () => {
  const st = (replicas: number, updatedReplicas: number, readyReplicas: number, availableReplicas: number) => ({
    replicas,
    updatedReplicas,
    readyReplicas,
    availableReplicas,
  });
  const rows: [ReturnType<typeof st>, ReturnType<typeof st>, boolean][] = [
    [st(10, 4, 4, 4), st(10, 6, 4, 4), true],
    [st(10, 4, 4, 4), st(10, 4, 4, 4), false],
    [st(10, 4, 6, 6), st(8, 4, 6, 6), true],
    [st(10, 7, 3, 3), st(10, 6, 3, 3), false],
    [st(10, 4, 7, 7), st(8, 8, 5, 5), true],
    [st(10, 10, 9, 8), st(10, 10, 10, 8), true],
    [st(10, 10, 10, 9), st(10, 10, 10, 10), true],
  ];
  for (const [old, next, expected] of rows) {
    const x = deployment(10, 1, 1);
    x.status = old;
    assert.equal(deploymentProgressing(x, next), expected, `${JSON.stringify(old)} → ${JSON.stringify(next)}`);
  }
});

test('DeploymentTimedOut (TestDeploymentTimedOut): strictly after lastUpdateTime + progressDeadlineSeconds', () => {
  const at = (m: number, s: number) => Date.UTC(2016, 0, 1, 0, m, s);
  const d = (pds: number | undefined) => {
    const x = deployment(1, 1, 1);
    x.spec.progressDeadlineSeconds = pds;
    x.status = {
      conditions: [{ type: 'Progressing', status: 'True', reason: '', lastUpdateTime: '2016-01-01T00:01:09Z' }],
    };
    return x;
  };
  assert.equal(deploymentTimedOut(d(undefined), d(undefined).status!, at(1, 20)), false);
  assert.equal(deploymentTimedOut(d(2147483647), d(2147483647).status!, at(1, 20)), false);
  assert.equal(deploymentTimedOut(d(10), d(10).status!, at(1, 20)), true);
  assert.equal(deploymentTimedOut(d(10), d(10).status!, at(1, 19)), false);
});

test('SetDeploymentCondition: same status and reason change nothing; same status keeps the transition time', () => {
  const status = {
    conditions: [
      { type: 'Progressing', status: 'True' as const, reason: 'A', lastUpdateTime: 't1', lastTransitionTime: 't1' },
    ],
  };
  setCondition(status, {
    type: 'Progressing',
    status: 'True',
    reason: 'A',
    lastUpdateTime: 't2',
    lastTransitionTime: 't2',
  });
  assert.equal(status.conditions[0].lastUpdateTime, 't1');
  setCondition(status, {
    type: 'Progressing',
    status: 'True',
    reason: 'B',
    lastUpdateTime: 't3',
    lastTransitionTime: 't3',
  });
  assert.deepEqual(status.conditions[0], {
    type: 'Progressing',
    status: 'True',
    reason: 'B',
    lastUpdateTime: 't3',
    lastTransitionTime: 't1',
  });
});

test('EqualIgnoreHash (TestEqualIgnoreHash): only the pod-template-hash label is ignored', () => {
  const t = (labels: Record<string, string>, node = 'foo-node') => ({
    metadata: { labels },
    spec: { nodeName: node, containers: [] },
  });
  assert.equal(
    equalIgnoreHash(
      t({ 'pod-template-hash': 'value-1', something: 'else' }),
      t({ 'pod-template-hash': 'value-2', something: 'else' }),
    ),
    true,
  );
  assert.equal(
    equalIgnoreHash(t({ something: 'else' }), t({ 'pod-template-hash': 'value-2', something: 'else' })),
    true,
  );
  assert.equal(equalIgnoreHash(t({ something: 'else' }), t({ 'pod-template-hash': 'value-2' })), false);
  assert.equal(
    equalIgnoreHash(t({ 'pod-template-hash': 'value-1' }), t({ 'pod-template-hash': 'value-1', something: 'else' })),
    false,
  );
  assert.equal(equalIgnoreHash(t({ something: 'else' }, 'a'), t({ something: 'else' }, 'b')), false);
});

test('FindNewReplicaSet / FindOldReplicaSets (TestFindNewReplicaSet, TestFindOldReplicaSets): the oldest matching template is new', () => {
  const d = deployment(1, 1, 1);
  const newRS = rs('new', 1, 0, '2025-01-01T00:01:00Z');
  const newDup = rs('dup', 0, 0, '2025-01-01T00:00:00Z');
  const oldRS = rs('old', 1, 0, '2025-01-01T00:00:00Z', 'nginx-old');
  assert.equal(findNewReplicaSet(d, [newRS, oldRS]), newRS);
  assert.equal(findNewReplicaSet(d, [newRS, oldRS, newDup]), newDup);
  assert.equal(findNewReplicaSet(d, [oldRS]), undefined);
  const { required, all } = findOldReplicaSets(d, [oldRS, newRS, newDup]);
  assert.deepEqual(all, [oldRS, newRS]);
  assert.deepEqual(required, [oldRS, newRS]);
});

test('ComputeHash: same template same hash, collisionCount changes it, safe alphabet', () => {
  const a = computeHash(tmpl('nginx'));
  assert.equal(a, computeHash(tmpl('nginx')));
  assert.notEqual(a, computeHash(tmpl('nginx'), 1));
  assert.notEqual(a, computeHash(tmpl('nginx:2')));
  assert.match(a, /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
});

test('SetNewReplicaSetAnnotations: revision raised, the old one recorded in revision-history, replicas annotations on creation', () => {
  const d = deployment(3, 1, 1);
  d.metadata.annotations = { team: 'a', 'kubectl.kubernetes.io/last-applied-configuration': '{}' };
  const fresh = rs('x', 0);
  assert.equal(setNewReplicaSetAnnotations(d, fresh, 1, false), true);
  assert.deepEqual(fresh.metadata.annotations, {
    team: 'a',
    'deployment.kubernetes.io/revision': '1',
    'deployment.kubernetes.io/desired-replicas': '3',
    'deployment.kubernetes.io/max-replicas': '4',
  });
  const back = rs('y', 0);
  back.metadata.annotations = {
    'deployment.kubernetes.io/revision': '2',
    'deployment.kubernetes.io/revision-history': '1',
  };
  assert.equal(setNewReplicaSetAnnotations(d, back, 4, true), true);
  assert.equal(back.metadata.annotations['deployment.kubernetes.io/revision'], '4');
  assert.equal(back.metadata.annotations['deployment.kubernetes.io/revision-history'], '1,2');
  assert.equal(setNewReplicaSetAnnotations(d, back, 4, true), false);
});

test('cleanupDeployment keeps revisionHistoryLimit alive old ReplicaSets, deleting only scaled-down ones', () => {
  const d = deployment(1, 1, 1);
  d.spec.revisionHistoryLimit = 1;
  const a = rs('a', 0, 0, '2025-01-01T00:00:02Z');
  a.metadata.annotations = { 'deployment.kubernetes.io/revision': '1' };
  const b = rs('b', 0, 0, '2025-01-01T00:00:01Z');
  b.metadata.annotations = { 'deployment.kubernetes.io/revision': '2' };
  const c = rs('c', 1, 1, '2025-01-01T00:00:00Z');
  c.metadata.annotations = { 'deployment.kubernetes.io/revision': '3' };
  assert.deepEqual(replicaSetsToClean(d, [a, b, c], 'revision'), [a, b]);
  assert.deepEqual(replicaSetsToClean(d, [a, b, c], 'creation'), [b]); // c (oldest) still has a replica
  d.spec.revisionHistoryLimit = undefined;
  assert.deepEqual(replicaSetsToClean(d, [a, b, c], 'revision'), []);
});

test('proportional scaling (TestScale-like): a scaling event mid-rollout shares replicas + maxSurge by size', () => {
  // 10 replicas, surge 3: old 8 + new 5 = 13, scaled to 20 → allowed 23, +10 shared 8/13 and 5/13 (by max-replicas 13).
  const d = deployment(20, 3, 2);
  const oldRS = rs('old', 8, 8, '2025-01-01T00:00:00Z', 'old');
  const newRS = rs('new', 5, 5, '2025-01-01T00:00:10Z');
  for (const x of [oldRS, newRS])
    x.metadata.annotations = {
      'deployment.kubernetes.io/desired-replicas': '10',
      'deployment.kubernetes.io/max-replicas': '13',
    };
  const { resizes, operation } = proportionalScale(d, newRS, [oldRS]);
  assert.equal(operation, 'up');
  assert.deepEqual(
    resizes.map((r) => [r.rs.metadata.name, r.replicas]),
    [
      ['old', 14],
      ['new', 9],
    ],
  );
  // Only one active ReplicaSet: it takes spec.replicas.
  const lone = rs('lone', 3);
  assert.deepEqual(
    proportionalScale(deployment(5, 1, 1), lone, []).resizes.map((r) => r.replicas),
    [5],
  );
});

test('rolloutStatus: Available by minimum availability; Progressing NewReplicaSetAvailable once complete', () => {
  const d = deployment(3, 1, 0);
  d.status = { observedGeneration: 1 };
  const newRS = rs('new', 3, 3);
  const s = rolloutStatus(
    [newRS],
    newRS,
    { ...d, spec: { ...d.spec, progressDeadlineSeconds: 600 } },
    Date.UTC(2025, 0, 1),
  );
  assert.deepEqual(
    s.conditions?.map((c) => [c.type, c.status, c.reason]),
    [
      ['Available', 'True', 'MinimumReplicasAvailable'],
      ['Progressing', 'True', 'NewReplicaSetAvailable'],
    ],
  );
  assert.equal(s.conditions?.[1].message, 'ReplicaSet "new" has successfully progressed.');
});

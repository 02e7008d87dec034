// The controller runtime in an assembled cluster: a controller that lost leadership writes
// nothing while the shared informers keep delivering, and a failing sync reaches the driver's
// unexpectedErrors() (which the After hook attaches to the scenario in the report).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../src/cluster/cluster';
import { clusterConfig } from '../../src/profile/config';
import { loadProfile } from '../../src/profile/profile';
import { ReferenceDriver } from '../../src/drivers/reference';
import { backgroundErrors, processReporter } from '../../src/client/background';
import { Lease, Pod } from '../../src/api/core';
import { ReplicaSet } from '../../src/api/resources/replicaset';

const REPLICASETS = { resource: 'replicasets.apps', namespace: 'default' };
const PODS = { resource: 'pods', namespace: 'default' };

function replicaSet(name: string, replicas: number): ReplicaSet {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  } as ReplicaSet;
}

/** A quota of 0 pods, then a ReplicaSet "refused": its controller's pod creation fails. */
async function refuseByQuota(driver: ReferenceDriver): Promise<void> {
  const client = driver.cluster.client;
  await client.create(
    { resource: 'resourcequotas', namespace: 'default' },
    {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'no-pods', namespace: 'default' },
      spec: { hard: { pods: '0' } },
    },
  );
  await driver.cluster.settle();
  await client.create(REPLICASETS, replicaSet('refused', 1));
  await driver.cluster.settle();
}

test('after losing leadership the controllers write nothing, while the shared informers keep delivering', async () => {
  const c = new Cluster({
    config: clusterConfig(loadProfile('kubernetes-1.32'), { 'kube-controller-manager': { 'leader-elect': 'true' } }),
  });
  const quiet = backgroundErrors.report;
  backgroundErrors.report = () => undefined;
  await c.start();
  try {
    await c.client.create(REPLICASETS, replicaSet('before', 2));
    await c.settle();
    assert.equal((await c.client.list<Pod>(PODS)).items.length, 2, 'the leader creates the pods');

    // Another identity takes the lock: the elector's next renewal fails, and renewDeadline
    // later it stops leading (upstream's process would exit).
    const ref = { resource: 'leases.coordination.k8s.io', namespace: 'kube-system' };
    const lease = await c.client.get<Lease>(ref, 'kube-controller-manager');
    const now = new Date(c.clock.now()).toISOString().replace(/Z$/, '000Z');
    const spec = {
      ...lease.spec,
      holderIdentity: 'other',
      acquireTime: now,
      renewTime: now,
      leaseDurationSeconds: 3600,
    };
    await c.client.update(ref, { ...lease, spec });
    await c.advance(15_000);
    assert.equal(c.leaderElector?.isLeader, false, 'leadership lost');

    // A node tainted NoExecute under a pod that does not tolerate it: the taint eviction
    // controller, were it still listening, would delete the pod at once.
    await c.client.create(
      { resource: 'nodes' },
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'n1' },
        spec: { taints: [{ key: 'example.com/gone', effect: 'NoExecute' }] },
      },
    );
    await c.client.create(PODS, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'on-n1', namespace: 'default' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] },
    });
    await c.client.create(REPLICASETS, replicaSet('after', 3));
    await c.client.delete(PODS, (await c.client.list<Pod>(PODS)).items[0].metadata.name!, { gracePeriodSeconds: 0 });
    await c.advance(60_000);
    const informed = c.informers.informer<ReplicaSet>({ resource: 'replicasets.apps' });
    assert.ok(informed.getByName('after', 'default'), 'the shared informer delivered the new ReplicaSet');
    const pods = (await c.client.list<Pod>(PODS)).items.map(
      (p) => `${p.metadata.name}${p.metadata.deletionTimestamp ? ' (deleting)' : ''}`,
    );
    assert.equal(pods.length, 2, `no pod created for the ReplicaSets: ${pods.join(', ')}`);
    assert.ok(pods.includes('on-n1'), `the pod on the tainted node is not evicted: ${pods.join(', ')}`);
    const after = await c.client.get<ReplicaSet>(REPLICASETS, 'after');
    // As the API server made it (status.replicas 0): the controller never observed it.
    assert.deepEqual(after.status, { replicas: 0 }, 'no status written for a ReplicaSet seen only after the loss');
  } finally {
    backgroundErrors.report = quiet;
    await c.stop();
  }
});

test("a sync that fails (pod creation refused by quota) is in the driver's unexpectedErrors(), with the original error", async () => {
  const driver = new ReferenceDriver(loadProfile('kubernetes-1.32'));
  const quiet = backgroundErrors.report;
  backgroundErrors.report = () => undefined;
  await driver.start();
  try {
    await refuseByQuota(driver);
    const errors = driver.unexpectedErrors().filter((e) => e.includes('replicaset-controller (default/refused)'));
    assert.ok(errors.length > 0, `reported: ${driver.unexpectedErrors().join('\n')}`);
    assert.match(errors[0], /forbidden: exceeded quota: no-pods/);
  } finally {
    backgroundErrors.report = quiet;
    await driver.stop();
  }
});

test('two clusters in one process each have their own background reporter: a failing sync in one is not seen by the other', async () => {
  const quiet = backgroundErrors.report;
  backgroundErrors.report = () => undefined;
  const a = new ReferenceDriver(loadProfile('kubernetes-1.32'));
  const b = new ReferenceDriver(loadProfile('kubernetes-1.32'));
  const processBefore = processReporter.count;
  await a.start();
  await b.start();
  try {
    await refuseByQuota(a);
    await b.cluster.settle();
    assert.ok(
      a.unexpectedErrors().some((e) => e.includes('replicaset-controller (default/refused)')),
      `cluster a reported: ${a.unexpectedErrors().join('\n')}`,
    );
    assert.ok(a.cluster.background.count > 0, "the failure is counted by cluster a's reporter");
    assert.deepEqual(b.unexpectedErrors(), [], 'cluster b saw none of it');
    assert.equal(b.cluster.background.count, 0);
    assert.equal(processReporter.count, processBefore, 'nor did the process reporter');
  } finally {
    backgroundErrors.report = quiet;
    await a.stop();
    await b.stop();
  }
});

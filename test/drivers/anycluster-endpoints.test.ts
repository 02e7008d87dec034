import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Cluster } from '../../src/cluster/cluster';
import { clusterConfig } from '../../src/profile/config';
import { loadProfile } from '../../src/profile/profile';
import { ClusterServer } from '../../src/cluster/serving';
import { KubeconfigClient } from '../../src/client/kubeconfig';
import { coreRegistry } from '../../src/api/resources';
import { isStatusError } from '../../src/api/errors';
import { KubeDriver } from '../../src/drivers/kube';
import { loadTargetDeclaration } from '../../src/drivers/targets';
import { NotApplicableError } from '../../src/drivers/driver';
import { Names } from '../../src/drivers/scoped';

/** The reference's in-process observations, over HTTP (what the kube driver reads from kubespec serve). */

async function served() {
  const tokens = path.join(os.tmpdir(), `kubespec-tokens-${process.pid}.csv`);
  fs.writeFileSync(tokens, 'tok-1,carol,7,"team-a,team-b"\n');
  const cluster = new Cluster({
    config: clusterConfig(loadProfile('seed'), {
      'kube-apiserver': { 'authorization-mode': 'RBAC', 'token-auth-file': tokens },
      'kube-controller-manager': { 'cloud-provider': 'simulated' },
    }),
  });
  await cluster.start();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-endpoints-'));
  const server = new ClusterServer(cluster, { dir, fastKeys: true, anyFreePort: true });
  const e = await server.start();
  const api = KubeconfigClient.fromFile(e.kubeconfig, coreRegistry());
  const driver = new KubeDriver(loadProfile('seed'), { ...loadTargetDeclaration('serve'), shared: false }, api);
  return {
    cluster,
    api,
    driver,
    stop: async () => {
      await driver.stop();
      await server.stop();
      await cluster.stop();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(tokens, { force: true });
    },
  };
}

test('TokenReview, scheduler decisions, cloud, kube-proxy route, audit and compaction over HTTP', async () => {
  const s = await served();
  try {
    await s.driver.start();
    // TokenReview: upstream's API, 400 without a token; the answer carries system:authenticated,
    // since upstream reviews through the whole request authenticator (group adder included).
    assert.deepEqual(await s.driver.authenticate('tok-1'), {
      username: 'carol',
      groups: ['team-a', 'team-b', 'system:authenticated'],
    });
    assert.equal(await s.driver.authenticate('nope'), undefined);
    await assert.rejects(
      s.api.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: { spec: {} } }),
      (e) => isStatusError(e) && e.code === 400,
    );

    await s.driver.addKubelet({ name: 'n1' });
    await s.driver.client.create(
      { resource: 'pods', namespace: 'default' },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p1', namespace: 'default' },
        spec: { containers: [{ name: 'c', image: 'x' }] },
      },
    );
    const decisions = await s.driver.schedulerDecisions('default/p1');
    assert.equal(decisions.length, 1);
    assert.equal(decisions[0].chosen, 'n1');

    // The kube-proxy of n1: no such service → refused; a bad port → 400.
    assert.equal(await s.driver.route('n1', '10.96.0.77', 80), undefined);
    await assert.rejects(
      s.api.request('GET', '/kubespec/v1/proxies/n1/route', { query: { ip: '10.96.0.1', port: '0' } }),
      (e) => isStatusError(e) && e.code === 400,
    );
    await assert.rejects(s.driver.route('nope', '10.96.0.1', 443), /no kube-proxy runs on node "nope"/);

    // Audit: the admin's writes, and storage moved only by the API server.
    const audit = await s.driver.apiAudit();
    assert.ok(audit.writesByUser['kubernetes-admin'] > 0, JSON.stringify(audit.writesByUser));
    assert.equal(audit.storeRevisionDelta, audit.apiServerStoreWrites);

    // Cloud: n1's machine goes; a machine that does not exist is an error, not "not applicable".
    assert.deepEqual(await s.driver.loadBalancers(), []);
    await s.driver.deleteMachine('n1');
    assert.equal(s.cluster.cloudMachines()!.includes('n1'), false);
    await assert.rejects(s.driver.deleteMachine('n1'), /the cloud has no machine "n1"/);

    // Compaction: an old resourceVersion answers 410 on watch afterwards.
    const before = s.cluster.store.revision();
    await s.driver.compactStorage();
    assert.equal(s.cluster.store.compactedRevision(), before);
  } finally {
    await s.stop();
  }
});

test('exact event times on a virtual clock over HTTP: a watch sees each change at the cluster time of its revision', async () => {
  const s = await served();
  try {
    await s.driver.start();
    assert.equal(s.driver.capabilities.exactEventTimes, true);
    const seen: [string, number][] = [];
    const w = await s.driver.client.watch(
      { resource: 'nodes' },
      {},
      { onEvent: (ev) => seen.push([`${ev.type} ${ev.object.metadata.name}`, s.driver.now()]) },
    );
    const t0 = s.driver.now();
    await s.driver.addKubelet({ name: 'n1' });
    await s.driver.stopKubelet('n1');
    await s.driver.advance(120_000); // the node becomes Unknown 40-45 s after its last heartbeat
    w.stop();
    const unknownAt = s.cluster.clock.now() - 120_000;
    void unknownAt;
    // Every event was handed over with the time its revision was written, never the end of the advance.
    const times = seen.map(([, t]) => t);
    assert.ok(
      times.every((t) => t >= t0 && t < t0 + 120_000),
      JSON.stringify(seen),
    );
    assert.ok(new Set(times).size > 1, `changes at different instants: ${JSON.stringify(seen)}`);
  } finally {
    await s.stop();
  }
});

test('a kube cluster without kubespec endpoints: those observations are not applicable, never failures', async () => {
  const s = await served();
  try {
    // An endpoint the server does not offer answers 404 without a kind: not applicable.
    await assert.rejects(s.api.request('GET', '/kubespec/v1/none'), (e) => isStatusError(e) && e.code === 404);
    const d = s.driver as unknown as { kubespec(m: string, p: string, why: string): Promise<unknown> };
    await assert.rejects(
      d.kubespec('GET', '/kubespec/v1/none', 'offers nothing'),
      (e) => e instanceof NotApplicableError,
    );
  } finally {
    await s.stop();
  }
});

test('names: out to the cluster and back, selectors, JSON patches, errors', () => {
  const n = new Names('abcdefgh');
  assert.equal(n.name('n1'), 'n1-abcdefgh');
  assert.equal(n.namespace('default'), 'default-abcdefgh');
  assert.equal(n.namespace('kube-system'), 'kube-system');
  assert.equal(n.objectName({ resource: 'nodes' }, 'n1'), 'n1-abcdefgh');
  assert.equal(n.objectName({ resource: 'pods', namespace: 'default' }, 'p1'), 'p1');
  assert.equal(
    n.objectName({ resource: 'leases.coordination.k8s.io', namespace: 'kube-node-lease' }, 'n1'),
    'n1-abcdefgh',
  );
  const pod = n.fields({
    metadata: { namespace: 'default', labels: { app: 'x', 'topology.kubernetes.io/zone': 'z1' } },
    spec: {
      nodeName: 'n1',
      nodeSelector: { 'kubernetes.io/hostname': 'n2' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['z1', 'z2'] },
                ],
                matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n3'] }],
              },
            ],
          },
        },
      },
    },
  });
  assert.deepEqual(pod, {
    metadata: { namespace: 'default-abcdefgh', labels: { app: 'x', 'topology.kubernetes.io/zone': 'z1-abcdefgh' } },
    spec: {
      nodeName: 'n1-abcdefgh',
      nodeSelector: { 'kubernetes.io/hostname': 'n2-abcdefgh' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  {
                    key: 'failure-domain.beta.kubernetes.io/zone',
                    operator: 'In',
                    values: ['z1-abcdefgh', 'z2-abcdefgh'],
                  },
                ],
                matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n3-abcdefgh'] }],
              },
            ],
          },
        },
      },
    },
  });
  assert.deepEqual(n.back(pod), {
    metadata: { namespace: 'default', labels: { app: 'x', 'topology.kubernetes.io/zone': 'z1' } },
    spec: {
      nodeName: 'n1',
      nodeSelector: { 'kubernetes.io/hostname': 'n2' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['z1', 'z2'] },
                ],
                matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n3'] }],
              },
            ],
          },
        },
      },
    },
  });
  assert.equal(
    n.fieldSelector('spec.nodeName=n1,status.phase=Running'),
    'spec.nodeName=n1-abcdefgh,status.phase=Running',
  );
  assert.equal(
    n.labelSelector('app=x,topology.kubernetes.io/zone=z1'),
    'app=x,topology.kubernetes.io/zone=z1-abcdefgh',
  );
  assert.equal(
    n.labelSelector('topology.kubernetes.io/zone in (z1, z2)'),
    'topology.kubernetes.io/zone in (z1-abcdefgh,z2-abcdefgh)',
  );
  assert.deepEqual(
    n.jsonPatch([
      { op: 'replace', path: '/spec/nodeName', value: 'n1' },
      { op: 'add', path: '/metadata/labels/topology.kubernetes.io~1zone', value: 'z9' },
      { op: 'add', path: '/metadata/labels/app', value: 'n1' },
    ]),
    [
      { op: 'replace', path: '/spec/nodeName', value: 'n1-abcdefgh' },
      { op: 'add', path: '/metadata/labels/topology.kubernetes.io~1zone', value: 'z9-abcdefgh' },
      { op: 'add', path: '/metadata/labels/app', value: 'n1' },
    ],
  );
  const err = n.error(
    new (require('../../src/api/errors').StatusError)({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 404,
      reason: 'NotFound',
      message: 'nodes "n1-abcdefgh" not found',
    }),
  );
  assert.ok(isStatusError(err, 'NotFound'));
  assert.equal((err as Error).message, 'nodes "n1" not found');
});

test('a shared cluster: the scenario works under its own names, and what a killed run left is removed by kubespec clean', async () => {
  const s = await served();
  const { ScopedDriver } = await import('../../src/drivers/scoped');
  const { cleanRuns } = await import('../../src/drivers/clean');
  try {
    const inner = new KubeDriver(loadProfile('seed'), { ...loadTargetDeclaration('serve'), shared: true }, s.api);
    const scoped = new ScopedDriver(inner, 60_000);
    await scoped.start();
    await scoped.addKubelet({ name: 'n1', labels: { 'topology.kubernetes.io/zone': 'z1' } });
    await scoped.client.create(
      { resource: 'pods', namespace: 'default' },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p1', namespace: 'default' },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] },
      },
    );
    // Steps see the feature's names; the cluster holds the scenario's own.
    const seen = await scoped.client.list<import('../../src/api/core').Node>({ resource: 'nodes' });
    assert.deepEqual(
      seen.items.map((n) => [n.metadata.name, n.metadata.labels?.['topology.kubernetes.io/zone']]),
      [['n1', 'z1']],
    );
    const pod = await scoped.client.get<import('../../src/api/core').Pod>(
      { resource: 'pods', namespace: 'default' },
      'p1',
    );
    assert.equal(pod.spec.nodeName, 'n1');
    assert.equal(pod.metadata.namespace, 'default');
    const onCluster = (await s.api.list({ resource: 'nodes' })).items.map((n) => n.metadata.name!);
    assert.deepEqual(onCluster, [`n1-${scoped.names.token}`]);
    await assert.rejects(
      scoped.client.get({ resource: 'nodes' }, 'n9'),
      (e) => isStatusError(e, 'NotFound') && (e as Error).message === 'nodes "n9" not found',
    );
    // Another scenario at the same time does not see n1.
    const other = new ScopedDriver(
      new KubeDriver(loadProfile('seed'), { ...loadTargetDeclaration('serve'), shared: true }, s.api),
      60_000,
    );
    assert.deepEqual((await other.client.list({ resource: 'nodes' })).items, []);

    // The run is killed (no stop): its labelled node, namespace and hollow kubelet stay…
    assert.equal(s.cluster.kubelets.size, 1);
    // …until clean: --expired-only spares them (not expired yet), a plain clean removes them.
    assert.deepEqual((await cleanRuns(s.api, { all: false })).removed, {});
    const { removed } = await cleanRuns(s.api, { all: true });
    assert.deepEqual(removed, { namespaces: 1, nodes: 1 });
    assert.equal(s.cluster.kubelets.size, 0, 'the server-side hollow kubelet is gone too');
    assert.deepEqual((await s.api.list({ resource: 'nodes' })).items, []);
    await inner.stop();
  } finally {
    await s.stop();
  }
});

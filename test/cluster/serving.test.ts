import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Cluster } from '../../src/cluster/cluster';
import { clusterConfig } from '../../src/profile/config';
import { loadProfile } from '../../src/profile/profile';
import { ClusterServer } from '../../src/cluster/serving';
import { KubeconfigClient } from '../../src/client/kubeconfig';
import { coreRegistry } from '../../src/api/resources';
import { StatusError, isStatusError } from '../../src/api/errors';
import { Informer } from '../../src/client/informer';
import { Node } from '../../src/api/core';
import { waitForPort } from '../../src/drivers/serve';

/** The served API from clients that are not kubectl: our KubeconfigClient and @kubernetes/client-node 1.x. */

async function served(): Promise<{
  cluster: Cluster;
  server: ClusterServer;
  kubeconfig: string;
  client: KubeconfigClient;
  stop: () => Promise<void>;
}> {
  const cluster = new Cluster({
    config: clusterConfig(loadProfile('kubernetes-1.32'), { 'kube-apiserver': { 'authorization-mode': 'RBAC' } }),
  });
  await cluster.start();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-serve-test-'));
  const server = new ClusterServer(cluster, { dir, fastKeys: true, anyFreePort: true });
  const e = await server.start();
  const client = KubeconfigClient.fromFile(e.kubeconfig, coreRegistry());
  return {
    cluster,
    server,
    kubeconfig: e.kubeconfig,
    client,
    stop: async () => {
      await server.stop();
      await cluster.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const until = async (what: string, check: () => boolean, ms = 4000) => {
  for (let i = 0; i < ms / 10 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check(), `timed out waiting for ${what}`);
};

test('HttpClient: CRUD, Status errors and an informer (list + watch) over HTTPS', async () => {
  const s = await served();
  try {
    await s.cluster.addKubelet({ name: 'n1', nodeIP: '10.0.0.1' });
    const list = await s.client.list<Node>({ resource: 'nodes' });
    assert.deepEqual(
      list.items.map((n) => n.metadata.name),
      ['n1'],
    );
    await assert.rejects(
      s.client.get({ resource: 'nodes' }, 'nope'),
      (e) => isStatusError(e, 'NotFound') && e.message === 'nodes "nope" not found',
    );
    const informer = new Informer<Node>(s.client, { resource: 'nodes' });
    const seen: string[] = [];
    informer.addEventHandler({
      onAdd: (n) => seen.push(`add ${n.metadata.name}`),
      onDelete: (n) => seen.push(`delete ${n.metadata.name}`),
    });
    await informer.run();
    await s.client.create({ resource: 'nodes' }, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' } });
    await until('n2 added', () => seen.includes('add n2'));
    await s.client.delete({ resource: 'nodes' }, 'n2');
    await until('n2 deleted', () => seen.includes('delete n2'));
    assert.deepEqual(seen, ['add n1', 'add n2', 'delete n2']);
    informer.stop();
  } finally {
    await s.stop();
  }
});

test('@kubernetes/client-node 1.x: list, read errors, patch, watch and informer', async () => {
  const s = await served();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const k8s = require('@kubernetes/client-node') as typeof import('@kubernetes/client-node');
  try {
    await s.cluster.addKubelet({ name: 'n1', nodeIP: '10.0.0.1' });
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(s.kubeconfig);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const nodes = await core.listNode();
    assert.deepEqual(
      nodes.items.map((n) => n.metadata?.name),
      ['n1'],
    );
    assert.ok(nodes.items[0].metadata?.creationTimestamp instanceof Date);
    await assert.rejects(core.readNode({ name: 'nope' }), (e: { code?: number }) => e.code === 404);
    await core.patchNode({ name: 'n1', body: [{ op: 'add', path: '/metadata/labels/tier', value: 'gold' }] });
    assert.equal((await core.readNode({ name: 'n1' })).metadata?.labels?.tier, 'gold');

    const events: string[] = [];
    const watch = new k8s.Watch(kc);
    const req = await watch.watch(
      '/api/v1/nodes',
      { resourceVersion: nodes.metadata?.resourceVersion },
      (type: string, obj: { metadata: { name: string } }) => events.push(`${type} ${obj.metadata.name}`),
      () => undefined,
    );
    const informer = k8s.makeInformer(kc, '/api/v1/nodes', () => core.listNode());
    const cached: string[] = [];
    informer.on('add', (n) => cached.push(`add ${n.metadata?.name}`));
    informer.on('delete', (n) => cached.push(`delete ${n.metadata?.name}`));
    await informer.start();
    await s.client.create({ resource: 'nodes' }, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' } });
    await s.client.delete({ resource: 'nodes' }, 'n2');
    await until('watch events', () => events.includes('DELETED n2') && cached.includes('delete n2'));
    // Between them the controllers may modify the node (the TTL controller's annotation, the
    // node lifecycle's taints), as on any cluster.
    const n2 = events.filter((e) => e.endsWith('n2'));
    assert.equal(n2[0], 'ADDED n2');
    assert.equal(n2[n2.length - 1], 'DELETED n2');
    assert.deepEqual(new Set(n2.slice(1, -1)), new Set(n2.length > 2 ? ['MODIFIED n2'] : []));
    assert.deepEqual(cached, ['add n1', 'add n2', 'delete n2']);
    await informer.stop();
    req.abort();
  } finally {
    await s.stop();
  }
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

test('kubespec serve: prints its kubeconfig; kubectl and the /kubespec/v1 endpoints work against it', {
  skip:
    spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status !== 0
      ? 'kubectl is not installed'
      : false,
}, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-cli-'));
  const port = await freePort();
  const bin = path.join(__dirname, '..', '..', 'bin', 'kubespec');
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--data-dir', dir, '--secure-port', String(port), '--bind-address', '127.0.0.1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  try {
    await until(`the kubeconfig line (output so far: ${out})`, () => /kubeconfig: /.test(out), 60_000);
    const kubeconfig = /kubeconfig: (\S+)/.exec(out)![1];
    const client = KubeconfigClient.fromFile(kubeconfig, coreRegistry());
    const post = async (p: string, body: unknown) => {
      try {
        return { code: 200, body: await client.request<Record<string, unknown>>('POST', p, { body }) };
      } catch (e) {
        if (e instanceof StatusError) return { code: e.code, body: e.status as unknown as Record<string, unknown> };
        throw e;
      }
    };
    assert.deepEqual((await post('/kubespec/v1/kubelets', { nodeName: 'n1', nodeIP: '10.1.0.1' })).body, {
      nodeName: 'n1',
      running: true,
    });
    assert.equal((await post('/kubespec/v1/kubelets/nope/stop', {})).code, 404);
    const stopped = await post('/kubespec/v1/kubelets/n1/stop', {});
    assert.equal(stopped.code, 200);
    assert.equal(stopped.body.running, false);
    assert.match(String(stopped.body.lastHeartbeat), /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual((await post('/kubespec/v1/kubelets/n1/start', {})).body, { nodeName: 'n1', running: true });
    assert.deepEqual(await post('/kubespec/v1/clock', { advanceSeconds: 3600 }), {
      code: 200,
      body: { now: '2025-01-01T01:00:00.000Z', mode: 'virtual' },
    });
    const home = path.join(dir, 'home');
    fs.mkdirSync(home);
    const r = spawnSync('kubectl', ['get', 'nodes', '-o', 'wide'], {
      env: { PATH: process.env.PATH, HOME: home, KUBECONFIG: kubeconfig, KUBECACHEDIR: path.join(dir, 'cache') },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\s+INTERNAL-IP\s+EXTERNAL-IP\s+OS-IMAGE\s+KERNEL-VERSION\s+CONTAINER-RUNTIME\n/,
    );
    assert.match(r.stdout, /\nn1\s+Ready\s+<none>\s+60m\s+v1\.12\.10\s+10\.1\.0\.1\s+<none>\s+CentOS Linux 7 \(Core\)/);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the serve target waits for a port a scenario must have, and names it when it stays taken', async () => {
  const holder = net.createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
  const port = (holder.address() as net.AddressInfo).port;
  try {
    await assert.rejects(
      waitForPort(port, '127.0.0.1', Date.now() + 300),
      new RegExp(`^Error: port ${port} on 127\\.0\\.0\\.1, which the scenario must have, stayed in use`),
    );
    const waited = waitForPort(port, '127.0.0.1', Date.now() + 10_000);
    setTimeout(() => holder.close(), 400);
    const t0 = Date.now();
    await waited;
    assert.ok(Date.now() - t0 >= 300, 'resolved only once the holder let go');
  } finally {
    if (holder.listening) holder.close();
  }
});

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeconfigClient } from '../../src/client/kubeconfig';
import { coreRegistry } from '../../src/api/resources';
import { ApiWatchEvent } from '../../src/api/request';
import { KubeObject } from '../../src/api/meta';
import { Lease, Node, Pod } from '../../src/api/core';
import { Client } from '../../src/client/client';
import { EtcdServer, etcdMissing, freePort } from '../../src/store/etcd-process';
import { kill9, serve, Served, stop } from './serve-process';

/**
 * Two `kubespec serve` on one etcd, each a whole control plane (API server, controller
 * manager, scheduler, hollow kubelets), as an HA pair of masters: the API servers alone
 * talk to etcd (COMM-APISERVER-ONLY), both serve reads, writes and watches, and with
 * --leader-elect only the holder of kube-system/kube-controller-manager runs controllers
 * and only the holder of kube-system/kube-scheduler schedules.
 *
 * - a watch on one server sees every write made through the other, in order, with the
 *   resourceVersions the writer got (both are etcd's mod revisions; each server's watch hub
 *   is fed by its etcd watch);
 * - kill -9 of the leader: the other takes the Leases over, its controllers and scheduler
 *   act (a ReplicaSet made after the kill gets its pods, bound), and its node controller
 *   marks the dead master's node Unknown; a client that switches to the survivor keeps
 *   working with the same credentials (the pair shares the PKI, as kubeadm copies it).
 *
 * Real clock, upstream's default election timings (15 s lease, 10 s renew deadline, 2 s
 * retry): the failover time printed (`# failover: …`) is the figure in the README.
 */
const ns = 'ha';
const profile = 'kubernetes-1.32';
// Short node timings so the node controller's first pass after the takeover shows soon.
const FLAGS = [
  '--clock', 'real', '--leader-elect', 'true',
  '--node-monitor-period', '1s', '--node-monitor-grace-period', '8s', '--node-startup-grace-period', '8s',
  '--node-status-update-frequency', '2s', '--node-lease-duration-seconds', '6',
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    await sleep(100);
  }
  throw new Error(`${what}: not within ${ms} ms${last ? ` (last error: ${(last as Error).message})` : ''}`);
}

const holder = async (c: Client, name: string) => (await c.get<Lease>({ resource: 'leases.coordination.k8s.io', namespace: 'kube-system' }, name)).spec?.holderIdentity;

function identityOf(s: Served): { controllers: string; scheduler: string } {
  const m = /^leader election identity: (\S+) \(scheduler: (\S+)\)$/m.exec(s.output());
  assert.ok(m, `no leader election identity in the output:\n${s.output()}`);
  return { controllers: m[1], scheduler: m[2] };
}

describe('an HA pair of kubespec serve on one etcd', { skip: etcdMissing() }, () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-ha-'));
  const etcd = new EtcdServer();
  const servers: Served[] = [];
  after(async () => {
    for (const s of servers) await stop(s.child);
    await etcd.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  test('watches across servers agree; kill -9 of the leader: the other takes over', async () => {
    await etcd.start();
    const store = etcd.endpoint.replace(/^http:/, 'etcd:');
    const [portA, portB] = [await freePort(), await freePort()];
    const dirA = path.join(work, 'a');
    const dirB = path.join(work, 'b');
    const a = await serve(dirA, portA, store, FLAGS, profile);
    servers.push(a);
    // The second master gets the first one's PKI (CA, service-account key), as kubeadm
    // join --control-plane copies it: one set of credentials for both.
    fs.cpSync(path.join(dirA, 'pki'), path.join(dirB, 'pki'), { recursive: true });
    const b = await serve(dirB, portB, store, FLAGS, profile);
    servers.push(b);
    const kubeconfig = path.join(work, 'admin.kubeconfig');
    fs.copyFileSync(a.kubeconfig, kubeconfig);
    const ca = KubeconfigClient.fromFile(kubeconfig, coreRegistry());
    const cbText = fs.readFileSync(kubeconfig, 'utf8').replace(`https://127.0.0.1:${portA}`, `https://127.0.0.1:${portB}`);
    fs.writeFileSync(path.join(work, 'admin-b.kubeconfig'), cbText);
    const cb = KubeconfigClient.fromFile(path.join(work, 'admin-b.kubeconfig'), coreRegistry());

    // A came first: it holds both locks; B stands by.
    const idA = identityOf(a);
    const idB = identityOf(b);
    assert.equal(await until('A leads the controller manager', 20_000, async () => ((await holder(cb, 'kube-controller-manager')) === idA.controllers ? true : undefined)), true);
    assert.equal(await holder(cb, 'kube-scheduler'), idA.scheduler);

    // A hollow kubelet on each master.
    await ca.request('POST', '/kubespec/v1/kubelets', { body: { nodeName: 'n-a' } });
    await cb.request('POST', '/kubespec/v1/kubelets', { body: { nodeName: 'n-b' } });
    await ca.create({ resource: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });

    // Watches on both servers, writes through the other one.
    const cms = { resource: 'secrets', namespace: ns };
    const start = (await cb.list(cms)).metadata.resourceVersion!;
    const seenOnB: string[] = [];
    const seenOnA: string[] = [];
    const record = (into: string[]) => (e: ApiWatchEvent<KubeObject>) => into.push(`${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`);
    const wB = await cb.watch(cms, { resourceVersion: start }, { onEvent: record(seenOnB) });
    const wA = await ca.watch(cms, { resourceVersion: start }, { onEvent: record(seenOnA) });
    const written: string[] = [];
    for (let i = 0; i < 20; i++) {
      const via = i % 2 === 0 ? ca : cb;
      const made = await via.create(cms, { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: `cm-${i}` }, data: { i: 'MQ==' } } as KubeObject);
      written.push(`ADDED cm-${i} ${made.metadata.resourceVersion}`);
      if (i % 5 === 4) {
        const other = i % 2 === 0 ? cb : ca;
        const got = await other.get<KubeObject>(cms, `cm-${i}`);
        assert.equal(got.metadata.resourceVersion, made.metadata.resourceVersion, 'a GET through the other server gives another resourceVersion');
        const updated = await other.update(cms, { ...got, data: { i: 'Mg==' } } as KubeObject);
        written.push(`MODIFIED cm-${i} ${updated.metadata.resourceVersion}`);
      }
    }
    await until('both watches have every write', 10_000, async () => (seenOnA.length >= written.length && seenOnB.length >= written.length ? true : undefined));
    await sleep(300);
    wA.stop();
    wB.stop();
    assert.deepEqual(seenOnB, written, 'the watch on B differs from the writes (through A and B)');
    assert.deepEqual(seenOnA, written, 'the watch on A differs from the writes (through A and B)');
    const listA = await ca.list(cms);
    const listB = await cb.list(cms);
    assert.deepEqual(listA.items.map((x) => x.metadata.resourceVersion), listB.items.map((x) => x.metadata.resourceVersion));

    // Both nodes Ready; the only controller manager is A's (B's ReplicaSet controller is idle).
    await until('both nodes Ready', 30_000, async () => {
      const nodes = (await cb.list<Node>({ resource: 'nodes' })).items;
      return nodes.length === 2 && nodes.every((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) ? true : undefined;
    });

    // kill -9 of the leader, then everything through B (a client switching masters).
    const killedAt = Date.now();
    await kill9(a.child);
    const rs = { resource: 'replicasets', namespace: ns };
    await cb.create(rs, { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'after-kill' }, spec: { replicas: 2, selector: { matchLabels: { app: 'after-kill' } }, template: { metadata: { labels: { app: 'after-kill' } }, spec: { containers: [{ name: 'c', image: 'pause' }] } } } } as KubeObject);
    await assert.rejects(ca.list(cms), 'the killed master still answers');
    const takeover = await until('B takes the controller manager lock', 40_000, async () => ((await holder(cb, 'kube-controller-manager')) === idB.controllers ? Date.now() - killedAt : undefined));
    const schedulerTakeover = await until('B takes the scheduler lock', 40_000, async () => ((await holder(cb, 'kube-scheduler')) === idB.scheduler ? Date.now() - killedAt : undefined));
    const podsMade = await until('B\'s ReplicaSet controller makes the pods', 30_000, async () => ((await cb.list<Pod>({ resource: 'pods', namespace: ns })).items.length === 2 ? Date.now() - killedAt : undefined));
    const podsBound = await until('B\'s scheduler binds them', 30_000, async () => ((await cb.list<Pod>({ resource: 'pods', namespace: ns })).items.every((p) => p.spec.nodeName) ? Date.now() - killedAt : undefined));
    // (Either node: until the node controller marks n-a, nothing says its master is gone.)
    const nodeUnknown = await until('B\'s node controller marks n-a Unknown', 40_000, async () => {
      const n = await cb.get<Node>({ resource: 'nodes' }, 'n-a');
      return n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'Unknown') ? Date.now() - killedAt : undefined;
    });
    const nb = await cb.get<Node>({ resource: 'nodes' }, 'n-b');
    assert.ok(nb.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'), 'the survivor\'s node is not Ready');
    assert.ok(takeover >= 10_000, `B took the lock ${takeover} ms after the kill: before the lease (15 s from A's last renewal) expired`);
    console.log(`# failover after kill -9 of the leader: Lease kube-controller-manager to the standby ${takeover} ms, kube-scheduler ${schedulerTakeover} ms; ReplicaSet pods made ${podsMade} ms, bound ${podsBound} ms; dead master's node Unknown ${nodeUnknown} ms (grace 8 s)`);
  });
});

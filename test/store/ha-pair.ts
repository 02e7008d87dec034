import * as fs from 'node:fs';
import * as path from 'node:path';
import { KubeconfigClient } from '../../src/client/kubeconfig';
import { coreRegistry } from '../../src/api/resources';
import { KubeObject } from '../../src/api/meta';
import { Lease, Node, Pod } from '../../src/api/core';
import { Client } from '../../src/client/client';
import { freePort } from '../../src/store/etcd-process';
import { after } from 'node:test';
import * as os from 'node:os';
import { EtcdServer } from '../../src/store/etcd-process';
import { kill9, serve, Served, stop } from './serve-process';

/**
 * Two `kubespec serve` on one etcd as an HA pair of masters, and the failover measured when
 * the leader is killed: for test/store/ha.test.ts, which checks them, and `npm run bench --
 * storage`, which reports the times. Real clock, upstream's default election timings (15 s
 * lease, 10 s renew deadline, 2 s retry); short node timings so the node controller's first
 * pass after the takeover shows soon. A hollow kubelet runs in each master (n-a, n-b).
 */
export const HA_NAMESPACE = 'ha';
const profile = 'kubernetes-1.32';
const FLAGS = [
  '--clock',
  'real',
  '--leader-elect',
  'true',
  '--node-monitor-period',
  '1s',
  '--node-monitor-grace-period',
  '8s',
  '--node-startup-grace-period',
  '8s',
  '--node-status-update-frequency',
  '2s',
  '--node-lease-duration-seconds',
  '6',
];

/**
 * What a test of a pair works in, inside its describe(): a scratch dir, an etcd (not yet
 * started) and the list of servers started; all stopped and removed after the suite.
 */
export function pairFixture(prefix: string): { work: string; etcd: EtcdServer; servers: Served[] } {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const etcd = new EtcdServer();
  const servers: Served[] = [];
  // Every stop has a time limit that fails clearly, and what did not stop within it is
  // killed: the clean-up always reaches etcd and always ends (it once hung after a pass).
  after(async () => {
    const failures: Error[] = [];
    for (const s of servers)
      await within(`kubespec serve (pid ${s.child.pid}) to stop`, CLEANUP_LIMIT_MS, stop(s.child)).catch((e) => {
        failures.push(e);
        s.child.kill('SIGKILL');
      });
    await within('etcd to stop', CLEANUP_LIMIT_MS, etcd.stop()).catch((e) => {
      failures.push(e);
      etcd.killNow();
    });
    fs.rmSync(work, { recursive: true, force: true });
    if (failures.length > 0) throw new Error(`clean-up: ${failures.map((e) => e.message).join('; ')}`);
  });
  return { work, etcd, servers };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SIGTERM gets 10 s before SIGKILL (serve-process.ts stop); past this, the clean-up gives up on waiting. */
const CLEANUP_LIMIT_MS = 30_000;

/** `work`, or an error naming what did not happen within `ms`. */
function within<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

export async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
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

export const holder = async (c: Client, name: string) =>
  (await c.get<Lease>({ resource: 'leases.coordination.k8s.io', namespace: 'kube-system' }, name)).spec?.holderIdentity;

function identityOf(s: Served): { controllers: string; scheduler: string } {
  const m = /^leader election identity: (\S+) \(scheduler: (\S+)\)$/m.exec(s.output());
  if (!m) throw new Error(`no leader election identity in the output:\n${s.output()}`);
  return { controllers: m[1], scheduler: m[2] };
}

export interface Pair {
  a: Served;
  b: Served;
  /** The admin's clients of A and of B (one kubeconfig, the server switched). */
  ca: KubeconfigClient;
  cb: KubeconfigClient;
  idA: { controllers: string; scheduler: string };
  idB: { controllers: string; scheduler: string };
}

/** Two servers on one etcd: A, then B with A's PKI (as kubeadm join --control-plane copies it), and the admin's client of each. Every server started is pushed to `started` (for clean-up). */
export async function startServers(
  work: string,
  etcdEndpoint: string,
  started: Served[],
  flags: string[] = FLAGS,
): Promise<Pick<Pair, 'a' | 'b' | 'ca' | 'cb'>> {
  const store = etcdEndpoint.replace(/^http:/, 'etcd:');
  const [portA, portB] = [await freePort(), await freePort()];
  const dirA = path.join(work, 'a');
  const dirB = path.join(work, 'b');
  const a = await serve(dirA, portA, store, flags, profile);
  started.push(a);
  fs.cpSync(path.join(dirA, 'pki'), path.join(dirB, 'pki'), { recursive: true });
  const b = await serve(dirB, portB, store, flags, profile);
  started.push(b);
  const kubeconfig = path.join(work, 'admin.kubeconfig');
  fs.copyFileSync(a.kubeconfig, kubeconfig);
  const ca = KubeconfigClient.fromFile(kubeconfig, coreRegistry());
  fs.writeFileSync(
    path.join(work, 'admin-b.kubeconfig'),
    fs.readFileSync(kubeconfig, 'utf8').replace(`https://127.0.0.1:${portA}`, `https://127.0.0.1:${portB}`),
  );
  const cb = KubeconfigClient.fromFile(path.join(work, 'admin-b.kubeconfig'), coreRegistry());
  return { a, b, ca, cb };
}

/** Starts the pair (startServers) with leader election on; A leads. */
export async function startPair(work: string, etcdEndpoint: string, started: Served[]): Promise<Pair> {
  const { a, b, ca, cb } = await startServers(work, etcdEndpoint, started);
  const idA = identityOf(a);
  const idB = identityOf(b);
  await until('A leads the controller manager', 20_000, async () =>
    (await holder(cb, 'kube-controller-manager')) === idA.controllers ? true : undefined,
  );
  await ca.request('POST', '/kubespec/v1/kubelets', { body: { nodeName: 'n-a' } });
  await cb.request('POST', '/kubespec/v1/kubelets', { body: { nodeName: 'n-b' } });
  await ca.create(
    { resource: 'namespaces' },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: HA_NAMESPACE } },
  );
  return { a, b, ca, cb, idA, idB };
}

/** Milliseconds from the kill -9 of the leader A to each sign that B took over. */
export interface FailoverTimes {
  /** The Lease kube-controller-manager names B. */
  controllerLease: number;
  /** The Lease kube-scheduler names B. */
  schedulerLease: number;
  /** A ReplicaSet created through B right after the kill has its 2 pods (B's controllers act). */
  podsMade: number;
  /** … bound to nodes (B's scheduler acts). */
  podsBound: number;
  /** B's node controller marks A's node n-a Ready=Unknown (its first pass after the takeover, plus the 8 s grace it gives a node it has just started watching). */
  nodeUnknown: number;
}

export async function failover(p: Pair): Promise<FailoverTimes> {
  const { a, ca, cb, idB } = p;
  await until('both nodes Ready', 30_000, async () => {
    const nodes = (await cb.list<Node>({ resource: 'nodes' })).items;
    return nodes.length === 2 &&
      nodes.every((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
      ? true
      : undefined;
  });
  const killedAt = Date.now();
  await kill9(a.child);
  const rs = { resource: 'replicasets', namespace: HA_NAMESPACE };
  await cb.create(rs, {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'after-kill' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'after-kill' } },
      template: { metadata: { labels: { app: 'after-kill' } }, spec: { containers: [{ name: 'c', image: 'pause' }] } },
    },
  } as KubeObject);
  let answered = true;
  await ca.list({ resource: 'namespaces' }).catch(() => {
    answered = false;
  });
  if (answered) throw new Error('the killed master still answers');
  const pods = { resource: 'pods', namespace: HA_NAMESPACE };
  const since = () => Date.now() - killedAt;
  const controllerLease = await until('B takes the controller manager lock', 40_000, async () =>
    (await holder(cb, 'kube-controller-manager')) === idB.controllers ? since() : undefined,
  );
  const schedulerLease = await until('B takes the scheduler lock', 40_000, async () =>
    (await holder(cb, 'kube-scheduler')) === idB.scheduler ? since() : undefined,
  );
  const podsMade = await until("B's ReplicaSet controller makes the pods", 30_000, async () =>
    (await cb.list<Pod>(pods)).items.length === 2 ? since() : undefined,
  );
  // (Either node: until the node controller marks n-a, nothing says its master is gone.)
  const podsBound = await until("B's scheduler binds them", 30_000, async () =>
    (await cb.list<Pod>(pods)).items.every((x) => x.spec.nodeName) ? since() : undefined,
  );
  const nodeUnknown = await until("B's node controller marks n-a Unknown", 40_000, async () => {
    const n = await cb.get<Node>({ resource: 'nodes' }, 'n-a');
    return n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'Unknown') ? since() : undefined;
  });
  return { controllerLease, schedulerLease, podsMade, podsBound, nodeUnknown };
}

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Etcd3 } from 'etcd3';
import { Quiescence } from '../src/clock';
import { MemoryStore, Store } from '../src/store';
import { SqliteStore } from '../src/store/sqlite';
import { ETCD_GRPC_OPTIONS, EtcdStore } from '../src/store/etcd';
import { EtcdServer, etcdBinary } from '../src/store/etcd-process';
import { printTable } from './table';
import { failover, startPair } from '../test/store/ha-pair';
import { Served, stop } from '../test/store/serve-process';
import { ApiServer } from '../src/apiserver/apiserver';
import { InProcessClient } from '../src/apiserver/inprocess-client';
import { coreRegistry } from '../src/api/resources';
import { RealClock } from '../src/clock';
import { KubeObject } from '../src/api/meta';

/**
 * The store backends side by side, through the store contract the API server uses:
 * creates/s and guarded updates/s (32 writers), a LIST of every pod, and watch events/s
 * (one watcher, from the first write to the last event delivered). With etcd, raw puts
 * through the same etcd3 client give the floor, so the store's overhead shows as a ratio.
 * BENCH_STORE_OPS writes (default 3000), BENCH_STORE_LIST pods listed (default 20000; the
 * issue's figure is 150000).
 */
const OPS = Number(process.env.BENCH_STORE_OPS ?? 3000);
const LIST = Number(process.env.BENCH_STORE_LIST ?? 20_000);
const CONCURRENCY = 32;

const pod = (i: number) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: `pod-${i}`,
    namespace: 'bench',
    uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
    labels: { app: 'bench', shard: String(i % 16) },
    creationTimestamp: '2025-01-01T00:00:00Z',
  },
  spec: {
    nodeName: `node-${i % 100}`,
    containers: [
      { name: 'c', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
    ],
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
  },
  status: {
    phase: 'Running',
    podIP: `10.0.${(i >> 8) & 255}.${i & 255}`,
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }],
  },
});

async function parallel(total: number, run: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < total; i = next++) await run(i);
    }),
  );
  return total / (Number(process.hrtime.bigint() - start) / 1e9);
}

async function measure(name: string, store: Store): Promise<Record<string, string | number>> {
  const key = (i: number) => `/registry/pods/bench/pod-${i}`;
  const creates = await parallel(OPS, (i) => store.create(key(i), pod(i)));
  let delivered = 0;
  let lastAt = 0n;
  const watch = await store.watch('/registry/pods/bench/', {}, (events) => {
    delivered += events.length;
    lastAt = process.hrtime.bigint();
  });
  const watchStart = process.hrtime.bigint();
  const updates = await parallel(OPS, async (i) => {
    const cur = (await store.get<ReturnType<typeof pod>>(key(i)))!;
    await store.update(key(i), { ...cur.value, status: { ...cur.value.status, phase: 'Succeeded' } }, cur.modRevision);
  });
  const deadline = Date.now() + 60_000;
  while (delivered < OPS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  watch.stop();
  const watchRate = delivered / (Number(lastAt - watchStart) / 1e9);
  for (let i = OPS; i < LIST; i += 500)
    await Promise.all(Array.from({ length: Math.min(500, LIST - i) }, (_, j) => store.create(key(i + j), pod(i + j))));
  const t = process.hrtime.bigint();
  const listed = await store.range('/registry/pods/bench/');
  const listMs = Number(process.hrtime.bigint() - t) / 1e6;
  if (listed.items.length !== Math.max(LIST, OPS))
    throw new Error(`${name}: listed ${listed.items.length}, want ${Math.max(LIST, OPS)}`);
  return {
    store: name,
    'creates/s': Math.round(creates),
    'updates/s (get+guarded put)': Math.round(updates),
    [`list ${listed.items.length} pods (ms)`]: Math.round(listMs),
    'watch events/s': Math.round(watchRate),
  };
}

/**
 * The API server over a store (in process: admission, defaults, validation, storage; no
 * HTTP): pod creates/s, GETs/s (32 callers), and one LIST of every pod.
 */
async function measureApi(name: string, store: Store, q: Quiescence): Promise<Record<string, string | number>> {
  const api = new ApiServer(coreRegistry(), store, new RealClock());
  const client = new InProcessClient(api, q, { username: 'bench', groups: ['system:masters'] });
  await client.create({ resource: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
  const ref = { resource: 'pods', namespace: 'bench' };
  const apiPod = (i: number) => {
    const p = pod(i);
    return { ...p, metadata: { name: p.metadata.name, labels: p.metadata.labels } } as KubeObject;
  };
  const creates = await parallel(OPS, (i) => client.create(ref, apiPod(i)));
  const gets = await parallel(OPS, (i) => client.get(ref, `pod-${i}`));
  const t = process.hrtime.bigint();
  const listed = await client.list(ref);
  const listMs = Number(process.hrtime.bigint() - t) / 1e6;
  if (listed.items.length !== OPS) throw new Error(`${name}: listed ${listed.items.length}, want ${OPS}`);
  return {
    through: name,
    'creates/s': Math.round(creates),
    'GETs/s': Math.round(gets),
    [`LIST ${OPS} pods (ms)`]: Math.round(listMs),
  };
}

/** The same creates, GETs and LIST as raw etcd requests through the same client: the floor. */
async function measureRawEtcd(endpoint: string): Promise<Record<string, string | number>> {
  const client = new Etcd3({ hosts: [endpoint], grpcOptions: ETCD_GRPC_OPTIONS });
  try {
    const key = (i: number) => Buffer.from(`/raw/registry/pods/bench/pod-${i}`);
    const creates = await parallel(OPS, (i) =>
      client.kv.txn({
        compare: [{ key: key(i), target: 'Create', result: 'Equal', create_revision: 0 }],
        success: [{ request_put: { key: key(i), value: Buffer.from(JSON.stringify(pod(i))) } }],
      }),
    );
    const gets = await parallel(OPS, (i) => client.kv.range({ key: key(i) }));
    const t = process.hrtime.bigint();
    const prefix = Buffer.from('/raw/registry/pods/bench/');
    const end = Buffer.from(prefix);
    end[end.length - 1]++;
    const res = await client.kv.range({ key: prefix, range_end: end });
    const listMs = Number(process.hrtime.bigint() - t) / 1e6;
    // Decoded as the API server must, so the LIST compares like with like.
    const items = res.kvs.map((kv) => JSON.parse(kv.value.toString()));
    if (items.length !== OPS) throw new Error(`raw etcd: listed ${items.length}, want ${OPS}`);
    return {
      through: 'raw etcd (same client: guarded put, range, range of the prefix)',
      'creates/s': Math.round(creates),
      'GETs/s': Math.round(gets),
      [`LIST ${OPS} pods (ms)`]: Math.round(listMs),
    };
  } finally {
    client.close();
  }
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

export async function runStorageBenchmark(): Promise<void> {
  await runStoreRows();
  await runApiRows();
  if (etcdBinary()) await runFailoverRow();
}

/** An HA pair on one etcd (test/store/ha-pair.ts): kill -9 of the leader, and how long until the other acts. */
async function runFailoverRow(): Promise<void> {
  const etcd = new EtcdServer();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-bench-ha-'));
  const servers: Served[] = [];
  try {
    await etcd.start();
    const t = await failover(await startPair(work, etcd.endpoint, servers));
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    printTable(
      'HA pair on one etcd, kill -9 of the leader (15 s lease, 10 s renew deadline, 2 s retry; node grace 8 s): time after the kill',
      [
        {
          'Lease kube-controller-manager → standby': s(t.controllerLease),
          'Lease kube-scheduler → standby': s(t.schedulerLease),
          'ReplicaSet pods made': s(t.podsMade),
          'pods bound': s(t.podsBound),
          "dead master's node Unknown": s(t.nodeUnknown),
        },
      ],
    );
  } finally {
    for (const srv of servers) await stop(srv.child);
    await etcd.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Runs `visit` on each backend in turn: memory, sqlite with synchronous FULL and NORMAL, and
 * (with an etcd binary) etcd, on one etcd started for it; `withEtcd` then measures on that
 * same etcd (raw requests beside the store's).
 */
async function eachBackend(
  q: Quiescence,
  visit: (name: string, store: Store) => Promise<void>,
  withEtcd: (endpoint: string) => Promise<void>,
): Promise<void> {
  await visit('memory', new MemoryStore(q));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-bench-store-'));
  try {
    for (const sync of ['full', 'normal'] as const) {
      const s = new SqliteStore(path.join(dir, `bench-${sync}.db`), q, { sync });
      await visit(`sqlite (synchronous=${sync.toUpperCase()})`, s);
      await s.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!etcdBinary()) return;
  const etcd = new EtcdServer();
  await etcd.start();
  try {
    const s = await EtcdStore.open({ endpoints: [etcd.endpoint] }, q);
    await visit('etcd', s);
    await s.close();
    await withEtcd(etcd.endpoint);
  } finally {
    await etcd.stop();
  }
}

/** The API server over memory, sqlite and etcd, and raw etcd beside it (API / raw as a ratio). */
async function runApiRows(): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  const q = new Quiescence();
  const list = `LIST ${OPS} pods (ms)`;
  await eachBackend(
    q,
    async (name, store) => {
      rows.push(await measureApi(`API server over ${name}`, store, q));
    },
    async (endpoint) => {
      const viaApi = rows[rows.length - 1];
      const raw = await measureRawEtcd(endpoint);
      rows.push(raw, {
        through: 'API over etcd / raw etcd',
        'creates/s': ratio(viaApi['creates/s'] as number, raw['creates/s'] as number),
        'GETs/s': ratio(viaApi['GETs/s'] as number, raw['GETs/s'] as number),
        [list]: ratio(viaApi[list] as number, raw[list] as number),
      });
    },
  );
  printTable(
    `The API server over each store (in process, no HTTP), ${OPS} pods by ${CONCURRENCY} callers; raw etcd through the same client`,
    rows,
  );
}

async function runStoreRows(): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  const q = new Quiescence();
  await eachBackend(
    q,
    async (name, store) => {
      rows.push(await measure(name, store));
    },
    async (endpoint) => {
      const row = rows[rows.length - 1];
      const client = new Etcd3({ hosts: [endpoint], grpcOptions: ETCD_GRPC_OPTIONS });
      const raw = await parallel(OPS, (i) =>
        client.kv.put({ key: Buffer.from(`/raw/pods/bench/pod-${i}`), value: Buffer.from(JSON.stringify(pod(i))) }),
      );
      client.close();
      rows.push({
        store: 'etcd raw puts (same client)',
        'creates/s': Math.round(raw),
        'updates/s (get+guarded put)': '',
        [Object.keys(row)[3]]: '',
        'watch events/s': '',
      });
      rows.push({
        store: 'etcd: EtcdStore / raw',
        'creates/s': `${((row['creates/s'] as number) / raw).toFixed(2)}×`,
        'updates/s (get+guarded put)': '',
        [Object.keys(row)[3]]: '',
        'watch events/s': '',
      });
    },
  );
  printTable(`Store backends: ${OPS} creates and updates by ${CONCURRENCY} writers, LIST, one watcher`, rows);
}

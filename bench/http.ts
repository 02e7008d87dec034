import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Cluster } from '../src/cluster/cluster';
import { clusterConfig } from '../src/profile/config';
import { loadProfile } from '../src/profile/profile';
import { ClusterServer } from '../src/cluster/serving';
import { KubeconfigClient } from '../src/client/kubeconfig';
import { coreRegistry } from '../src/api/resources';
import { Node } from '../src/api/core';
import { percentile, printTable } from './table';
import { recordGoal } from './report';

/**
 * The API server over loopback HTTPS (127.0.0.1 only): GETs per second, LIST of 5000
 * nodes, creates per second, and watch fan-out (1000 watchers, events delivered per
 * second). Latencies are per request, median and p99, in milliseconds.
 */
const NODES = Number(process.env.BENCH_NODES ?? 5000);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 1000);
const WATCH_EVENTS = 50;
const CONCURRENCY = 32;

const node = (name: string): Node =>
  ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: { capacity: { cpu: '4', memory: '8Gi', pods: '110' } },
  }) as Node;

async function timed(
  total: number,
  run: (i: number) => Promise<unknown>,
  concurrency = CONCURRENCY,
): Promise<{ perSecond: number; latencies: number[] }> {
  const latencies: number[] = [];
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < total; i = next++) {
        const t = process.hrtime.bigint();
        await run(i);
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { perSecond: total / seconds, latencies: latencies.sort((a, b) => a - b) };
}

const row = (name: string, count: number, r: { perSecond: number; latencies: number[] }) => ({
  operation: name,
  requests: count,
  'per second': Math.round(r.perSecond),
  'median ms': r.latencies.length ? percentile(r.latencies, 50) : NaN,
  'p99 ms': r.latencies.length ? percentile(r.latencies, 99) : NaN,
});

/**
 * The measurements on one API server, through a client (admin): creates NODES nodes, so
 * the server should start empty. Rows: create, get, list, watch fan-out.
 */
export async function measureHttp(
  client: KubeconfigClient,
  nodes = NODES,
  watchers = WATCHERS,
): Promise<Record<string, string | number>[]> {
  const ref = { resource: 'nodes' };
  const rows: Record<string, string | number>[] = [];
  progress(`creating ${nodes} nodes`);
  rows.push(row('create node', nodes, await timed(nodes, (i) => client.create(ref, node(`n${i}`)))));
  progress('10000 GETs');
  rows.push(row('get node', 10_000, await timed(10_000, (i) => client.get(ref, `n${i % nodes}`))));
  progress(`20 LISTs of ${nodes} nodes`);
  rows.push(row(`list ${nodes} nodes`, 20, await timed(20, () => client.list(ref))));
  // The same one at a time: a LIST's own latency, without 19 others (and their JSON.parse in
  // this same process, the client's share) queued beside it on one thread.
  progress(`10 LISTs of ${nodes} nodes, one at a time`);
  rows.push(row(`list ${nodes} nodes, one client`, 10, await timed(10, () => client.list(ref), 1)));
  progress(`10 LISTs of ${nodes} nodes in chunks of 500`);
  rows.push(
    row(
      `list ${nodes} nodes in chunks of 500, one client`,
      10,
      await timed(
        10,
        async () => {
          let token: string | undefined;
          do token = (await client.list(ref, { limit: 500, continue: token })).metadata.continue;
          while (token);
        },
        1,
      ),
    ),
  );
  progress(`watch fan-out: ${watchers} watchers`);
  // Fan-out: watchers watch from now; WATCH_EVENTS label changes; every watcher must see every event.
  const rv = (await client.list(ref, { fieldSelector: 'metadata.name=n0' })).metadata.resourceVersion;
  let delivered = 0;
  const watches = await Promise.all(
    Array.from({ length: watchers }, () =>
      client.watch(
        ref,
        { resourceVersion: rv, fieldSelector: 'metadata.name=n0' },
        {
          onEvent: () => {
            delivered++;
          },
        },
      ),
    ),
  );
  const start = process.hrtime.bigint();
  for (let i = 0; i < WATCH_EVENTS; i++)
    await client.patch(ref, 'n0', 'merge', { metadata: { labels: { step: String(i) } } });
  const want = watchers * WATCH_EVENTS;
  // A dropped event must show as a figure, not hang the benchmark: give up after a minute of
  // no progress and report what arrived.
  let seen = -1;
  let lastProgress = Date.now();
  while (delivered < want && Date.now() - lastProgress < 60_000) {
    if (delivered !== seen) {
      seen = delivered;
      lastProgress = Date.now();
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  for (const w of watches) w.stop();
  const dropped = want - delivered;
  rows.push({
    operation: `watch fan-out (${watchers} watchers × ${WATCH_EVENTS} changes)${dropped > 0 ? `, ${dropped} events never arrived` : ''}`,
    requests: want,
    'per second': Math.round(delivered / seconds),
    'median ms': NaN,
    'p99 ms': NaN,
  });
  return rows;
}

/** One line on stderr per phase, so a long run shows where it is. */
export function progress(what: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${what}\n`);
}

/** kubespec's API server (in this process, HTTPS on loopback) for a measurement. */
export async function withKubespecServer<T>(use: (client: KubeconfigClient) => Promise<T>): Promise<T> {
  const cluster = new Cluster({ config: clusterConfig(loadProfile('kubernetes-1.32')) });
  await cluster.start();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-bench-http-'));
  const server = new ClusterServer(cluster, { dir, fastKeys: true, anyFreePort: true });
  const e = await server.start();
  try {
    return await use(KubeconfigClient.fromFile(e.kubeconfig, coreRegistry()));
  } finally {
    await server.stop();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function runHttpBenchmark(): Promise<void> {
  const rows = await withKubespecServer((client) => measureHttp(client));
  const [create, get, list, , , watch] = rows;
  recordGoal('HTTPS: creates per second (32 clients)', create['per second'] as number, '≥', 2000, '/s', 1);
  recordGoal('HTTPS: GETs per second (32 clients)', get['per second'] as number, '≥', 5000, '/s', 1);
  recordGoal(`HTTPS: ${String(list.operation)} median`, list['median ms'] as number, '<', 100, 'ms', 1);
  recordGoal(
    `HTTPS: ${String(watch.operation).replace(/,.*/, '')}: events that never arrived`,
    Number(/(\d+) events never arrived/.exec(String(watch.operation))?.[1] ?? 0),
    '≤',
    0,
    'events',
    1,
  );
  printTable('API server over loopback HTTPS (events delivered per second for the fan-out)', rows);
}

import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
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
 *
 * The load (32 clients) comes from a process of its own by default, as upstream's
 * benchmarks drive kube-apiserver: in one process the clients' own work (TLS, JSON.parse of
 * every answer) would run on the server's thread and be counted as the server's. Each row
 * also gives the server process's CPU time for the phase and the requests per CPU-second,
 * the figure that holds on a shared machine. Knobs: BENCH_NODES (5000), BENCH_WATCHERS
 * (1000), BENCH_HTTP_LOAD=process|inline|both (where the clients run), BENCH_HTTP_CLUSTER=
 * serve|apiserver (serve: every controller, the scheduler and the informers run beside the
 * API server, as `kubespec serve` does; apiserver: they are stopped, as upstream's
 * benchmark runs kube-apiserver alone), BENCH_HTTP_PROFILE=<dir> (a CPU profile of the server
 * process per phase, <dir>/<n>-<phase>.cpuprofile).
 */
const NODES = Number(process.env.BENCH_NODES ?? 5000);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 1000);
const WATCH_EVENTS = 50;
const CONCURRENCY = 32;
const LOAD = (process.env.BENCH_HTTP_LOAD ?? 'process') as 'process' | 'inline' | 'both';
const CLUSTER = (process.env.BENCH_HTTP_CLUSTER ?? 'serve') as 'serve' | 'apiserver';

/** Marks the start and end of each measured phase (the server's CPU is read at each). */
export type PhaseHook = (phase: string, at: 'start' | 'end') => void | Promise<void>;

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

/** 10 LISTs one after another while the other CONCURRENCY - 1 clients GET until the last LIST is answered. */
async function listWhileGetting(
  client: KubeconfigClient,
  nodes: number,
): Promise<{ perSecond: number; latencies: number[] }> {
  const ref = { resource: 'nodes' };
  let listing = true;
  const getters = Promise.all(
    Array.from({ length: CONCURRENCY - 1 }, async (_, c) => {
      for (let i = c; listing; i += CONCURRENCY) await client.get(ref, `n${i % nodes}`);
    }),
  );
  try {
    return await timed(10, () => client.list(ref), 1);
  } finally {
    listing = false;
    await getters;
  }
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
  phase: PhaseHook = () => {},
): Promise<Record<string, string | number>[]> {
  const ref = { resource: 'nodes' };
  const rows: Record<string, string | number>[] = [];
  const measured = async (
    name: string,
    count: number,
    run: () => Promise<{ perSecond: number; latencies: number[] }>,
  ) => {
    progress(name);
    await phase(name, 'start');
    const r = await run();
    await phase(name, 'end');
    rows.push(row(name, count, r));
  };
  await measured('create node', nodes, () => timed(nodes, (i) => client.create(ref, node(`n${i}`))));
  await measured('get node', 10_000, () => timed(10_000, (i) => client.get(ref, `n${i % nodes}`)));
  await measured(`list ${nodes} nodes, 20 at once`, 20, () => timed(20, () => client.list(ref)));
  // The issue's LIST figure: one client LISTs while the other 31 GET (and their answers are
  // parsed in the load process), so the LIST waits behind ordinary traffic, not behind 19
  // other LISTs.
  await measured(`list ${nodes} nodes while 31 clients GET`, 10, () => listWhileGetting(client, nodes));
  // The same one at a time: a LIST's own latency, with nothing beside it.
  await measured(`list ${nodes} nodes, one client`, 10, () => timed(10, () => client.list(ref), 1));
  await measured(`list ${nodes} nodes in chunks of 500, one client`, 10, () =>
    timed(
      10,
      async () => {
        let token: string | undefined;
        do token = (await client.list(ref, { limit: 500, continue: token })).metadata.continue;
        while (token);
      },
      1,
    ),
  );
  const fanOut = `watch fan-out (${watchers} watchers × ${WATCH_EVENTS} changes)`;
  progress(fanOut);
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
  await phase(fanOut, 'start');
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
  await phase(fanOut, 'end');
  for (const w of watches) w.stop();
  const dropped = want - delivered;
  rows.push({
    operation: `${fanOut}${dropped > 0 ? `, ${dropped} events never arrived` : ''}`,
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

/**
 * kubespec's API server (in this process, HTTPS on loopback) for a measurement: `use` gets a
 * client and the kubeconfig file it was made from. With apiServerOnly the controllers, the
 * scheduler and the informers are stopped once the cluster has started (upstream's
 * benchmark runs kube-apiserver alone).
 */
export async function withKubespecServer<T>(
  use: (client: KubeconfigClient, kubeconfig: string) => Promise<T>,
  options: { apiServerOnly?: boolean } = {},
): Promise<T> {
  const cluster = new Cluster({ config: clusterConfig(loadProfile('kubernetes-1.32')) });
  await cluster.start();
  if (options.apiServerOnly) {
    cluster.nodeLifecycle.stop();
    cluster.nodeControllers.stop();
    cluster.scheduler.stop();
    cluster.controllers.stopControllers();
    cluster.informers.stop();
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-bench-http-'));
  const server = new ClusterServer(cluster, { dir, fastKeys: true, anyFreePort: true });
  const e = await server.start();
  try {
    return await use(KubeconfigClient.fromFile(e.kubeconfig, coreRegistry()), e.kubeconfig);
  } finally {
    await server.stop();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Rows = Record<string, string | number>[];

/**
 * With BENCH_HTTP_PROFILE, this process's CPU profile of each phase (the inspector's
 * Profiler, started at the phase's start and written at its end), for node-style analysis.
 */
class PhaseProfiler {
  private session?: inspector.Session;
  private count = 0;

  constructor(private readonly dir = process.env.BENCH_HTTP_PROFILE) {
    if (!dir) return;
    fs.mkdirSync(dir, { recursive: true });
    this.session = new inspector.Session();
    this.session.connect();
    this.post('Profiler.enable').catch((e) => progress(`no server profile: ${e instanceof Error ? e.message : e}`));
  }

  private post(method: string): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.session!.post(method, (err, result) => (err ? reject(err) : resolve(result))),
    );
  }

  async mark(phase: string, at: 'start' | 'end'): Promise<void> {
    if (!this.session) return;
    if (at === 'start') return void (await this.post('Profiler.start'));
    const { profile } = (await this.post('Profiler.stop')) as { profile: unknown };
    const file = path.join(this.dir!, `${++this.count}-${phase.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
  }
}

/** Messages from the load process: a phase mark (answered with "go"), or its rows at the end. */
type LoadMessage = { phase: string; at: 'start' | 'end'; cpu: number } | { rows: Rows } | { error: string };

/** The CPU seconds this process has used (user + system). */
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/**
 * Each row with the CPU this process (the server, and in inline mode the clients too) used
 * during its phase, and requests per CPU-second.
 */
function withCpu(rows: Rows, cpu: number[], whose: string): Rows {
  return rows.map((r, i) => ({
    ...r,
    [`${whose} CPU s`]: cpu[i],
    // The LISTs beside 31 GETting clients: the CPU is mostly the GETs', so no per-LIST figure.
    [`per ${whose} CPU-s`]: String(r.operation).includes(' while ') ? NaN : Math.round(Number(r.requests) / cpu[i]),
  }));
}

/** The measurements with the clients in this process (they share the server's thread). */
async function measureInline(client: KubeconfigClient): Promise<Rows> {
  const cpu: number[] = [];
  let started = 0;
  const profiler = new PhaseProfiler();
  const rows = await measureHttp(client, NODES, WATCHERS, async (phase, at) => {
    if (at === 'end') cpu.push(cpuSeconds() - started);
    await profiler.mark(phase, at);
    if (at === 'start') started = cpuSeconds();
  });
  return withCpu(rows, cpu, 'process');
}

/** The measurements with the clients in a process of their own (this file run as a script). */
function measureFromProcess(kubeconfig: string): Promise<Rows> {
  const cpu: number[] = [];
  const loadCpu: number[] = [];
  let started = 0;
  const profiler = new PhaseProfiler();
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [], {
      // The load process is not profiled with the server: --cpu-prof* stays here.
      execArgv: process.execArgv.filter((a) => !a.startsWith('--cpu-prof')),
      env: { ...process.env, BENCH_HTTP_KUBECONFIG: kubeconfig },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let rows: Rows | undefined;
    child.on('message', (m: LoadMessage) => {
      if ('phase' in m) {
        if (m.at === 'end') {
          cpu.push(cpuSeconds() - started);
          loadCpu.push(m.cpu);
        }
        void profiler.mark(m.phase, m.at).then(
          () => {
            if (m.at === 'start') started = cpuSeconds();
            child.send('go');
          },
          (e) => reject(e),
        );
      } else if ('rows' in m)
        // NaN (no latency for the fan-out) crossed as JSON's null.
        rows = m.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v ?? NaN])));
      else reject(new Error(`bench http load process: ${m.error}`));
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      rows
        ? resolve(withCpu(rows, cpu, 'server').map((r, i) => ({ ...r, 'load process CPU s': loadCpu[i] })))
        : reject(new Error(`bench http load process exited with ${code ?? signal}`)),
    );
  });
}

/** The load process: measures through the kubeconfig it is given, marking each phase to its parent. */
async function loadProcess(kubeconfig: string): Promise<void> {
  const acks: (() => void)[] = [];
  process.on('message', () => acks.shift()?.());
  let last: LoadMessage;
  let started = 0;
  try {
    const client = KubeconfigClient.fromFile(kubeconfig, coreRegistry());
    const rows = await measureHttp(client, NODES, WATCHERS, (phase, at) => {
      const go = new Promise<void>((r) => acks.push(r));
      if (at === 'start') started = cpuSeconds();
      process.send?.({ phase, at, cpu: cpuSeconds() - started });
      return go;
    });
    last = { rows };
  } catch (e) {
    last = { error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  // Kept-alive connections would hold this process open: it ends once the parent has its answer.
  process.send?.(last, () => process.exit(0));
}

export async function runHttpBenchmark(): Promise<void> {
  const apiServerOnly = CLUSTER === 'apiserver';
  const server = apiServerOnly
    ? 'kube-apiserver alone: controllers, scheduler, informers stopped'
    : 'as kubespec serve runs';
  for (const load of LOAD === 'both' ? (['process', 'inline'] as const) : [LOAD]) {
    const rows = await withKubespecServer(
      (client, kubeconfig) => (load === 'process' ? measureFromProcess(kubeconfig) : measureInline(client)),
      { apiServerOnly },
    );
    const at = (prefix: string) => rows.find((r) => String(r.operation).startsWith(prefix))!;
    const where = load === 'process' ? 'clients in their own process' : 'clients in the server process';
    const create = at('create');
    const get = at('get');
    const list = at(`list ${NODES} nodes while`);
    const watch = at('watch');
    recordGoal(`HTTPS (${where}): creates per second (32 clients)`, create['per second'] as number, '≥', 2000, '/s', 1);
    recordGoal(`HTTPS (${where}): GETs per second (32 clients)`, get['per second'] as number, '≥', 5000, '/s', 1);
    recordGoal(`HTTPS (${where}): ${String(list.operation)} median`, list['median ms'] as number, '<', 100, 'ms', 1);
    recordGoal(
      `HTTPS (${where}): ${String(watch.operation).replace(/,.*/, '')}: events that never arrived`,
      Number(/(\d+) events never arrived/.exec(String(watch.operation))?.[1] ?? 0),
      '≤',
      0,
      'events',
      1,
    );
    printTable(
      `API server over loopback HTTPS (${server}; ${where}; load average ${os.loadavg()[0].toFixed(1)}; events delivered per second for the fan-out)`,
      rows,
    );
  }
}

if (require.main === module && process.env.BENCH_HTTP_KUBECONFIG) void loadProcess(process.env.BENCH_HTTP_KUBECONFIG);

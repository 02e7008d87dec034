import { Cluster } from '../src/cluster/cluster';
import { clusterConfig } from '../src/profile/config';
import { loadProfile } from '../src/profile/profile';
import { InformerFactory } from '../src/client/informer';
import { Node, Pod } from '../src/api/core';
import { Scheduler } from '../src/scheduler/scheduler';
import { frameworkPlugins, legacyProvider } from '../src/scheduler/providers';
import { percentile, printTable } from './table';
import { recordGoal } from './report';
import { profilePhase } from './profile';

export const BENCH_SCHEDULER = 'bench-scheduler';

export function node(i: number): Node {
  const zone = `zone-${i % 3}`;
  const allocatable = { cpu: '32', memory: '128Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: `node-${i}`,
      labels: { 'kubernetes.io/hostname': `node-${i}`, 'failure-domain.beta.kubernetes.io/zone': zone },
    },
    spec: {},
    status: { capacity: allocatable, allocatable, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

export function pod(i: number): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: 'default', labels: { app: `app-${i % 100}` } },
    spec: {
      schedulerName: BENCH_SCHEDULER,
      containers: [
        { name: 'app', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '100m', memory: '500Mi' } } },
      ],
    },
  };
}

/**
 * Scheduler throughput in-process, as upstream's scheduler_perf measures it: N nodes and
 * P pending pods in the API server, then a scheduler starts and binds them all through
 * pods/binding. Reports pods/s (start → last binding confirmed), per-pod decision latency
 * (median, p99) and the heap the run added. Nodes are plain Node objects (no kubelets), so
 * only the scheduler and the API server are measured.
 */
export async function run(
  profileName: string,
  era: 'legacy' | 'framework',
  nodes: number,
  pods: number,
): Promise<Record<string, string | number>> {
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const cluster = new Cluster({ config: clusterConfig(loadProfile(profileName)), clock: 'virtual' });
  await cluster.start();
  const client = cluster.clientFor('bench');
  for (let i = 0; i < nodes; i++) await client.create({ resource: 'nodes' }, node(i));
  for (let i = 0; i < pods; i++) await client.create({ resource: 'pods', namespace: 'default' }, pod(i));
  await cluster.settle();
  const schedulerClient = cluster.clientFor('system:kube-scheduler');
  const scheduler = new Scheduler(
    new InformerFactory(schedulerClient),
    schedulerClient,
    cluster.clock,
    cluster.quiescence,
    {
      schedulerName: BENCH_SCHEDULER,
      algorithm: era === 'legacy' ? legacyProvider('DefaultProvider') : frameworkPlugins(),
      percentageOfNodesToScore: era === 'legacy' ? 50 : 0,
      alwaysCheckAllPredicates: false,
      recordDecisions: false,
    },
  );
  const latencies: number[] = [];
  const schedule = scheduler.scheduleOne.bind(scheduler);
  scheduler.scheduleOne = (key: string) => {
    const t = process.hrtime.bigint();
    schedule(key);
    latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
  };
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  // CPU_PROFILE=scheduler-<profile> profiles the scheduling phase only (bench/profile.ts).
  await profilePhase(`scheduler-${profileName}`, async () => {
    await scheduler.start();
    await cluster.settle();
  });
  const cpu = process.cpuUsage(cpuBefore);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  const bound = scheduler.bound;
  scheduler.stop();
  await cluster.stop();
  latencies.sort((a, b) => a - b);
  if (bound !== pods) throw new Error(`only ${bound} of ${pods} pods were bound`);
  return {
    profile: profileName,
    nodes,
    pods,
    'wall s': wallS,
    'pods/s': pods / wallS,
    'CPU s': cpuS,
    'pods per CPU-s': pods / cpuS,
    'decision median ms': percentile(latencies, 50),
    'decision p99 ms': percentile(latencies, 99),
    'decisions/s (algorithm only)': pods / (latencies.reduce((a, b) => a + b, 0) / 1000),
    'heap MiB': heapMiB,
  };
}

/**
 * Knobs: SCHED_BENCH_SIZES=NODESxPODS,… (default 5000x10000,5000x150000: the goal row is the
 * 5000-node one with the most pods), SCHED_BENCH_PROFILES=seed,kubernetes-1.32, and
 * CPU_PROFILE=scheduler-seed (or scheduler-kubernetes-1.32) with CPU_PROFILE_DIR for a
 * .cpuprofile of the scheduling phase. 'pods per CPU-s' divides by the process's CPU time
 * over that phase (process.cpuUsage), the figure to trust on a shared machine.
 */
export async function runSchedulerBenchmark(): Promise<void> {
  const sizes = (process.env.SCHED_BENCH_SIZES ?? '5000x10000,5000x150000')
    .split(',')
    .map((s) => s.split('x').map(Number));
  const profiles = (process.env.SCHED_BENCH_PROFILES ?? 'seed,kubernetes-1.32').split(',');
  const rows: Record<string, string | number>[] = [];
  for (const [nodes, pods] of sizes) {
    for (const profile of profiles) {
      const row = await run(profile, profile === 'seed' ? 'legacy' : 'framework', nodes, pods);
      rows.push(row);
      if (profile === 'seed' && nodes >= 5000)
        recordGoal(
          `scheduler, seed profile, ${nodes} nodes / ${pods} pods`,
          row['pods/s'] as number,
          '≥',
          1000,
          'pods/s',
          1,
        );
    }
  }
  printTable(
    'Scheduler throughput, in-process (anchor: upstream scheduler_perf 270 pods/s at 5000 nodes; goal ≥ 1000)',
    rows,
  );
}

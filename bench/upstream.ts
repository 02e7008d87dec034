import { KubeconfigClient } from '../src/client/kubeconfig';
import { coreRegistry } from '../src/api/resources';
import { Pod } from '../src/api/core';
import { loadProfile } from '../src/profile/profile';
import { loadTargetDeclaration } from '../src/drivers/targets';
import { missingBinaries, UpstreamDriver, upstreamBinDir } from '../src/drivers/upstream';
import { measureHttp, progress, withKubespecServer } from './http';
import { BENCH_SCHEDULER, node, pod, run as runKubespecScheduler } from './scheduler';
import { printTable } from './table';

/**
 * kubespec beside upstream v1.32 (npm run upstream:build): the HTTP benchmark against
 * `kubespec serve`'s API server and against kube-apiserver on etcd, and the scheduler's
 * pods/s for the same nodes and pending pods with both schedulers. Ratios are kubespec /
 * upstream (above 1: kubespec is faster). Sizes: UPSTREAM_BENCH_NODES (5000),
 * UPSTREAM_BENCH_WATCHERS (1000), UPSTREAM_BENCH_SCHED (5000x5000: nodes x pods); UPSTREAM_BENCH_ONLY=http|scheduler runs one half.
 */
const NODES = Number(process.env.UPSTREAM_BENCH_NODES ?? 5000);
const WATCHERS = Number(process.env.UPSTREAM_BENCH_WATCHERS ?? 1000);
const [SCHED_NODES, SCHED_PODS] = (process.env.UPSTREAM_BENCH_SCHED ?? '5000x5000').split('x').map(Number);
const CONCURRENCY = 32;

async function withUpstream<T>(use: (driver: UpstreamDriver, client: KubeconfigClient) => Promise<T>): Promise<T> {
  const driver = new UpstreamDriver(loadProfile('kubernetes-1.32'), loadTargetDeclaration('upstream'), {
    apiServerOnly: true,
  });
  driver.configure({});
  let result: T;
  try {
    await driver.start();
    const client = KubeconfigClient.fromFile(await driver.http.kubeconfig({ admin: true }), coreRegistry());
    result = await use(driver, client);
  } catch (err) {
    // The measurement's own failure comes first; a component that died is said beside it.
    await driver
      .stop()
      .catch((stopErr) =>
        progress(`and stopping upstream failed too: ${stopErr instanceof Error ? stopErr.message : stopErr}`),
      );
    throw err;
  }
  await driver.stop();
  return result;
}

async function inParallel(total: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < total; i = next++) await work(i);
    }),
  );
}

/** Upstream's scheduler: nodes and pending pods first, then kube-scheduler starts; pods/s until the last is bound. */
async function upstreamScheduler(nodes: number, pods: number): Promise<Record<string, string | number>> {
  return withUpstream(async (driver, client) => {
    // No controller manager runs here, so nothing makes the default ServiceAccount that
    // upstream's ServiceAccount admission requires of every pod: make it as the controller would.
    await client.create(
      { resource: 'serviceaccounts', namespace: 'default' },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } },
    );
    progress(`upstream: ${nodes} nodes, ${pods} pending pods`);
    await inParallel(nodes, (i) => client.create({ resource: 'nodes' }, node(i)));
    // kube-apiserver's TaintNodesByCondition admission taints every new node not-ready
    // (NoSchedule) until the node lifecycle controller, absent here, sees it Ready: lift it as
    // that controller would, so both schedulers face the same untainted nodes.
    await inParallel(nodes, (i) =>
      client.patch({ resource: 'nodes' }, `node-${i}`, 'merge', { spec: { taints: null } }),
    );
    await inParallel(pods, (i) => client.create({ resource: 'pods', namespace: 'default' }, pod(i)));
    const started = process.hrtime.bigint();
    progress('upstream: kube-scheduler starts');
    await driver.startScheduler(BENCH_SCHEDULER, 5000);
    const ready = Number(process.hrtime.bigint() - started) / 1e9;
    for (;;) {
      const unbound = await client.list<Pod>(
        { resource: 'pods', namespace: 'default' },
        { fieldSelector: 'spec.nodeName=' },
      );
      if (unbound.items.length === 0) break;
      progress(`upstream: ${unbound.items.length} pods still pending`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const wallS = Number(process.hrtime.bigint() - started) / 1e9;
    return {
      scheduler: 'upstream v1.32.13',
      nodes,
      pods,
      'wall s': wallS,
      'of which start s': ready,
      'pods/s': pods / wallS,
    };
  });
}

function ratios(
  ours: Record<string, string | number>[],
  theirs: Record<string, string | number>[],
): Record<string, string | number>[] {
  return ours.map((o, i) => ({
    operation: String(o.operation),
    'kubespec /s': o['per second'],
    'upstream /s': theirs[i]['per second'],
    'ratio kubespec/upstream': Number(o['per second']) / Number(theirs[i]['per second']),
    'kubespec median ms': o['median ms'],
    'upstream median ms': theirs[i]['median ms'],
  }));
}

export async function runUpstreamBenchmark(): Promise<void> {
  if (missingBinaries().length)
    throw new Error(
      `bench upstream: no ${missingBinaries().join(', ')} in ${upstreamBinDir()}; run \`npm run upstream:build\` first`,
    );
  const only = process.env.UPSTREAM_BENCH_ONLY; // http | scheduler: one half
  if (only !== 'scheduler') await httpSideBySide();
  if (only !== 'http') await schedulersSideBySide();
}

async function httpSideBySide(): Promise<void> {
  progress('kubespec serve: HTTP');
  const ours = await withKubespecServer((client) => measureHttp(client, NODES, WATCHERS));
  printTable('kubespec serve (kubernetes-1.32) over loopback HTTPS', ours);
  progress('kube-apiserver v1.32.13 on etcd: HTTP');
  const theirs = await withUpstream((_, client) => measureHttp(client, NODES, WATCHERS));
  printTable(
    `API server over loopback HTTPS: kubespec serve vs kube-apiserver v1.32.13 on etcd 3.5.16 (${NODES} nodes, ${WATCHERS} watchers)`,
    ratios(ours, theirs),
  );
}

async function schedulersSideBySide(): Promise<void> {
  progress(`schedulers: ${SCHED_NODES} nodes, ${SCHED_PODS} pods`);
  progress('kubespec: in-process scheduler');
  const k = await runKubespecScheduler('kubernetes-1.32', 'framework', SCHED_NODES, SCHED_PODS);
  const u = await upstreamScheduler(SCHED_NODES, SCHED_PODS);
  printTable(
    'Scheduler: pending pods bound per second (kubespec in process; upstream kube-scheduler against kube-apiserver)',
    [
      { scheduler: 'kubespec', nodes: SCHED_NODES, pods: SCHED_PODS, 'wall s': k['wall s'], 'pods/s': k['pods/s'] },
      {
        scheduler: String(u.scheduler),
        nodes: SCHED_NODES,
        pods: SCHED_PODS,
        'wall s': u['wall s'],
        'pods/s': u['pods/s'],
      },
      {
        scheduler: 'ratio kubespec/upstream',
        nodes: SCHED_NODES,
        pods: SCHED_PODS,
        'wall s': NaN,
        'pods/s': Number(k['pods/s']) / Number(u['pods/s']),
      },
    ],
  );
}

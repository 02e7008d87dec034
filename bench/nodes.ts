import { Cluster } from '../src/cluster/cluster';
import { clusterConfig } from '../src/profile/config';
import { loadProfile } from '../src/profile/profile';
import { Node, Pod } from '../src/api/core';
import { percentile, printTable } from './table';
import { profilePhase } from './profile';

/**
 * The node controller at upstream's scalability limits: NODES nodes in ZONES zones with
 * PODS pods bound directly, an hour of heartbeats, then one zone fails. Sizes come from
 * the environment (defaults 5000 / 5 / 150000) so smaller runs are easy;
 * CPU_PROFILE=hour (or rest) writes a CPU profile of the simulated hour (or the passes at rest) alone (see bench/profile.ts).
 */
export async function runNodesBenchmark(): Promise<void> {
  const nodes = Number(process.env.NODES ?? 5000);
  const zones = Number(process.env.ZONES ?? 5);
  const pods = Number(process.env.PODS ?? 150_000);
  const hourMs = Number(process.env.SIM_MS ?? 3_600_000);
  const rows: Record<string, string | number>[] = [];
  for (const profile of (process.env.PROFILES ?? 'kubernetes-1.32').split(',')) {
    const cluster = new Cluster({ config: clusterConfig(loadProfile(profile)), clock: 'virtual' });
    const passes: number[] = [];
    const nlc = cluster.nodeLifecycle;
    const monitor = nlc.monitorNodeHealth.bind(nlc);
    nlc.monitorNodeHealth = async () => {
      const t0 = process.hrtime.bigint();
      await monitor();
      passes.push(Number(process.hrtime.bigint() - t0) / 1e6);
    };
    let peak = 0;
    const sample = () => { peak = Math.max(peak, process.memoryUsage().heapUsed + process.memoryUsage().external); };
    const setupStart = Date.now();
    await cluster.start();
    for (let i = 0; i < nodes; i++) {
      await cluster.addKubelet({ name: `node-${i}`, labels: { 'topology.kubernetes.io/zone': `zone-${i % zones}` } });
    }
    for (let i = 0; i < pods; i++) {
      const node = `node-${i % nodes}`;
      const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `pod-${i}`, namespace: 'default' }, spec: { nodeName: node, containers: [{ name: 'c', image: 'pause' }] } };
      await cluster.client.create({ resource: 'pods', namespace: 'default' }, pod);
      if (i % 10_000 === 0) { await cluster.settle(); sample(); }
    }
    await cluster.settle();
    sample();
    const setupMs = Date.now() - setupStart;
    passes.length = 0;

    const hourStart = Date.now();
    await profilePhase('hour', async () => {
      for (let t = 0; t < hourMs; t += 60_000) { await cluster.advance(60_000); sample(); }
    });
    const hourWall = Date.now() - hourStart;
    const hourPasses = [...passes].sort((a, b) => a - b);
    // The pass alone, on a cluster at rest (in the hour, passes share their instant with
    // the kubelets' heartbeats and the timing above includes that work).
    passes.length = 0;
    await profilePhase('rest', async () => {
      for (let i = 0; i < 50; i++) { await nlc.monitorNodeHealth(); await cluster.settle(); }
    });
    const restPasses = [...passes].sort((a, b) => a - b);

    passes.length = 0;
    const failStart = Date.now();
    for (let i = 0; i < nodes; i += zones) cluster.kubelet(`node-${i}`).stop();
    const failSim = 15 * 60_000;
    for (let t = 0; t < failSim; t += 60_000) { await cluster.advance(60_000); sample(); }
    const failWall = Date.now() - failStart;
    const failPasses = [...passes].sort((a, b) => a - b);
    const list = await cluster.client.list<Node>({ resource: 'nodes' });
    const tainted = list.items.filter((n) => n.spec?.taints?.some((t) => t.effect === 'NoExecute')).length;
    const podList = await cluster.client.list<Pod>({ resource: 'pods' });
    const terminating = podList.items.filter((p) => p.metadata.deletionTimestamp).length;
    rows.push({
      profile,
      nodes, zones, pods,
      'setup s': setupMs / 1000,
      'hour wall s': hourWall / 1000,
      'hour sim/wall': hourMs / hourWall,
      'pass at rest median ms': percentile(restPasses, 50),
      'pass at rest p99 ms': percentile(restPasses, 99),
      'pass in hour median ms': percentile(hourPasses, 50),
      'pass in hour p99 ms': percentile(hourPasses, 99),
      'zone-fail 15 min wall s': failWall / 1000,
      'fail pass p99 ms': percentile(failPasses, 99),
      'NoExecute-tainted nodes': tainted,
      'pods terminating': terminating,
      'peak heap MiB': peak / 2 ** 20,
    });
    await cluster.stop();
  }
  printTable('Node controller at scale (virtual time)', rows);
}

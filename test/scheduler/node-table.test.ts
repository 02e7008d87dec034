import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Node, Pod, Taint, Toleration } from '../../src/api/core';
import { SchedulerCache } from '../../src/scheduler/cache';
import { PodMeta } from '../../src/scheduler/meta';
import { NodeInfo } from '../../src/scheduler/nodeinfo';
import { frameworkPlugins, legacyProvider } from '../../src/scheduler/providers';
import { FRAMEWORK_ARITHMETIC, LEGACY_ARITHMETIC } from '../../src/scheduler/requests';
import { checkFor } from '../../src/scheduler/predicates/predicate';
import { seededRandom } from '../../src/util/random';

/*
 * The scheduler's two shortcuts must never change an answer (they are not upstream
 * behaviour, only a way to compute it): a predicate's per-pod `forPod` returning nothing
 * means the full predicate fits every node; a check's `passesRow` saying yes means the
 * check itself returns no reason; and a priority reading the table rows scores as it does
 * from the NodeInfos. Checked on random nodes (allocatable, pods, cordon, taints, labels)
 * and random pods (requests, extended resources, tolerations, selectors, ports, volumes)
 * for every predicate and priority of both releases' default sets.
 */

const EFFECTS = ['NoSchedule', 'NoExecute', 'PreferNoSchedule'] as const;

function randomNode(r: () => number, i: number): Node {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const taints: Taint[] = [];
  for (let t = Math.floor(r() * 3); t > 0; t--) taints.push({ key: pick(['a', 'b', 'c']), effect: pick(EFFECTS) });
  const allocatable: Record<string, string> = {
    cpu: pick(['0', '1', '2', '4']),
    memory: pick(['0', '1Gi', '4Gi']),
    pods: pick(['0', '1', '2', '110']),
  };
  if (r() < 0.3) allocatable['example.com/gpu'] = pick(['0', '1', '2']);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: `n${i}`, labels: { zone: pick(['z1', 'z2']), disk: pick(['ssd', 'hdd']) } },
    spec: { unschedulable: r() < 0.2, taints },
    status: { allocatable, capacity: allocatable },
  };
}

function randomPod(r: () => number, i: number, node?: string): Pod {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const requests: Record<string, string> = {};
  if (r() < 0.7) requests.cpu = pick(['100m', '500m', '1', '3']);
  if (r() < 0.7) requests.memory = pick(['100Mi', '1Gi', '3Gi']);
  if (r() < 0.2) requests['example.com/gpu'] = '1';
  const tolerations: Toleration[] = [];
  if (r() < 0.3) tolerations.push({ key: pick(['a', 'b']), operator: 'Exists' });
  if (r() < 0.2) tolerations.push({ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `p${i}`, namespace: 'default', uid: `u${i}`, labels: { app: pick(['x', 'y']) } },
    spec: {
      ...(node ? { nodeName: node } : {}),
      ...(r() < 0.2 ? { nodeSelector: { disk: pick(['ssd', 'hdd']) } } : {}),
      tolerations,
      containers: [
        {
          name: 'c',
          image: 'i',
          resources: { requests },
          ...(r() < 0.2 ? { ports: [{ containerPort: 80, hostPort: 8080 }] } : {}),
        },
      ],
      ...(r() < 0.2 ? { volumes: [{ name: 'v', awsElasticBlockStore: { volumeID: pick(['vol-1', 'vol-2']) } }] } : {}),
    },
  };
}

for (const era of ['legacy', 'framework'] as const) {
  test(`${era}: forPod and passesRow shortcuts give the answers of the full predicates; priorities score alike from rows and NodeInfos`, () => {
    const r = seededRandom(era === 'legacy' ? 7 : 8);
    const algorithm = era === 'legacy' ? legacyProvider('DefaultProvider') : frameworkPlugins();
    const arithmetic = era === 'legacy' ? LEGACY_ARITHMETIC : FRAMEWORK_ARITHMETIC;
    for (let round = 0; round < 20; round++) {
      const cache = new SchedulerCache(arithmetic);
      const nodes = Array.from({ length: 8 }, (_, i) => randomNode(r, i));
      for (const n of nodes) cache.setNode(n);
      for (let i = 0; i < 12; i++) cache.addPod(randomPod(r, 100 + i, `n${Math.floor(r() * nodes.length)}`));
      if (r() < 0.5) cache.removeNode(nodes[0]);
      const infos = nodes.map((n) => cache.nodeInfo(n.metadata.name!)).filter((i): i is NodeInfo => !!i);
      for (let k = 0; k < 10; k++) {
        const pod = randomPod(r, k);
        const meta = new PodMeta(pod, cache, arithmetic);
        for (const p of algorithm.predicates) {
          const check = checkFor(p.fn, pod, meta);
          for (const info of infos) {
            const full = p.fn(pod, meta, info);
            if (!check) {
              assert.deepEqual(full, [], `${p.name} skipped for ${pod.metadata.name} but refuses ${info.name}`);
              continue;
            }
            assert.deepEqual(check(pod, meta, info), full, `${p.name} specialised differs on ${info.name}`);
            if (check.passesRow?.(meta, cache.table.data, info.row))
              assert.deepEqual(full, [], `${p.name} row passes ${info.name}, the predicate refuses it`);
          }
        }
        const rows = { data: cache.table.data, rows: infos.map((i) => i.row) };
        for (const p of algorithm.priorities)
          assert.deepEqual(p.fn(pod, meta, infos, rows), p.fn(pod, meta, infos), `${p.name} from rows`);
      }
    }
  });
}

test('a released row is zeroed when reused, and the table grows without losing rows', () => {
  const cache = new SchedulerCache();
  const node = (name: string, cpu: string): Node => ({
    metadata: { name },
    spec: { unschedulable: true },
    status: { allocatable: { cpu, memory: '1Gi', pods: '10' } },
  });
  for (let i = 0; i < 2000; i++) cache.setNode(node(`n${i}`, '2'));
  const first = cache.nodeInfo('n0')!;
  assert.equal(cache.table.data[first.row + 0], 2000);
  cache.removeNode(node('n0', '2'));
  cache.setNode(node('fresh', '3'));
  const fresh = cache.nodeInfo('fresh')!;
  assert.equal(fresh.row, first.row, 'the freed row is taken again');
  assert.equal(cache.table.data[fresh.row + 0], 3000);
  assert.equal(cache.nodeInfo('n1999')!.unschedulable, true);
});

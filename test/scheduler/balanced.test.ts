import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Container, Node, Pod } from '../../src/api/core';
import { SchedulerCache } from '../../src/scheduler/cache';
import { PodMeta } from '../../src/scheduler/meta';
import { balancedAllocation } from '../../src/scheduler/priorities/balanced';
import { FRAMEWORK_ARITHMETIC } from '../../src/scheduler/requests';

/*
 * NodeResourcesBalancedAllocation at v1.32 (noderesources/balanced_allocation_test.go
 * TestNodeResourcesBalancedAllocation, the cpu/memory cases): actual requests, fractions
 * capped at 1, score (1 − |f_cpu − f_mem| / 2) × 100. A best-effort pod is scored too (100
 * on empty nodes): the Skip in PreScore came with v1.33 (kubernetes#130260).
 */

const c = (cpu: string, memory: string): Container => ({
  name: 'c',
  image: 'i',
  resources: { requests: { cpu, memory } },
});
const cpuOnly = [c('1000m', '0'), c('2000m', '0')];
const memoryOnly = [c('0', '2000'), c('0', '3000')];
const cpuAndMemory = [c('1000m', '2000'), c('2000m', '3000')];

let seq = 0;
const pod = (containers: Container[], node?: string): Pod => ({
  metadata: { name: `p${seq++}`, namespace: 'default' },
  spec: { containers, nodeName: node },
});

function scores(incoming: Container[], nodes: [number, number][], pods: [Container[], string][] = []): number[] {
  const cache = new SchedulerCache(FRAMEWORK_ARITHMETIC);
  nodes.forEach(([cpu, mem], i) => {
    const n: Node = {
      metadata: { name: `node${i + 1}` },
      status: { allocatable: { cpu: `${cpu}m`, memory: String(mem), pods: '10' } },
    };
    cache.setNode(n);
  });
  for (const [containers, node] of pods) cache.addPod(pod(containers, node));
  const p = pod(incoming);
  const infos = nodes.map((_, i) => cache.nodeInfo(`node${i + 1}`)!);
  return balancedAllocation(p, new PodMeta(p, cache, FRAMEWORK_ARITHMETIC), infos);
}

test('NodeResourcesBalancedAllocation, v1.32 (TestNodeResourcesBalancedAllocation)', () => {
  const cases: [string, number[], number[]][] = [
    [
      'nothing scheduled, nothing requested',
      scores(
        [],
        [
          [4000, 10000],
          [4000, 10000],
        ],
      ),
      [100, 100],
    ],
    [
      'nothing scheduled, resources requested, differently sized nodes',
      scores(cpuAndMemory, [
        [4000, 10000],
        [6000, 10000],
      ]),
      [87, 100],
    ],
    [
      'resources requested, pods scheduled with resources',
      scores(
        cpuAndMemory,
        [
          [10000, 20000],
          [10000, 20000],
        ],
        [
          [cpuOnly, 'node1'],
          [cpuAndMemory, 'node2'],
        ],
      ),
      [82, 95],
    ],
    [
      'resources requested, pods scheduled with resources, differently sized nodes',
      scores(
        cpuAndMemory,
        [
          [10000, 20000],
          [10000, 50000],
        ],
        [
          [cpuOnly, 'node1'],
          [cpuAndMemory, 'node2'],
        ],
      ),
      [82, 80],
    ],
    [
      'resources requested, pods scheduled with resources, nodes to reach min/max score',
      scores(
        memoryOnly,
        [
          [3000, 5000],
          [3000, 5000],
        ],
        [[cpuOnly, 'node1']],
      ),
      [100, 50],
    ],
    [
      'requested resources at node capacity',
      scores(
        cpuOnly,
        [
          [6000, 10000],
          [6000, 10000],
        ],
        [
          [cpuOnly, 'node1'],
          [cpuAndMemory, 'node2'],
        ],
      ),
      [50, 75],
    ],
    // A best-effort pod over nodes whose own requests are unbalanced: not skipped in v1.32.
    [
      'best-effort pod, unbalanced node',
      scores(
        [],
        [
          [4000, 10000],
          [4000, 10000],
        ],
        [[cpuOnly, 'node1']],
      ),
      [62, 100],
    ],
  ];
  for (const [name, got, want] of cases) assert.deepEqual(got, want, name);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Container, Pod, ResourceList } from '../../src/api/core';
import { FRAMEWORK_ARITHMETIC, LEGACY_ARITHMETIC, podRequests } from '../../src/scheduler/requests';

/*
 * A pod's requests by release. v1.32: the cases of k8s.io/component-helpers/resource
 * helpers_test.go TestPodRequestsAndLimits (requests half), TestPodResourceRequests
 * (the cases without in-place resize status) and the restartable-init cases of
 * TestPodResourceLimits, whose aggregation is the same function (AggregateContainer*).
 * v1.12: GetResourceRequest (predicates.go) and getNonZeroRequests — no overhead, a
 * "sidecar" is an ordinary init container (v1.12 has no container restartPolicy).
 */

const c = (requests: ResourceList = {}, sidecar = false): Container => ({
  name: 'c',
  image: 'i',
  resources: { requests },
  ...(sidecar ? { restartPolicy: 'Always' as const } : {}),
});
const pod = (containers: Container[], initContainers: Container[] = [], overhead?: ResourceList): Pod => ({
  metadata: { name: 'p' },
  spec: { containers, initContainers, ...(overhead ? { overhead } : {}) },
});
const cpu = (v: string): ResourceList => ({ cpu: v });

test('PodRequests (v1.32: TestPodRequestsAndLimits, TestPodResourceRequests, TestPodResourceLimits restartable cases)', () => {
  const cases: [string, Pod, { milliCPU: number; memory?: number }][] = [
    ['just-overhead', pod([], [], { cpu: '5', memory: '5' }), { milliCPU: 5000, memory: 5 }],
    [
      'req-and-overhead',
      pod([c({ cpu: '1', memory: '10' })], [], { cpu: '5', memory: '5' }),
      { milliCPU: 6000, memory: 15 },
    ],
    ['nil options, larger init container', pod([c(cpu('1'))], [c(cpu('4'))]), { milliCPU: 4000 }],
    ['nil options, larger containers', pod([c(cpu('2')), c(cpu('3'))], [c(cpu('2'))]), { milliCPU: 5000 }],
    [
      'pod overhead included',
      pod([c(cpu('2')), c(cpu('3'))], [c(cpu('2'))], { cpu: '1', memory: '1Gi' }),
      { milliCPU: 6000, memory: 1024 ** 3 },
    ],
    ['restartable init container', pod([c(cpu('1'))], [c(cpu('1'), true)]), { milliCPU: 2000 }],
    [
      'multiple restartable init containers',
      pod([c(cpu('1'))], [c(cpu('5')), c(cpu('1'), true), c(cpu('2'), true), c(cpu('3'), true)]),
      { milliCPU: 7000 },
    ],
    [
      'multiple restartable and regular init containers',
      pod([c(cpu('1'))], [c(cpu('5')), c(cpu('1'), true), c(cpu('2'), true), c(cpu('5')), c(cpu('3'), true)]),
      { milliCPU: 8000 },
    ],
    [
      'restartable-init, init and regular',
      pod([c(cpu('100'))], [c(cpu('10'), true), c(cpu('200'))]),
      { milliCPU: 210000 },
    ],
  ];
  for (const [name, p, want] of cases) {
    const got = podRequests(p);
    assert.equal(got.milliCPU, want.milliCPU, `${name}: cpu`);
    assert.equal(got.memory, want.memory ?? 0, `${name}: memory`);
  }
});

test('non-zero requests: v1.32 applies the defaults to init containers too (NonMissingContainerRequests); v1.12 to app containers only', () => {
  // An app container naming nothing and an init container asking 1 cpu.
  const p = pod([c()], [c(cpu('1'))]);
  assert.deepEqual(FRAMEWORK_ARITHMETIC.nonZero(p), { milliCPU: 1000, memory: 200 * 1024 * 1024 });
  assert.deepEqual(LEGACY_ARITHMETIC.nonZero(p), { milliCPU: 100, memory: 200 * 1024 * 1024 });
  // An explicit 0 stays 0 in both.
  assert.deepEqual(FRAMEWORK_ARITHMETIC.nonZero(pod([c({ cpu: '0', memory: '0' })])), { milliCPU: 0, memory: 0 });
  assert.deepEqual(LEGACY_ARITHMETIC.nonZero(pod([c({ cpu: '0', memory: '0' })])), { milliCPU: 0, memory: 0 });
  // A sidecar's default counts beside the app container's in v1.32.
  assert.equal(FRAMEWORK_ARITHMETIC.nonZero(pod([c()], [c({}, true)])).milliCPU, 200);
});

test('v1.12 GetResourceRequest: max(Σ app, each init), no overhead, a restartPolicy is not read', () => {
  const p = pod([c(cpu('1'))], [c(cpu('1'), true)], { cpu: '5' });
  assert.equal(LEGACY_ARITHMETIC.request(p).milliCPU, 1000);
  assert.equal(FRAMEWORK_ARITHMETIC.request(p).milliCPU, 7000);
});

test('least-allocated with a resource of allocatable 0: v1.12 averages a 0 in, v1.32 leaves it out', async () => {
  const { leastRequested } = await import('../../src/scheduler/priorities/least-requested');
  const { NodeInfo } = await import('../../src/scheduler/nodeinfo');
  const { PodMeta } = await import('../../src/scheduler/meta');
  const { SchedulerCache } = await import('../../src/scheduler/cache');
  const node = new NodeInfo('n1', {
    metadata: { name: 'n1' },
    status: { allocatable: { cpu: '4', memory: '0', pods: '10' } },
  } as never);
  const p = pod([c(cpu('1'))]);
  const meta = new PodMeta(p, new SchedulerCache());
  assert.deepEqual(leastRequested(10)(p, meta, [node]), [3]); // (7 + 0) / 2
  assert.deepEqual(leastRequested(100, true)(p, meta, [node]), [75]);
});

// The scheduler's pure rules beside upstream's tables (kubernetes/kubernetes v1.12
// pkg/scheduler/algorithm/priorities: TestLeastRequested, TestMostRequested,
// TestBalancedResourceAllocation, TestSelectorSpreadPriority, TestZoneSelectorSpreadPriority;
// predicates: the disk conflict tests; each test names the one it follows).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leastRequestedScore } from '../../src/scheduler/priorities/least-requested';
import { mostRequestedScore } from '../../src/scheduler/priorities/most-requested';
import { frameworkBalancedScore, legacyBalancedScore } from '../../src/scheduler/priorities/balanced';
import { spreadScores } from '../../src/scheduler/priorities/selector-spread';
import { normalize } from '../../src/scheduler/priorities/priority';
import { fitErrorMessage, frameworkFitErrorMessage, FailureReason, LEGACY_WORDING } from '../../src/scheduler/reasons';
import { FRAMEWORK_RELEASE, LEGACY_RELEASE } from '../../src/scheduler/release';
import { volumesConflict } from '../../src/scheduler/predicates/no-disk-conflict';
import { toleratesTaint } from '../../src/scheduler/taints';
import { HostSelector, numFeasibleNodesToFind } from '../../src/scheduler/algorithm';
import { NodeTree } from '../../src/scheduler/node-tree';
import { algorithmFromPolicy, parsePolicy } from '../../src/scheduler/policy';
import { podNonZeroRequest, podRequest } from '../../src/api/pod-resources';
import { admitPod } from '../../src/kubelet/admission';
import { Node, Pod } from '../../src/api/core';

const pod = (containers: Record<string, string>[], init: Record<string, string>[] = []): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', uid: 'u' },
  spec: {
    containers: containers.map((r, i) => ({ name: `c${i}`, resources: { requests: r } })),
    initContainers: init.map((r, i) => ({ name: `i${i}`, resources: { requests: r } })),
  },
});

test('leastRequestedScore: ((cap − req) × 10) / cap, integer; 0 past capacity (TestLeastRequested)', () => {
  assert.equal(leastRequestedScore(3000, 4000, 10), 2);
  assert.equal(leastRequestedScore(5000, 10000, 10), 5);
  assert.equal(leastRequestedScore(6000, 10000, 10), 4);
  assert.equal(leastRequestedScore(5000, 4000, 10), 0);
  assert.equal(leastRequestedScore(0, 0, 10), 0);
  assert.equal(leastRequestedScore(3000, 4000, 100), 25);
});

test('mostRequestedScore: (req × 10) / cap', () => {
  assert.equal(mostRequestedScore(2500, 4000, 10), 6);
  assert.equal(mostRequestedScore(5000, 4000, 10), 0);
});

test('BalancedResourceAllocation: v1.12 int((1 − |Δ|) × 10), 0 at a full resource; v1.32 (1 − |Δ|/2) × 100', () => {
  assert.equal(legacyBalancedScore(3000, 4000, 5000, 10000), 7);
  assert.equal(legacyBalancedScore(3000, 6000, 5000, 10000), 10);
  assert.equal(legacyBalancedScore(6000, 10000, 5000, 20000), 6);
  assert.equal(legacyBalancedScore(6000, 10000, 10000, 20000), 9);
  assert.equal(legacyBalancedScore(4000, 4000, 0, 10000), 0);
  assert.equal(legacyBalancedScore(0, 0, 0, 0), 0);
  assert.equal(frameworkBalancedScore(3000, 4000, 5000, 10000), 87);
  assert.equal(frameworkBalancedScore(8000, 4000, 0, 10000), 50);
});

test('SelectorSpread reduce: counts 2,1,0 → 0,5,10; zones blend 1/3 node, 2/3 zone', () => {
  assert.deepEqual(spreadScores([2, 1, 0], ['', '', ''], 10), [0, 5, 10]);
  assert.deepEqual(spreadScores([0, 0], ['', ''], 10), [10, 10]);
  // zone a has 2+0, zone b has 1: node scores 0,10,5; zone scores 0,0,5 → 0, 3.33→3, 5
  assert.deepEqual(spreadScores([2, 0, 1], ['a', 'a', 'b'], 10), [0, 3, 5]);
});

test('NormalizeReduce: max × s / maxCount, reversed for taints', () => {
  assert.deepEqual(normalize([0, 1, 2], 100, true), [100, 50, 0]);
  assert.deepEqual(normalize([0, 0], 10, true), [10, 10]);
  assert.deepEqual(normalize([3, 1], 10, false), [10, 3]);
});

test('FitError: "<count> <reason>" sorted as strings', () => {
  const failures = new Map<string, FailureReason[]>([
    ['n1', [{ kind: 'predicate', reason: 'MatchNodeSelector' }]],
    ['n2', [{ kind: 'insufficient', resource: 'cpu', requested: 2000, used: 0, capacity: 1000 }]],
    [
      'n3',
      [
        { kind: 'insufficient', resource: 'cpu', requested: 2000, used: 0, capacity: 1000 },
        { kind: 'predicate', reason: 'MatchNodeSelector' },
      ],
    ],
  ]);
  assert.equal(
    fitErrorMessage(3, failures, LEGACY_WORDING),
    "0/3 nodes are available: 2 Insufficient cpu, 2 node(s) didn't match node selector.",
  );
  assert.equal(
    frameworkFitErrorMessage(2, new Map([...failures].slice(0, 2))),
    "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.",
  );
});

test('volume conflicts (TestDiskConflicts, TestAWSDiskConflicts, TestRBDDiskConflicts, TestISCSIDiskConflicts)', () => {
  const gce = (pdName: string, readOnly = false) => ({ name: 'v', gcePersistentDisk: { pdName, readOnly } });
  assert.equal(volumesConflict(gce('foo'), gce('foo')), true);
  assert.equal(volumesConflict(gce('foo'), gce('bar')), false);
  assert.equal(volumesConflict(gce('foo', true), gce('foo', true)), false);
  const ebs = (volumeID: string) => ({ name: 'v', awsElasticBlockStore: { volumeID, readOnly: true } });
  assert.equal(volumesConflict(ebs('foo'), ebs('foo')), true);
  const rbd = (monitors: string[]) => ({ name: 'v', rbd: { monitors, pool: 'foo', image: 'bar' } });
  assert.equal(volumesConflict(rbd(['a', 'b']), rbd(['a', 'b'])), true);
  assert.equal(volumesConflict(rbd(['a', 'b']), rbd(['c', 'd'])), false);
  assert.equal(volumesConflict({ name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }), false);
});

test('ToleratesTaint (TestTaintTolerationFilter vectors)', () => {
  const taint = { key: 'dedicated', value: 'user1', effect: 'NoSchedule' as const };
  assert.equal(toleratesTaint({ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }, taint), true);
  assert.equal(
    toleratesTaint({ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }, taint),
    false,
  );
  assert.equal(toleratesTaint({ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }, taint), true);
  assert.equal(toleratesTaint({ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }, taint), false);
  assert.equal(toleratesTaint({ key: 'dedicated', value: 'user1' }, taint), true);
  assert.equal(toleratesTaint({ operator: 'Exists' }, taint), true);
});

test('numFeasibleNodesToFind: v1.12 50 % (≥ 100); v1.32 adaptive 50 − n/125 %, ≥ 5 %', () => {
  assert.equal(numFeasibleNodesToFind(LEGACY_RELEASE, 99, 50), 99);
  assert.equal(numFeasibleNodesToFind(LEGACY_RELEASE, 150, 50), 100);
  assert.equal(numFeasibleNodesToFind(LEGACY_RELEASE, 5000, 50), 2500);
  assert.equal(numFeasibleNodesToFind(FRAMEWORK_RELEASE, 5000, 0), 500);
  assert.equal(numFeasibleNodesToFind(FRAMEWORK_RELEASE, 1000, 0), 420);
  assert.equal(numFeasibleNodesToFind(FRAMEWORK_RELEASE, 10000, 0), 500);
});

test('selectHost: v1.12 round-robin over the max scores in list order; v1.32 seeded reservoir sampling', () => {
  const legacy = new HostSelector(LEGACY_RELEASE.hostSelection);
  const names = ['m1', 'm2', 'm3'];
  assert.deepEqual(
    [1, 2, 3].map(() => legacy.select(names, [10, 10, 5])),
    ['m1', 'm2', 'm1'],
  );
  const a = new HostSelector(FRAMEWORK_RELEASE.hostSelection, 7);
  const b = new HostSelector(FRAMEWORK_RELEASE.hostSelection, 7);
  const seq = () => Array.from({ length: 20 }, () => a.select(names, [5, 5, 5]));
  const first = seq();
  assert.deepEqual(
    Array.from({ length: 20 }, () => b.select(names, [5, 5, 5])),
    first,
  );
  assert.equal(new Set(first).size, 3, 'all tied nodes are chosen sometimes');
  assert.equal(a.select(names, [1, 9, 2]), 'm2');
});

test('NodeTree: zones round-robin, continuing across cycles; after a reset the zone cursor carries on (b1 before a1)', () => {
  const t = new NodeTree();
  t.add({ name: 'a1' }, 'a');
  t.add({ name: 'a2' }, 'a');
  t.add({ name: 'b1' }, 'b');
  assert.deepEqual(
    [1, 2, 3, 4, 5].map(() => t.next()!.name),
    ['a1', 'b1', 'a2', 'b1', 'a1'],
  );
  assert.deepEqual(
    t.list().map((n) => n.name),
    ['a1', 'b1', 'a2'],
  );
});

test('pod requests: sum of containers, max with each init container; non-zero defaults per container', () => {
  const p = pod([{ cpu: '1m', memory: '1' }, { cpu: '2m' }], [{ cpu: '3m', memory: '1' }, { cpu: '2m' }]);
  assert.equal(podRequest(p).milliCPU, 3);
  assert.equal(podRequest(p).memory, 1);
  assert.deepEqual(podNonZeroRequest(p), { milliCPU: 3, memory: 1 + 200 * 1024 * 1024 });
  assert.deepEqual(podNonZeroRequest(pod([{ cpu: '0' }])), { milliCPU: 0, memory: 209715200 });
});

test('Policy: custom predicates by argument, defaults when predicates are absent, weights validated', () => {
  const a = algorithmFromPolicy(
    parsePolicy(
      '{"kind":"Policy","apiVersion":"v1","predicates":[{"name":"RequireZone","argument":{"labelsPresence":{"labels":["zone"],"presence":true}}}],"priorities":[{"name":"LeastRequestedPriority","weight":2}]}',
    ),
  );
  assert.deepEqual(
    a.predicates.map((p) => p.name),
    ['CheckNodeUnschedulable', 'PodToleratesNodeTaints', 'RequireZone'],
  );
  assert.deepEqual(
    a.priorities.map((p) => [p.name, p.weight]),
    [['LeastRequestedPriority', 2]],
  );
  const d = algorithmFromPolicy(parsePolicy('priorities: []\n'));
  assert.deepEqual(
    d.predicates.map((p) => p.name),
    [
      'CheckNodeUnschedulable',
      'GeneralPredicates',
      'NoDiskConflict',
      'PodToleratesNodeTaints',
      'MaxEBSVolumeCount',
      'MaxGCEPDVolumeCount',
      'MaxCSIVolumeCount',
      'MaxAzureDiskVolumeCount',
      'CheckVolumeBinding',
      'NoVolumeZoneConflict',
      'MatchInterPodAffinity',
    ],
  );
  assert.throws(
    () => parsePolicy('{"priorities":[{"name":"LeastRequestedPriority","weight":0}]}'),
    /Priority LeastRequestedPriority should have a positive weight applied to it or it has overflown/,
  );
  assert.throws(
    () => algorithmFromPolicy(parsePolicy('{"predicates":[{"name":"NoSuch"}]}')),
    /Predicate type not found for NoSuch/,
  );
});

test('kubelet admission: OutOf<resource> with the InsufficientResourceError text', () => {
  const node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n' },
    status: { allocatable: { cpu: '1', memory: '1Gi', pods: '2' } },
  } as Node;
  const running = [pod([{ cpu: '800m' }])];
  assert.deepEqual(admitPod(pod([{ cpu: '500m' }]), node, running), {
    reason: 'OutOfcpu',
    message: "Node didn't have enough resource: cpu, requested: 500, used: 800, capacity: 1000",
  });
  assert.equal(admitPod(pod([{ cpu: '200m' }]), node, running), undefined);
  assert.equal(admitPod(pod([{}]), node, [...running, pod([{}])])?.reason, 'OutOfpods');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Node, Pod } from '../../src/api/core';
import { algorithmFromPolicy, parsePolicy } from '../../src/scheduler/policy';
import { legacyProvider } from '../../src/scheduler/providers';
import { SchedulerCache } from '../../src/scheduler/cache';
import { PodMeta } from '../../src/scheduler/meta';
import { maxVolumeCount } from '../../src/scheduler/predicates/volume-count';
import { checkNodeCondition, checkNodeMemoryPressure } from '../../src/scheduler/predicates/node-conditions';
import { requestedToCapacityRatio } from '../../src/scheduler/priorities/requested-to-capacity';
import { LEGACY_WORDING } from '../../src/scheduler/reasons';

/*
 * The names a v1.12 Policy may use (algorithmprovider/defaults/defaults.go init,
 * defaultPredicates, defaultPriorities, ApplyFeatureGates; factory.go CreateFromConfig,
 * plugins.go RegisterCustomFitPredicate / RegisterCustomPriorityFunction).
 */

const policy = (predicates: string[], priorities: string[] = []) =>
  algorithmFromPolicy(
    parsePolicy(
      JSON.stringify({
        kind: 'Policy',
        apiVersion: 'v1',
        predicates: predicates.map((name) => ({ name })),
        priorities: priorities.map((name) => ({ name, weight: 1 })),
      }),
    ),
  );

test('every predicate and priority name v1.12 registers is accepted', () => {
  const predicates = [
    'PodFitsPorts',
    'PodFitsHostPorts',
    'PodFitsResources',
    'HostName',
    'MatchNodeSelector',
    'NoVolumeZoneConflict',
    'MaxEBSVolumeCount',
    'MaxGCEPDVolumeCount',
    'MaxAzureDiskVolumeCount',
    'MaxCSIVolumeCount',
    'MatchInterPodAffinity',
    'NoDiskConflict',
    'GeneralPredicates',
    'PodToleratesNodeTaints',
    'CheckVolumeBinding',
    'CheckNodeUnschedulable',
  ];
  const priorities = [
    'SelectorSpreadPriority',
    'InterPodAffinityPriority',
    'LeastRequestedPriority',
    'BalancedResourceAllocation',
    'NodePreferAvoidPodsPriority',
    'NodeAffinityPriority',
    'TaintTolerationPriority',
    'ImageLocalityPriority',
    'ServiceSpreadingPriority',
    'EqualPriority',
    'MostRequestedPriority',
    'RequestedToCapacityRatioPriority',
  ];
  const a = policy(predicates, priorities);
  assert.equal(a.predicates.length, predicates.length);
  assert.deepEqual(
    a.priorities.map((p) => p.name),
    priorities,
  );
});

test('with TaintNodesByCondition (seed) the condition predicates are unregistered: a Policy naming one is refused', () => {
  for (const name of ['CheckNodeCondition', 'CheckNodeMemoryPressure', 'CheckNodeDiskPressure', 'CheckNodePIDPressure'])
    assert.throws(() => policy([name]), new RegExp(`Invalid configuration: Predicate type not found for ${name}$`));
  assert.throws(() => policy(['NoSuchPredicate']), /Predicate type not found for NoSuchPredicate/);
  assert.throws(() => policy([], ['ResourceLimitsPriority']), /Priority type not found for ResourceLimitsPriority/);
});

test('without TaintNodesByCondition they are registered, CheckNodeCondition mandatory and CheckNodeUnschedulable unknown', () => {
  const a = algorithmFromPolicy(parsePolicy('{"predicates":[{"name":"CheckNodeMemoryPressure"}]}'), false);
  assert.deepEqual(
    a.predicates.map((p) => p.name),
    ['CheckNodeCondition', 'CheckNodeMemoryPressure'],
  );
  assert.throws(
    () => algorithmFromPolicy(parsePolicy('{"predicates":[{"name":"CheckNodeUnschedulable"}]}'), false),
    /Predicate type not found for CheckNodeUnschedulable/,
  );
  const d = legacyProvider('DefaultProvider', false).predicates.map((p) => p.name);
  for (const n of ['CheckNodeCondition', 'CheckNodeMemoryPressure', 'CheckNodeDiskPressure', 'CheckNodePIDPressure'])
    assert.ok(d.includes(n), n);
  assert.ok(!d.includes('CheckNodeUnschedulable'));
});

test('the v1.12 DefaultProvider: ImageLocalityPriority and InterPodAffinityPriority among its priorities', () => {
  assert.deepEqual(
    legacyProvider('DefaultProvider').priorities.map((p) => [p.name, p.weight]),
    [
      ['SelectorSpreadPriority', 1],
      ['InterPodAffinityPriority', 1],
      ['LeastRequestedPriority', 1],
      ['BalancedResourceAllocation', 1],
      ['NodePreferAvoidPodsPriority', 10000],
      ['NodeAffinityPriority', 1],
      ['TaintTolerationPriority', 1],
      ['ImageLocalityPriority', 1],
    ],
  );
});

function node(name: string, conditions: Record<string, string> = {}, unschedulable = false): Node {
  return {
    metadata: { name },
    spec: { unschedulable },
    status: {
      allocatable: { cpu: '1', memory: '1Gi', pods: '10' },
      conditions: Object.entries(conditions).map(([type, status]) => ({ type, status: status as 'True' })),
    },
  };
}
const pod = (spec: Partial<Pod['spec']> = {}, node?: string): Pod => ({
  metadata: { name: `p${Math.random()}`, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'i' }], nodeName: node, ...spec },
});

test('CheckNodeCondition (TestNodeConditionPredicate, v1.12) and CheckNodeMemoryPressure (BestEffort pods only)', () => {
  const cache = new SchedulerCache();
  const cases: [Node, string[]][] = [
    [node('ready', { Ready: 'True' }), []],
    [node('notready', { Ready: 'False' }), ['node(s) were not ready']],
    [node('outofdisk', { Ready: 'True', OutOfDisk: 'True' }), ['node(s) were out of disk space']],
    [node('network', { Ready: 'True', NetworkUnavailable: 'True' }), ['node(s) had unavailable network']],
    [node('cordoned', { Ready: 'True' }, true), ['node(s) were unschedulable']],
  ];
  for (const [n] of cases) cache.setNode(n);
  const p = pod();
  const meta = new PodMeta(p, cache);
  for (const [n, want] of cases)
    assert.deepEqual(
      checkNodeCondition(p, meta, cache.nodeInfo(n.metadata.name!)!).map((r) => LEGACY_WORDING.reasonText(r)),
      want,
      n.metadata.name,
    );
  cache.setNode(node('pressure', { MemoryPressure: 'True' }));
  const burstable = pod({ containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '1' } } }] });
  assert.equal(checkNodeMemoryPressure(p, meta, cache.nodeInfo('pressure')!).length, 1);
  assert.equal(
    checkNodeMemoryPressure(burstable, new PodMeta(burstable, cache), cache.nodeInfo('pressure')!).length,
    0,
  );
});

test('MaxGCEPDVolumeCount: distinct PDs on the node plus the new ones against 16 (TestVolumeCountConflicts)', () => {
  const cache = new SchedulerCache();
  cache.setNode(node('n1'));
  const pd = (name: string) => ({ name, gcePersistentDisk: { pdName: name } });
  for (let i = 0; i < 15; i++) cache.addPod(pod({ volumes: [pd(`pd${i}`)] }, 'n1'));
  const fits = (volumes: ReturnType<typeof pd>[]) => {
    const p = pod({ volumes });
    return maxVolumeCount('MaxGCEPDVolumeCount')(p, new PodMeta(p, cache), cache.nodeInfo('n1')!).length === 0;
  };
  assert.equal(fits([pd('new1')]), true, '15 + 1 = 16');
  assert.equal(fits([pd('new1'), pd('new2')]), false, '15 + 2 > 16');
  assert.equal(fits([pd('pd1'), pd('new1')]), true, 'an already attached PD does not count twice');
  assert.equal(fits([]), true);
  const ebs = pod({ volumes: [pd('x'), pd('y')] });
  assert.equal(maxVolumeCount('MaxEBSVolumeCount')(ebs, new PodMeta(ebs, cache), cache.nodeInfo('n1')!).length, 0);
});

test('RequestedToCapacityRatioPriority with the default shape (0,10)-(100,0)', () => {
  const cache = new SchedulerCache();
  cache.setNode({
    metadata: { name: 'n1' },
    status: { allocatable: { cpu: '4', memory: '10000', pods: '10' } },
  });
  const p = pod({ containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '1', memory: '5000' } } }] });
  // cpu: utilization 100 − 3000×100/4000 = 25 → 10 − 2 = 8; memory 50 → 5; (8 + 5) / 2 = 6.
  assert.deepEqual(requestedToCapacityRatio(p, new PodMeta(p, cache), [cache.nodeInfo('n1')!]), [6]);
});

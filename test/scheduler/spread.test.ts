import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Node, Pod } from '../../src/api/core';
import { SchedulerCache } from '../../src/scheduler/cache';
import { PodMeta } from '../../src/scheduler/meta';
import { NodeInfo } from '../../src/scheduler/nodeinfo';
import { selectorSpread } from '../../src/scheduler/priorities/selector-spread';
import { SpreadSources } from '../../src/scheduler/spread-selectors';
import {
  defaultSelector,
  podTopologySpread,
  systemDefaultConstraints,
} from '../../src/scheduler/priorities/topology-spread';

/*
 * Upstream's tables for SelectorSpreadPriority at v1.12
 * (pkg/scheduler/algorithm/priorities/selector_spreading_test.go: TestSelectorSpreadPriority,
 * TestZoneSelectorSpreadPriority). Upstream's objects have no namespace ("") unless a case
 * names one; "" stays a namespace of its own here, as in upstream's fake listers.
 */

type Labels = Record<string, string>;
interface PodRow {
  node: string;
  labels?: Labels;
  namespace?: string;
}
interface Case {
  name: string;
  pod: { labels?: Labels; namespace?: string };
  pods?: PodRow[];
  services?: { selector: Labels; namespace?: string }[];
  rcs?: Labels[];
  rss?: Labels[];
  sss?: Labels[];
  expected: Record<string, number>;
}

let seq = 0;
const mkPod = (labels: Labels | undefined, namespace = '', node?: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `p${seq++}`, namespace, labels },
  spec: { containers: [], nodeName: node },
});

function score(c: Case, nodes: Record<string, Labels>): Record<string, number> {
  const cache = new SchedulerCache();
  for (const [name, labels] of Object.entries(nodes)) {
    cache.setNode({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels },
      status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
    } as Node);
  }
  for (const p of c.pods ?? []) cache.addPod(mkPod(p.labels, p.namespace ?? '', p.node));
  const sources: SpreadSources = {
    services: (c.services ?? []).map((s) => ({
      metadata: { namespace: s.namespace ?? '' },
      spec: { selector: s.selector },
    })),
    replicationControllers: (c.rcs ?? []).map((selector) => ({ metadata: { namespace: '' }, spec: { selector } })),
    replicaSets: (c.rss ?? []).map((matchLabels) => ({
      metadata: { namespace: '' },
      spec: { selector: { matchLabels } },
    })),
    statefulSets: (c.sss ?? []).map((matchLabels) => ({
      metadata: { namespace: '' },
      spec: { selector: { matchLabels } },
    })),
  };
  cache.setSpreadSources(sources);
  const pod = mkPod(c.pod.labels, c.pod.namespace ?? '');
  const infos = Object.keys(nodes).map((n) => cache.nodeInfo(n)!) as NodeInfo[];
  const scores = selectorSpread(10)(pod, new PodMeta(pod, cache), infos);
  return Object.fromEntries(infos.map((n, i) => [n.name, scores[i]]));
}

const labels1 = { foo: 'bar', baz: 'blah' };
const labels2 = { bar: 'foo', baz: 'blah' };
const m = (m1: number, m2: number) => ({ machine1: m1, machine2: m2 });

const selectorCases: Case[] = [
  { name: 'nothing scheduled', pod: {}, expected: m(10, 10) },
  { name: 'no services', pod: { labels: labels1 }, pods: [{ node: 'machine1' }], expected: m(10, 10) },
  {
    name: 'different services',
    pod: { labels: labels1 },
    pods: [{ node: 'machine1', labels: labels2 }],
    services: [{ selector: { key: 'value' } }],
    expected: m(10, 10),
  },
  {
    name: 'two pods, one service pod',
    pod: { labels: labels1 },
    pods: [
      { node: 'machine1', labels: labels2 },
      { node: 'machine2', labels: labels1 },
    ],
    services: [{ selector: labels1 }],
    expected: m(10, 0),
  },
  {
    name: 'five pods, one service pod in no namespace',
    pod: { labels: labels1 },
    pods: [
      { node: 'machine1', labels: labels2 },
      { node: 'machine1', labels: labels1, namespace: 'default' },
      { node: 'machine1', labels: labels1, namespace: 'ns1' },
      { node: 'machine2', labels: labels1 },
      { node: 'machine2', labels: labels2 },
    ],
    services: [{ selector: labels1 }],
    expected: m(10, 0),
  },
  {
    name: 'four pods, one service pod in default namespace',
    pod: { labels: labels1, namespace: 'default' },
    pods: [
      { node: 'machine1', labels: labels1 },
      { node: 'machine1', labels: labels1, namespace: 'ns1' },
      { node: 'machine2', labels: labels1, namespace: 'default' },
      { node: 'machine2', labels: labels2 },
    ],
    services: [{ selector: labels1, namespace: 'default' }],
    expected: m(10, 0),
  },
  {
    name: 'five pods, one service pod in specific namespace',
    pod: { labels: labels1, namespace: 'ns1' },
    pods: [
      { node: 'machine1', labels: labels1 },
      { node: 'machine1', labels: labels1, namespace: 'default' },
      { node: 'machine1', labels: labels1, namespace: 'ns2' },
      { node: 'machine2', labels: labels1, namespace: 'ns1' },
      { node: 'machine2', labels: labels2 },
    ],
    services: [{ selector: labels1, namespace: 'ns1' }],
    expected: m(10, 0),
  },
  {
    name: 'three pods, two service pods on different machines',
    pod: { labels: labels1 },
    pods: [
      { node: 'machine1', labels: labels2 },
      { node: 'machine1', labels: labels1 },
      { node: 'machine2', labels: labels1 },
    ],
    services: [{ selector: labels1 }],
    expected: m(0, 0),
  },
  {
    name: 'four pods, three service pods',
    pod: { labels: labels1 },
    pods: [
      { node: 'machine1', labels: labels2 },
      { node: 'machine1', labels: labels1 },
      { node: 'machine2', labels: labels1 },
      { node: 'machine2', labels: labels1 },
    ],
    services: [{ selector: labels1 }],
    expected: m(5, 0),
  },
  {
    name: 'service with partial pod label matches',
    pod: { labels: labels1 },
    pods: [
      { node: 'machine1', labels: labels2 },
      { node: 'machine1', labels: labels1 },
      { node: 'machine2', labels: labels1 },
    ],
    services: [{ selector: { baz: 'blah' } }],
    expected: m(0, 5),
  },
];
const three = (l: Labels = labels1): PodRow[] => [
  { node: 'machine1', labels: labels2 },
  { node: 'machine1', labels: l },
  { node: 'machine2', labels: l },
];
const both = { foo: 'bar', bar: 'foo' };
selectorCases.push(
  // "baz=blah" matches both labels1 and labels2, "foo=bar" only labels1: v1.12 counts a pod matched by any selector.
  {
    name: 'service with partial pod label matches with service and replication controller',
    pod: { labels: labels1 },
    pods: three(),
    rcs: [{ foo: 'bar' }],
    services: [{ selector: { baz: 'blah' } }],
    expected: m(0, 5),
  },
  {
    name: 'service with partial pod label matches with service and replica set',
    pod: { labels: labels1 },
    pods: three(),
    rss: [{ foo: 'bar' }],
    services: [{ selector: { baz: 'blah' } }],
    expected: m(0, 5),
  },
  {
    name: 'service with partial pod label matches with service and stateful set',
    pod: { labels: labels1 },
    pods: three(),
    sss: [{ foo: 'bar' }],
    services: [{ selector: { baz: 'blah' } }],
    expected: m(0, 5),
  },
  {
    name: 'disjoined service and replication controller should be treated equally',
    pod: { labels: both },
    pods: three(),
    rcs: [{ foo: 'bar' }],
    services: [{ selector: { bar: 'foo' } }],
    expected: m(0, 5),
  },
  {
    name: 'disjoined service and replica set should be treated equally',
    pod: { labels: both },
    pods: three(),
    rss: [{ foo: 'bar' }],
    services: [{ selector: { bar: 'foo' } }],
    expected: m(0, 5),
  },
  {
    name: 'disjoined service and stateful set should be treated equally',
    pod: { labels: both },
    pods: three(),
    sss: [{ foo: 'bar' }],
    services: [{ selector: { bar: 'foo' } }],
    expected: m(0, 5),
  },
  {
    name: 'Replication controller with partial pod label matches',
    pod: { labels: labels1 },
    pods: three(),
    rcs: [{ foo: 'bar' }],
    expected: m(0, 0),
  },
  {
    name: 'Replica set with partial pod label matches',
    pod: { labels: labels1 },
    pods: three(),
    rss: [{ foo: 'bar' }],
    expected: m(0, 0),
  },
  {
    name: 'StatefulSet with partial pod label matches',
    pod: { labels: labels1 },
    pods: three(),
    sss: [{ foo: 'bar' }],
    expected: m(0, 0),
  },
  {
    name: 'Another replication controller with partial pod label matches',
    pod: { labels: labels1 },
    pods: [
      { node: 'machine1', labels: labels2 },
      { node: 'machine1', labels: labels1 },
      { node: 'machine2', labels: labels1 },
    ],
    rcs: [{ baz: 'blah' }],
    expected: m(0, 5),
  },
  {
    name: 'Another replication set with partial pod label matches',
    pod: { labels: labels1 },
    pods: three(),
    rss: [{ baz: 'blah' }],
    expected: m(0, 5),
  },
  {
    name: 'Another stateful set with partial pod label matches',
    pod: { labels: labels1 },
    pods: three(),
    sss: [{ baz: 'blah' }],
    expected: m(0, 5),
  },
);

test('TestSelectorSpreadPriority (v1.12): services, RCs, ReplicaSets and StatefulSets; a pod matched by any selector counts', () => {
  const nodes = { machine1: {}, machine2: {} };
  for (const c of selectorCases) assert.deepEqual(score(c, nodes), c.expected, c.name);
});

test('TestZoneSelectorSpreadPriority (v1.12): 1/3 node, 2/3 zone over the beta failure-domain zone label', () => {
  const zl = { label1: 'l1', baz: 'blah' };
  const zl2 = { label2: 'l2', baz: 'blah' };
  const zone = (z: string) => ({ 'failure-domain.beta.kubernetes.io/zone': z });
  const nodes = {
    'machine1.zone1': zone('zone1'),
    'machine1.zone2': zone('zone2'),
    'machine2.zone2': zone('zone2'),
    'machine1.zone3': zone('zone3'),
    'machine2.zone3': zone('zone3'),
    'machine3.zone3': zone('zone3'),
  };
  const z = (...s: number[]) => Object.fromEntries(Object.keys(nodes).map((n, i) => [n, s[i]]));
  const svc = [{ selector: zl }];
  const cases: Case[] = [
    { name: 'nothing scheduled', pod: {}, expected: z(10, 10, 10, 10, 10, 10) },
    {
      name: 'no services',
      pod: { labels: zl },
      pods: [{ node: 'machine1.zone1' }],
      expected: z(10, 10, 10, 10, 10, 10),
    },
    {
      name: 'different services',
      pod: { labels: zl },
      pods: [{ node: 'machine1.zone1', labels: zl2 }],
      services: [{ selector: { key: 'value' } }],
      expected: z(10, 10, 10, 10, 10, 10),
    },
    {
      name: 'two pods, 0 matching',
      pod: { labels: zl },
      pods: [
        { node: 'machine1.zone1', labels: zl2 },
        { node: 'machine1.zone2', labels: zl2 },
      ],
      services: svc,
      expected: z(10, 10, 10, 10, 10, 10),
    },
    {
      name: 'two pods, 1 matching (in z2)',
      pod: { labels: zl },
      pods: [
        { node: 'machine1.zone1', labels: zl2 },
        { node: 'machine1.zone2', labels: zl },
      ],
      services: svc,
      expected: z(10, 0, 3, 10, 10, 10),
    },
    {
      name: 'five pods, 3 matching (z2=2, z3=1)',
      pod: { labels: zl },
      pods: [
        { node: 'machine1.zone1', labels: zl2 },
        { node: 'machine1.zone2', labels: zl },
        { node: 'machine2.zone2', labels: zl },
        { node: 'machine1.zone3', labels: zl2 },
        { node: 'machine2.zone3', labels: zl },
      ],
      services: svc,
      expected: z(10, 0, 0, 6, 3, 6),
    },
    {
      name: 'four pods, 3 matching (z1=1, z2=1, z3=1)',
      pod: { labels: zl },
      pods: [
        { node: 'machine1.zone1', labels: zl },
        { node: 'machine1.zone2', labels: zl },
        { node: 'machine2.zone2', labels: zl2 },
        { node: 'machine1.zone3', labels: zl },
      ],
      services: svc,
      expected: z(0, 0, 3, 0, 3, 3),
    },
    {
      name: 'four pods, 3 matching (z1=1, z2=1, z3=1), other order',
      pod: { labels: zl },
      pods: [
        { node: 'machine1.zone1', labels: zl },
        { node: 'machine1.zone2', labels: zl },
        { node: 'machine1.zone3', labels: zl },
        { node: 'machine2.zone2', labels: zl2 },
      ],
      services: svc,
      expected: z(0, 0, 3, 0, 3, 3),
    },
    {
      name: 'Replication controller spreading (z1=0, z2=1, z3=2)',
      pod: { labels: zl },
      pods: [
        { node: 'machine1.zone3', labels: zl },
        { node: 'machine1.zone2', labels: zl },
        { node: 'machine1.zone3', labels: zl },
      ],
      rcs: [zl],
      expected: z(10, 5, 6, 0, 3, 3),
    },
  ];
  for (const c of cases) assert.deepEqual(score(c, nodes), c.expected, c.name);
});

test('getSelectors (v1.12 listers): a pod without labels has no controllers; an empty or invalid controller selector selects nothing', () => {
  const nodes = { machine1: {}, machine2: {} };
  const pods: PodRow[] = [{ node: 'machine1', labels: labels1 }, { node: 'machine1' }];
  // An RC with an empty selector would match every pod; the lister skips it, so nothing spreads.
  assert.deepEqual(
    score({ name: 'empty rc selector', pod: { labels: labels1 }, pods, rcs: [{}], expected: {} }, nodes),
    m(10, 10),
  );
  assert.deepEqual(
    score({ name: 'empty rs selector', pod: { labels: labels1 }, pods, rss: [{}], expected: {} }, nodes),
    m(10, 10),
  );
  // A service with an empty selector selects every pod of its namespace, the unlabelled one too.
  assert.deepEqual(
    score({ name: 'empty service selector', pod: {}, pods, services: [{ selector: {} }], expected: {} }, nodes),
    m(0, 10),
  );
  // No labels: the RC lister returns an error, so only services count.
  assert.deepEqual(
    score({ name: 'no labels, rc', pod: {}, pods, rcs: [{ foo: 'bar' }], expected: {} }, nodes),
    m(10, 10),
  );
});

/*
 * v1.32 PodTopologySpread scoring (framework/plugins/podtopologyspread/scoring_test.go,
 * TestPodTopologySpreadScore; fooSelector = foo Exists, barSelector = bar Exists).
 */
interface SpreadCase {
  name: string;
  pod: { labels: Labels; constraints?: [number, string, string | null][] };
  existing: [string, Labels][];
  nodes: Record<string, Labels>;
  failed?: Record<string, Labels>;
  services?: Labels[];
  want: Record<string, number>;
}

function spreadScore(c: SpreadCase): Record<string, number> {
  const cache = new SchedulerCache();
  const all = { ...c.nodes, ...(c.failed ?? {}) };
  for (const [name, labels] of Object.entries(all)) {
    cache.setNode({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels },
      status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
    } as Node);
  }
  for (const [node, labels] of c.existing) cache.addPod(mkPod(labels, '', node));
  cache.setSpreadSources({
    services: (c.services ?? []).map((selector) => ({ metadata: { namespace: '' }, spec: { selector } })),
  });
  const pod = mkPod(c.pod.labels, '');
  if (c.pod.constraints) {
    (pod.spec as { topologySpreadConstraints?: unknown[] }).topologySpreadConstraints = c.pod.constraints.map(
      ([maxSkew, topologyKey, exists]) => ({
        maxSkew,
        topologyKey,
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: exists ? { matchExpressions: [{ key: exists, operator: 'Exists' }] } : null,
      }),
    );
  }
  const infos = Object.keys(c.nodes).map((n) => cache.nodeInfo(n)!);
  const scores = podTopologySpread(pod, new PodMeta(pod, cache), infos);
  return Object.fromEntries(infos.map((n, i) => [n.name, scores[i]]));
}

const host = (...names: string[]) => Object.fromEntries(names.map((n) => [n, { 'kubernetes.io/hostname': n }]));
const zoned = (zone: string, name: string) => ({ [name]: { zone, 'kubernetes.io/hostname': name } });
const foo = { foo: '' };
const pods = (spec: Record<string, number>, labels: Labels = foo): [string, Labels][] =>
  Object.entries(spec).flatMap(([node, n]) => Array.from({ length: n }, () => [node, labels] as [string, Labels]));

test('TestPodTopologySpreadScore (v1.32): ScheduleAnyway constraints and the system defaults', () => {
  const cases: SpreadCase[] = [
    {
      name: 'one constraint on node, all 4 nodes are candidates',
      pod: { labels: foo, constraints: [[1, 'kubernetes.io/hostname', 'foo']] },
      existing: pods({ 'node-a': 2, 'node-b': 1, 'node-d': 3 }),
      nodes: host('node-a', 'node-b', 'node-c', 'node-d'),
      want: { 'node-a': 20, 'node-b': 60, 'node-c': 100, 'node-d': 0 },
    },
    {
      name: 'one constraint on node, null selector',
      pod: { labels: foo, constraints: [[1, 'kubernetes.io/hostname', null]] },
      existing: pods({ 'node-a': 2, 'node-b': 1, 'node-d': 3 }),
      nodes: host('node-a', 'node-b', 'node-c', 'node-d'),
      want: { 'node-a': 100, 'node-b': 100, 'node-c': 100, 'node-d': 100 },
    },
    {
      name: 'one constraint on node, all 4 nodes are candidates, maxSkew=2',
      pod: { labels: foo, constraints: [[2, 'kubernetes.io/hostname', 'foo']] },
      existing: pods({ 'node-a': 2, 'node-b': 1, 'node-d': 3 }),
      nodes: host('node-a', 'node-b', 'node-c', 'node-d'),
      want: { 'node-a': 33, 'node-b': 66, 'node-c': 100, 'node-d': 16 },
    },
    {
      name: 'one constraint on node, all 4 nodes are candidates, maxSkew=3',
      pod: { labels: foo, constraints: [[3, 'kubernetes.io/hostname', 'foo']] },
      existing: pods({ 'node-a': 4, 'node-b': 3, 'node-c': 2, 'node-d': 1 }),
      nodes: host('node-a', 'node-b', 'node-c', 'node-d'),
      want: { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 },
    },
    {
      name: "system defaulting, nodes don't have zone, pods match service",
      pod: { labels: foo },
      services: [foo],
      existing: pods({ 'node-a': 4, 'node-b': 3, 'node-c': 2, 'node-d': 1 }),
      nodes: host('node-a', 'node-b', 'node-c', 'node-d'),
      want: { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 },
    },
    {
      name: 'one constraint on node, 3 out of 4 nodes are candidates',
      pod: { labels: foo, constraints: [[1, 'kubernetes.io/hostname', 'foo']] },
      existing: pods({ 'node-a': 4, 'node-b': 2, 'node-x': 1, 'node-y': 3 }),
      nodes: host('node-a', 'node-b', 'node-x'),
      failed: host('node-y'),
      want: { 'node-a': 33, 'node-b': 83, 'node-x': 100 },
    },
    {
      name: "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
      pod: { labels: foo, constraints: [[1, 'kubernetes.io/hostname', 'foo']] },
      existing: pods({ 'node-a': 4, 'node-b': 2, 'node-x': 1, 'node-y': 3 }),
      nodes: { ...host('node-a'), 'node-b': { n: 'node-b' }, ...host('node-x') },
      failed: host('node-y'),
      want: { 'node-a': 16, 'node-b': 0, 'node-x': 100 },
    },
    {
      name: 'one constraint on zone, 3 out of 4 nodes are candidates',
      pod: { labels: foo, constraints: [[1, 'zone', 'foo']] },
      existing: pods({ 'node-a': 4, 'node-b': 2, 'node-x': 1, 'node-y': 3 }),
      nodes: { ...zoned('zone1', 'node-a'), ...zoned('zone1', 'node-b'), ...zoned('zone2', 'node-x') },
      failed: zoned('zone2', 'node-y'),
      want: { 'node-a': 75, 'node-b': 75, 'node-x': 100 },
    },
    {
      name: 'two Constraints on zone and node, 2 out of 4 nodes are candidates',
      pod: {
        labels: foo,
        constraints: [
          [1, 'zone', 'foo'],
          [1, 'kubernetes.io/hostname', 'foo'],
        ],
      },
      existing: pods({ 'node-a': 2, 'node-b': 1, 'node-x': 2, 'node-y': 4 }),
      nodes: { ...zoned('zone1', 'node-a'), ...zoned('zone2', 'node-x') },
      failed: { ...zoned('zone1', 'node-b'), ...zoned('zone2', 'node-y') },
      want: { 'node-a': 100, 'node-x': 63 },
    },
    {
      name: 'two Constraints on zone, 2 out of 4 nodes are candidates',
      pod: {
        labels: { foo: '', bar: '' },
        constraints: [
          [1, 'zone', 'foo'],
          [1, 'zone', 'bar'],
        ],
      },
      existing: [
        ['node-a', { foo: '', bar: '' }],
        ['node-a', foo],
        ['node-b', { foo: '', bar: '' }],
        ['node-y', foo],
        ['node-y', { foo: '', bar: '' }],
        ['node-y', foo],
      ],
      nodes: { 'node-a': { zone: 'zone1' }, 'node-x': { zone: 'zone2' } },
      failed: { 'node-b': { zone: 'zone1' }, 'node-y': { zone: 'zone2' } },
      want: { 'node-a': 85, 'node-x': 100 },
    },
    {
      name: 'two Constraints on zone and node, with different labelSelectors',
      pod: {
        labels: { foo: '', bar: '' },
        constraints: [
          [1, 'zone', 'foo'],
          [1, 'kubernetes.io/hostname', 'bar'],
        ],
      },
      existing: [
        ['node-a', foo],
        ['node-b', { foo: '', bar: '' }],
        ['node-y', foo],
        ['node-y', { bar: '' }],
      ],
      nodes: {
        ...zoned('zone1', 'node-a'),
        ...zoned('zone1', 'node-b'),
        ...zoned('zone2', 'node-x'),
        ...zoned('zone2', 'node-y'),
      },
      want: { 'node-a': 60, 'node-b': 20, 'node-x': 100, 'node-y': 60 },
    },
    // No Service and no controller: DefaultSelector is empty, PreScore skips (every node 0).
    {
      name: 'the pod has no soft topology spread constraints (TestPreScoreSkip)',
      pod: { labels: foo },
      existing: pods({ 'node-a': 2 }),
      nodes: host('node-a', 'node-b'),
      want: { 'node-a': 0, 'node-b': 0 },
    },
  ];
  for (const c of cases) assert.deepEqual(spreadScore(c), c.want, c.name);
});

test('helper.DefaultSelector (v1.32): Services merged, then the controller by controllerRef', () => {
  const pod = mkPod({ foo: 'tar', baz: 'sup' }, 'default');
  pod.metadata.ownerReferences = [
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs1', uid: 'u', controller: true },
  ];
  const sources: SpreadSources = {
    services: [{ metadata: { namespace: 'default' }, spec: { selector: { baz: 'sup' } } }],
    replicationControllers: [],
    replicaSets: [
      {
        metadata: { name: 'rs1', namespace: 'default' },
        spec: { selector: { matchExpressions: [{ key: 'foo', operator: 'Exists' }] } },
      },
    ],
    statefulSets: [],
  };
  const s = defaultSelector(pod, sources);
  assert.equal(s.matches({ foo: 'x', baz: 'sup' }), true);
  assert.equal(s.matches({ baz: 'sup' }), false);
  // "default constraints and a replicaset that doesn't match": rs2 is not listed → the service selector alone.
  pod.metadata.ownerReferences[0].name = 'rs2';
  assert.equal(defaultSelector(pod, sources).matches({ baz: 'sup' }), true);
  // No service, unknown controller: empty, so no default constraints.
  assert.equal(systemDefaultConstraints(pod, { ...sources, services: [] }).length, 0);
  pod.metadata.ownerReferences[0].name = 'rs1';
  assert.deepEqual(
    systemDefaultConstraints(pod, sources).map((c) => [c.topologyKey, c.maxSkew]),
    [
      ['kubernetes.io/hostname', 3],
      ['topology.kubernetes.io/zone', 5],
    ],
  );
});

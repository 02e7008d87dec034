import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Node, Pod } from '../../src/api/core';
import { LabelSelector } from '../../src/api/labels/selector';
import { SchedulerCache } from '../../src/scheduler/cache';
import { PodMeta } from '../../src/scheduler/meta';
import {
  interPodAffinity,
  V1_12_AFFINITY_FILTER,
  V1_32_AFFINITY_FILTER,
} from '../../src/scheduler/predicates/inter-pod-affinity';
import {
  interPodAffinityPriority,
  V1_12_AFFINITY_SCORE,
  V1_32_AFFINITY_SCORE,
} from '../../src/scheduler/priorities/inter-pod-affinity';
import { LEGACY_RELEASE, FRAMEWORK_RELEASE } from '../../src/scheduler/release';

/*
 * Inter-pod affinity, both releases, from upstream's tables:
 * v1.32 pkg/scheduler/framework/plugins/interpodaffinity filtering_test.go
 * (TestRequiredAffinitySingleNode, TestRequiredAffinityMultipleNodes) and scoring_test.go
 * (TestPreferredAffinity); v1.12 pkg/scheduler/algorithm/predicates/predicates_test.go
 * (TestInterPodAffinity, TestInterPodAffinityWithMultipleNodes) and
 * priorities/interpod_affinity_test.go (TestInterPodAffinityPriority). The cases are the
 * same objects in both releases (the framework's table descends from v1.12's); where the
 * verdicts differ, both are given. Upstream's pods have namespace "", here "default".
 */

type Labels = Record<string, string>;
interface T {
  sel: LabelSelector | null;
  key: string;
  ns?: string[];
  weight?: number;
}
interface P {
  labels?: Labels;
  node?: string;
  ns?: string;
  aff?: T[];
  anti?: T[];
  prefAff?: T[];
  prefAnti?: T[];
}

const exists = (key: string): LabelSelector => ({ matchExpressions: [{ key, operator: 'Exists' }] });
const inn = (key: string, ...values: string[]): LabelSelector => ({
  matchExpressions: [{ key, operator: 'In', values }],
});
const notIn = (key: string, ...values: string[]): LabelSelector => ({
  matchExpressions: [{ key, operator: 'NotIn', values }],
});
const all = (...s: LabelSelector[]): LabelSelector => ({
  matchExpressions: s.flatMap((x) => x.matchExpressions ?? []),
});

let seq = 0;
function pod(p: P): Pod {
  const term = (t: T) => ({ labelSelector: t.sel, topologyKey: t.key, ...(t.ns ? { namespaces: t.ns } : {}) });
  const weighted = (t: T) => ({ weight: t.weight ?? 1, podAffinityTerm: term(t) });
  return {
    metadata: { name: `p${seq++}`, namespace: p.ns ?? 'default', labels: p.labels },
    spec: {
      containers: [],
      nodeName: p.node,
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: (p.aff ?? []).map(term),
          preferredDuringSchedulingIgnoredDuringExecution: (p.prefAff ?? []).map(weighted),
        },
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: (p.anti ?? []).map(term),
          preferredDuringSchedulingIgnoredDuringExecution: (p.prefAnti ?? []).map(weighted),
        },
      },
    },
  };
}

function cluster(nodes: Record<string, Labels>, pods: P[]): SchedulerCache {
  const cache = new SchedulerCache();
  for (const [name, labels] of Object.entries(nodes)) {
    const node: Node = { metadata: { name, labels }, status: { allocatable: { cpu: '1', memory: '1Gi', pods: '10' } } };
    cache.setNode(node);
  }
  for (const p of pods) if (p.node) cache.addPod(pod(p));
  return cache;
}

type Era = 'legacy' | 'framework';
const FILTER = { legacy: V1_12_AFFINITY_FILTER, framework: V1_32_AFFINITY_FILTER };
const SCORE = { legacy: V1_12_AFFINITY_SCORE, framework: V1_32_AFFINITY_SCORE };
const RELEASE = { legacy: LEGACY_RELEASE, framework: FRAMEWORK_RELEASE };
/** Each node's verdict: '' (fits) or the reasons, as each release words them. */
function filter(era: Era, nodes: Record<string, Labels>, pods: P[], incoming: P): string[] {
  const cache = cluster(nodes, pods);
  const p = pod(incoming);
  const meta = new PodMeta(p, cache);
  return Object.keys(nodes).map((n) =>
    interPodAffinity(FILTER[era])(p, meta, cache.nodeInfo(n)!)
      .map((r) => RELEASE[era].wording.reasonText(r))
      .join('; '),
  );
}

const AFF = "node(s) didn't match pod affinity rules";
const ANTI = "node(s) didn't match pod anti-affinity rules";
const EXIST = "node(s) didn't satisfy existing pods anti-affinity rules";
const legacy = (r: string) => `node(s) didn't match pod affinity/anti-affinity; ${r}`;

const podLabel = { service: 'securityscan' };
const podLabel2 = { security: 'S1' };
const node1 = { machine1: { region: 'r1', zone: 'z11' } };

interface Case {
  name: string;
  nodes: Record<string, Labels>;
  pods: P[];
  pod: P;
  /** Per node: '' fits, else the framework reason; v1.12 gives the generic reason first. */
  want: string[];
  /** Where v1.12 decides otherwise. */
  legacyWant?: string[];
}

const single: Case[] = [
  {
    name: 'A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods',
    nodes: node1,
    pods: [],
    pod: {},
    want: [''],
  },
  {
    name: 'satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod',
    nodes: node1,
    pods: [{ node: 'machine1', labels: podLabel }],
    pod: { labels: podLabel2, aff: [{ sel: inn('service', 'securityscan', 'value2'), key: 'region' }] },
    want: [''],
  },
  {
    name: 'satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod',
    nodes: node1,
    pods: [{ node: 'machine1', labels: podLabel }],
    pod: { labels: podLabel2, aff: [{ sel: notIn('service', 'securityscan3', 'value3'), key: 'region' }] },
    want: [''],
  },
  {
    name: 'Does not satisfy the PodAffinity with labelSelector because of diff Namespace',
    nodes: node1,
    pods: [{ node: 'machine1', labels: podLabel, ns: 'ns' }],
    pod: {
      labels: podLabel2,
      aff: [{ sel: inn('service', 'securityscan', 'value2'), key: 'region', ns: ['DiffNameSpace'] }],
    },
    want: [AFF],
  },
  {
    name: "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
    nodes: node1,
    pods: [{ node: 'machine1', labels: podLabel }],
    pod: { labels: podLabel, aff: [{ sel: inn('service', 'antivirusscan', 'value2'), key: 'region' }] },
    want: [AFF],
  },
  {
    name: 'satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution',
    nodes: node1,
    pods: [{ node: 'machine1', labels: podLabel }],
    pod: {
      labels: podLabel2,
      aff: [
        {
          sel: all(exists('service'), { matchExpressions: [{ key: 'wrongkey', operator: 'DoesNotExist' }] }),
          key: 'region',
        },
        { sel: all(inn('service', 'securityscan'), notIn('service', 'WrongValue')), key: 'region' },
      ],
    },
    want: [''],
  },
  {
    name: "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression item don't match.",
    nodes: node1,
    pods: [{ node: 'machine1', labels: podLabel }],
    pod: {
      labels: podLabel2,
      aff: [
        {
          sel: all(exists('service'), { matchExpressions: [{ key: 'wrongkey', operator: 'DoesNotExist' }] }),
          key: 'region',
        },
        { sel: all(inn('service', 'securityscan2'), notIn('service', 'WrongValue')), key: 'region' },
      ],
    },
    want: [AFF],
  },
  {
    name: 'satisfies the PodAffinity and PodAntiAffinity with the existing pod',
    nodes: node1,
    pods: [{ node: 'machine1', labels: podLabel }],
    pod: {
      labels: podLabel2,
      aff: [{ sel: inn('service', 'securityscan', 'value2'), key: 'region' }],
      anti: [{ sel: inn('service', 'antivirusscan', 'value2'), key: 'node' }],
    },
    want: [''],
  },
  {
    name: "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
    nodes: node1,
    pods: [{ node: 'machine1', labels: podLabel }],
    pod: {
      labels: podLabel2,
      aff: [{ sel: inn('service', 'securityscan', 'value2'), key: 'region' }],
      anti: [{ sel: inn('service', 'securityscan', 'value2'), key: 'zone' }],
    },
    want: [ANTI],
  },
  {
    name: "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
    nodes: node1,
    pods: [
      { node: 'machine1', labels: podLabel, anti: [{ sel: inn('service', 'securityscan', 'value2'), key: 'zone' }] },
    ],
    pod: {
      labels: podLabel,
      aff: [{ sel: inn('service', 'securityscan', 'value2'), key: 'region' }],
      anti: [{ sel: inn('service', 'antivirusscan', 'value2'), key: 'node' }],
    },
    want: [EXIST],
  },
  {
    name: 'pod matches its own Label in PodAffinity and that matches the existing pod Labels',
    nodes: node1,
    pods: [{ node: 'machine2', labels: podLabel }],
    pod: { labels: podLabel, aff: [{ sel: notIn('service', 'securityscan', 'value2'), key: 'region' }] },
    want: [AFF],
  },
  {
    name: "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
    nodes: node1,
    pods: [
      { node: 'machine1', labels: podLabel, anti: [{ sel: inn('service', 'securityscan', 'value2'), key: 'zone' }] },
    ],
    pod: { labels: podLabel },
    want: [EXIST],
  },
  {
    name: 'verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod',
    nodes: node1,
    pods: [
      { node: 'machine1', labels: podLabel, anti: [{ sel: notIn('service', 'securityscan', 'value2'), key: 'zone' }] },
    ],
    pod: { labels: podLabel },
    want: [''],
  },
];

const abc = {
  nodeA: { region: 'r1', zone: 'z1', hostname: 'nodeA' },
  nodeB: { region: 'r1', zone: 'z2', hostname: 'nodeB' },
};

const multiple: Case[] = [
  {
    name: 'A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has an existing pod that matches the affinity rules',
    nodes: {
      machine1: { region: 'r1', zone: 'z11' },
      machine2: { region: 'r1', zone: 'z12' },
      machine3: { region: 'r2', zone: 'z21' },
    },
    pods: [{ node: 'machine1', labels: { foo: 'bar' } }],
    pod: { aff: [{ sel: inn('foo', 'bar'), key: 'region' }] },
    want: ['', '', AFF],
  },
  {
    name: 'The first pod of the collection should not be blocked: it matches its own affinity and no pod matches yet',
    nodes: { nodeA: { region: 'r1', zone: 'z1' }, nodeB: { region: 'r1', zone: 'z2' } },
    pods: [],
    pod: { labels: { foo: 'bar' }, aff: [{ sel: inn('foo', 'bar'), key: 'zone' }] },
    want: ['', ''],
  },
  {
    // v1.32 satisfyPodAffinity returns false as soon as the node lacks a topology key; v1.12's
    // exception for the first pod of a group does not look at the node's labels.
    name: 'The first pod of a self-affine group, on a node without the topology label',
    nodes: { nodeA: { region: 'r1' }, nodeB: { region: 'r1', zone: 'z2' } },
    pods: [],
    pod: { labels: { foo: 'bar' }, aff: [{ sel: inn('foo', 'bar'), key: 'zone' }] },
    want: [AFF, ''],
    legacyWant: ['', ''],
  },
  {
    name: "Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one anti-affinity rule of existingPod",
    nodes: abc,
    pods: [
      { node: 'nodeA', labels: { foo: '' } },
      { node: 'nodeB', labels: { bar: '' } },
    ],
    pod: {
      anti: [
        { sel: exists('foo'), key: 'zone' },
        { sel: exists('bar'), key: 'region' },
      ],
    },
    want: [ANTI, ANTI],
  },
  {
    name: "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
    nodes: abc,
    pods: [
      {
        node: 'nodeA',
        anti: [
          { sel: exists('foo'), key: 'invalid-node-label' },
          { sel: exists('bar'), key: 'zone' },
        ],
      },
    ],
    pod: { labels: { foo: '', bar: '' } },
    want: [EXIST, ''],
  },
  {
    name: "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
    nodes: abc,
    pods: [{ node: 'nodeA', labels: { foo: '', bar: '' } }],
    pod: {
      anti: [
        { sel: exists('foo'), key: 'invalid-node-label' },
        { sel: exists('bar'), key: 'zone' },
      ],
    },
    want: [ANTI, ''],
  },
  {
    name: "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
    nodes: abc,
    pods: [
      {
        node: 'nodeA',
        anti: [
          { sel: exists('foo'), key: 'region' },
          { sel: exists('bar'), key: 'zone' },
        ],
      },
    ],
    pod: { labels: { foo: '', bar: '' } },
    want: [EXIST, EXIST],
  },
  {
    name: "Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term matches incoming pod, so incoming pod can only be scheduled to nodeC",
    nodes: { ...abc, nodeC: { region: 'r1', zone: 'z3', hostname: 'nodeC' } },
    pods: [
      {
        node: 'nodeA',
        anti: [
          { sel: exists('foo'), key: 'zone' },
          { sel: exists('labelA'), key: 'zone' },
        ],
      },
      {
        node: 'nodeB',
        anti: [
          { sel: exists('bar'), key: 'zone' },
          { sel: exists('labelB'), key: 'zone' },
        ],
      },
    ],
    pod: { labels: { foo: '', bar: '' } },
    want: [EXIST, EXIST, ''],
  },
  {
    name: "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match",
    nodes: {
      nodeA: { region: 'r1', zone: 'z1', hostname: 'nodeA' },
      nodeB: { region: 'r1', zone: 'z1', hostname: 'nodeB' },
    },
    pods: [{ node: 'nodeA', labels: { foo: '', bar: '' } }],
    pod: {
      aff: [
        { sel: exists('foo'), key: 'region' },
        { sel: exists('bar'), key: 'zone' },
      ],
    },
    want: ['', ''],
  },
  {
    name: "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match, and the match logic should be satisfied on the same pod",
    nodes: abc,
    pods: [
      { node: 'nodeA', labels: { foo: '' } },
      { node: 'nodeB', labels: { bar: '' } },
    ],
    pod: {
      aff: [
        { sel: exists('foo'), key: 'region' },
        { sel: exists('bar'), key: 'zone' },
      ],
    },
    want: [AFF, AFF],
  },
];

for (const [table, cases] of [
  ['TestRequiredAffinitySingleNode / TestInterPodAffinity', single],
  ['TestRequiredAffinityMultipleNodes / TestInterPodAffinityWithMultipleNodes', multiple],
] as const) {
  test(`InterPodAffinity filter, v1.32 (${table.split(' / ')[0]}, filtering_test.go)`, () => {
    for (const c of cases) assert.deepEqual(filter('framework', c.nodes, c.pods, c.pod), c.want, c.name);
  });
  test(`MatchInterPodAffinity, v1.12 (${table.split(' / ')[1]}, predicates_test.go)`, () => {
    for (const c of cases)
      assert.deepEqual(
        filter('legacy', c.nodes, c.pods, c.pod),
        (c.legacyWant ?? c.want).map((w) => (w ? legacy(w) : '')),
        c.name,
      );
  });
}

test("v1.12 checks the existing pods anti-affinity first, v1.32 the pod's own affinity first", () => {
  const nodes = { n1: { zone: 'z1' } };
  const pods: P[] = [{ node: 'n1', labels: { app: 'db' }, anti: [{ sel: inn('app', 'web'), key: 'zone' }] }];
  const incoming: P = { labels: { app: 'web' }, aff: [{ sel: inn('app', 'cache'), key: 'zone' }] };
  assert.deepEqual(filter('framework', nodes, pods, incoming), [AFF]);
  assert.deepEqual(filter('legacy', nodes, pods, incoming), [legacy(EXIST)]);
});

/** Scores of the feasible nodes (every node here), as each release normalizes them. */
function score(era: Era, nodes: Record<string, Labels>, pods: P[], incoming: P): number[] {
  const cache = cluster(nodes, pods);
  const p = pod(incoming);
  const infos = Object.keys(nodes).map((n) => cache.nodeInfo(n)!);
  return interPodAffinityPriority(SCORE[era])(p, new PodMeta(p, cache), infos);
}

const m = {
  machine1: { region: 'China', az: 'az1' },
  machine2: { region: 'India', az: 'az2' },
  machine3: { region: 'China', az: 'az1' },
};
const sec = { security: 'S1' };
const sec2 = { security: 'S2' };
const stayWithS1: T = { sel: inn('security', 'S1'), key: 'region', weight: 5 };
const awayFromS1: T = { sel: inn('security', 'S1'), key: 'region', weight: 5 };

interface ScoreCase {
  name: string;
  nodes: Record<string, Labels>;
  pods: P[];
  pod: P;
  framework: number[];
  legacy: number[];
}

const scoring: ScoreCase[] = [
  {
    name: 'all machines are same priority as Affinity is nil',
    nodes: m,
    pods: [],
    pod: { labels: sec },
    framework: [0, 0, 0],
    legacy: [0, 0, 0],
  },
  {
    name: 'Affinity: pod that matches topology key & pods in nodes will get high score comparing to others',
    nodes: m,
    pods: [
      { node: 'machine1', labels: sec },
      { node: 'machine2', labels: sec2 },
    ],
    pod: { labels: sec, prefAff: [stayWithS1] },
    framework: [100, 0, 100],
    legacy: [10, 0, 10],
  },
  {
    name: 'Anti Affinity: pod that does not match existing pods in node will get high score',
    nodes: { machine1: { region: 'China' }, machine2: { region: 'India' } },
    pods: [
      { node: 'machine1', labels: sec },
      { node: 'machine2', labels: sec2 },
    ],
    pod: { labels: sec, prefAnti: [awayFromS1] },
    // v1.12: counts −5, 0 with max and min starting at 0: 10 × (c + 5) / 5.
    framework: [0, 100],
    legacy: [0, 10],
  },
  {
    name: 'Affinity symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry',
    nodes: m,
    pods: [{ node: 'machine1', labels: sec, prefAff: [{ sel: inn('security', 'S1'), key: 'region', weight: 5 }] }],
    pod: { labels: sec },
    framework: [100, 0, 100],
    legacy: [10, 0, 10],
  },
  {
    name: 'Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry (hardPodAffinityWeight 1)',
    nodes: m,
    pods: [{ node: 'machine1', labels: sec2, aff: [{ sel: inn('security', 'S1'), key: 'region' }] }],
    pod: { labels: sec },
    framework: [100, 0, 100],
    legacy: [10, 0, 10],
  },
  {
    // Counts 5 on every China node and 10 on machine2: v1.32 maps min..max onto 0..100, v1.12
    // keeps 0 as the floor.
    name: 'every node has weight: v1.32 normalizes from the lowest, v1.12 from 0',
    nodes: m,
    pods: [
      { node: 'machine1', labels: sec },
      { node: 'machine2', labels: sec },
      { node: 'machine2', labels: sec },
    ],
    pod: { labels: sec2, prefAff: [{ sel: inn('security', 'S1'), key: 'az', weight: 5 }] },
    framework: [0, 100, 0],
    legacy: [5, 10, 5],
  },
];

test('InterPodAffinity score, v1.32 (TestPreferredAffinity, scoring_test.go) and InterPodAffinityPriority, v1.12 (TestInterPodAffinityPriority)', () => {
  for (const c of scoring) {
    assert.deepEqual(score('framework', c.nodes, c.pods, c.pod), c.framework, `v1.32: ${c.name}`);
    assert.deepEqual(score('legacy', c.nodes, c.pods, c.pod), c.legacy, `v1.12: ${c.name}`);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Node, Pod, Taint } from '../../src/api/core';
import { SchedulerCache } from '../../src/scheduler/cache';
import { PodMeta } from '../../src/scheduler/meta';
import { podTopologySpreadFilter } from '../../src/scheduler/predicates/topology-spread';

/*
 * PodTopologySpread's DoNotSchedule filter (v1.32 podtopologyspread/filtering.go), with the
 * cases of upstream's filtering_test.go TestSingleConstraint and TestMultipleConstraints
 * (first published as TestPodTopologySpread_Filter_SingleConstraint / _MultipleConstraints,
 * v1.17, whose node sets and verdicts v1.32 keeps), plus minDomains and nodeTaintsPolicy
 * cases of TestSingleConstraint. v1.12 has no topologySpreadConstraints (v1.16 alpha).
 */

interface C {
  maxSkew: number;
  key: string;
  sel: string;
  minDomains?: number;
  nodeTaintsPolicy?: 'Honor' | 'Ignore';
  nodeAffinityPolicy?: 'Honor' | 'Ignore';
  when?: 'DoNotSchedule' | 'ScheduleAnyway';
}

let seq = 0;
function pod(
  labels: string[],
  constraints: C[] = [],
  extra: Partial<Pod['spec']> = {},
  node?: string,
  ns?: string,
): Pod {
  return {
    metadata: { name: `p${seq++}`, namespace: ns ?? 'default', labels: Object.fromEntries(labels.map((l) => [l, ''])) },
    spec: {
      containers: [],
      nodeName: node,
      ...extra,
      topologySpreadConstraints: constraints.map((c) => ({
        maxSkew: c.maxSkew,
        topologyKey: c.key,
        whenUnsatisfiable: c.when ?? 'DoNotSchedule',
        labelSelector: { matchExpressions: [{ key: c.sel, operator: 'Exists' }] },
        ...(c.minDomains ? { minDomains: c.minDomains } : {}),
        ...(c.nodeTaintsPolicy ? { nodeTaintsPolicy: c.nodeTaintsPolicy } : {}),
        ...(c.nodeAffinityPolicy ? { nodeAffinityPolicy: c.nodeAffinityPolicy } : {}),
      })),
    } as Pod['spec'],
  };
}

const zones4: Record<string, Record<string, string>> = {
  'node-a': { zone: 'zone1', node: 'node-a' },
  'node-b': { zone: 'zone1', node: 'node-b' },
  'node-x': { zone: 'zone2', node: 'node-x' },
  'node-y': { zone: 'zone2', node: 'node-y' },
};

/** existing: node → how many pods labelled foo (or the labels given). */
function fits(
  nodes: Record<string, Record<string, string>>,
  existing: [string, string[], string?][],
  incoming: Pod,
  taints: Record<string, Taint[]> = {},
): Record<string, boolean> {
  const cache = new SchedulerCache();
  for (const [name, labels] of Object.entries(nodes)) {
    const n: Node = {
      metadata: { name, labels },
      spec: { taints: taints[name] ?? [] },
      status: { allocatable: { cpu: '1', memory: '1Gi', pods: '10' } },
    };
    cache.setNode(n);
  }
  for (const [node, labels, ns] of existing) cache.addPod(pod(labels, [], {}, node, ns));
  const meta = new PodMeta(incoming, cache);
  return Object.fromEntries(
    Object.keys(nodes).map((n) => [n, podTopologySpreadFilter(incoming, meta, cache.nodeInfo(n)!).length === 0]),
  );
}

const foo = (node: string, n: number): [string, string[]][] => Array.from({ length: n }, () => [node, ['foo']]);
const spread2103 = [...foo('node-a', 2), ...foo('node-b', 1), ...foo('node-y', 3)];

test('PodTopologySpread Filter, one constraint (TestSingleConstraint, v1.32 filtering_test.go)', () => {
  const zone = (maxSkew = 1, sel = 'foo', more: Partial<C> = {}) => [{ maxSkew, key: 'zone', sel, ...more }];
  const node = (maxSkew = 1, more: Partial<C> = {}) => [{ maxSkew, key: 'node', sel: 'foo', ...more }];
  const all = { 'node-a': true, 'node-b': true, 'node-x': true, 'node-y': true };
  const cases: [string, Parameters<typeof fits>, Record<string, boolean>][] = [
    ['no existing pods', [zones4, [], pod(['foo'], zone())], all],
    ["no existing pods, incoming pod doesn't match itself", [zones4, [], pod(['foo'], zone(1, 'bar'))], all],
    [
      "existing pods in a different namespace don't count",
      [
        zones4,
        [
          ['node-a', ['foo'], 'ns1'],
          ['node-a', ['foo'], 'ns2'],
          ['node-x', ['foo']],
          ['node-y', ['foo']],
        ],
        pod(['foo'], zone()),
      ],
      { 'node-a': true, 'node-b': true, 'node-x': false, 'node-y': false },
    ],
    [
      'pods spread across zones as 3/3, all nodes fit',
      [zones4, [...foo('node-a', 2), ...foo('node-b', 1), ...foo('node-y', 3)], pod(['foo'], zone())],
      all,
    ],
    [
      "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
      [
        { ...zones4, 'node-b': { zon: 'zone1', node: 'node-b' } },
        [...foo('node-a', 1), ...foo('node-b', 1), ...foo('node-x', 1), ...foo('node-y', 1)],
        pod(['foo'], zone()),
      ],
      { 'node-a': true, 'node-b': false, 'node-x': false, 'node-y': false },
    ],
    [
      'pods spread across nodes as 2/1/0/3, only node-x fits',
      [zones4, spread2103, pod(['foo'], node())],
      { 'node-a': false, 'node-b': false, 'node-x': true, 'node-y': false },
    ],
    [
      'pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit',
      [zones4, spread2103, pod(['foo'], node(2))],
      { 'node-a': false, 'node-b': true, 'node-x': true, 'node-y': false },
    ],
    [
      "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
      [zones4, spread2103, pod(['bar'], node())],
      { 'node-a': false, 'node-b': true, 'node-x': true, 'node-y': false },
    ],
    [
      'incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits',
      [
        zones4,
        spread2103,
        pod(['foo'], node(), {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'node', operator: 'In', values: ['node-a', 'node-y'] }] },
                ],
              },
            },
          },
        }),
      ],
      { 'node-a': true, 'node-b': true, 'node-x': true, 'node-y': false },
    ],
    [
      // nodeAffinityPolicy Ignore: every node is a domain again, so the minimum is node-x's 0.
      'incoming pod has nodeAffinity but nodeAffinityPolicy Ignore, pods spread as 2/1/0/3',
      [
        zones4,
        spread2103,
        pod(['foo'], node(1, { nodeAffinityPolicy: 'Ignore' }), {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'node', operator: 'In', values: ['node-a', 'node-y'] }] },
                ],
              },
            },
          },
        }),
      ],
      { 'node-a': false, 'node-b': false, 'node-x': true, 'node-y': false },
    ],
    [
      // minDomains 5 > 4 domains: the global minimum counts as 0.
      'pods spread across nodes as 2/1/0/3, minDomains is greater than the number of domains',
      [zones4, spread2103, pod(['foo'], node(2, { minDomains: 5 }))],
      { 'node-a': false, 'node-b': true, 'node-x': true, 'node-y': false },
    ],
    [
      // zones 3/3 with minDomains 3: only 2 domains, so the minimum is 0 and 3 + 1 − 0 > 1.
      'pods spread across zones as 3/3, minDomains 3 > 2 zones: no node fits',
      [
        zones4,
        [...foo('node-a', 2), ...foo('node-b', 1), ...foo('node-y', 3)],
        pod(['foo'], zone(1, 'foo', { minDomains: 3 })),
      ],
      { 'node-a': false, 'node-b': false, 'node-x': false, 'node-y': false },
    ],
  ];
  for (const [name, args, want] of cases) assert.deepEqual(fits(...args), want, name);
});

test('nodeTaintsPolicy: Ignore (default) counts a tainted node as a domain, Honor leaves it out (TestSingleConstraint)', () => {
  const taints = { 'node-x': [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' as const }] };
  const ignore = fits(zones4, spread2103, pod(['foo'], [{ maxSkew: 1, key: 'node', sel: 'foo' }]), taints);
  assert.deepEqual(ignore, { 'node-a': false, 'node-b': false, 'node-x': true, 'node-y': false });
  const honor = fits(
    zones4,
    spread2103,
    pod(['foo'], [{ maxSkew: 1, key: 'node', sel: 'foo', nodeTaintsPolicy: 'Honor' }]),
    taints,
  );
  // node-x (0) left out: the minimum is node-b's 1, so node-b fits too (node-x itself is
  // refused by TaintToleration, not by this filter).
  assert.deepEqual(honor, { 'node-a': false, 'node-b': true, 'node-x': true, 'node-y': false });
});

test('PodTopologySpread Filter, two constraints (TestMultipleConstraints, v1.32 filtering_test.go)', () => {
  const both = [
    { maxSkew: 1, key: 'zone', sel: 'foo' },
    { maxSkew: 1, key: 'node', sel: 'foo' },
  ];
  assert.deepEqual(
    fits(zones4, spread2103, pod(['foo'], both)),
    { 'node-a': false, 'node-b': false, 'node-x': true, 'node-y': false },
    'two constraints on zone and node, spreads = [3/3, 2/1/0/3]',
  );
  assert.deepEqual(
    fits(zones4, [...spread2103, ...foo('node-y', 1)], pod(['foo'], both)),
    { 'node-a': false, 'node-b': false, 'node-x': false, 'node-y': false },
    'two constraints on zone and node, spreads = [3/4, 2/1/0/4]',
  );
  assert.deepEqual(
    fits(
      zones4,
      [
        ['node-a', ['foo', 'bar']],
        ['node-y', ['bar']],
      ],
      pod(
        ['foo', 'bar'],
        [
          { maxSkew: 1, key: 'zone', sel: 'foo' },
          { maxSkew: 1, key: 'node', sel: 'bar' },
        ],
      ),
    ),
    { 'node-a': false, 'node-b': false, 'node-x': true, 'node-y': false },
    'constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]',
  );
  assert.deepEqual(
    fits(zones4, spread2103, pod(['foo'], [{ maxSkew: 1, key: 'node', sel: 'foo', when: 'ScheduleAnyway' }])),
    { 'node-a': true, 'node-b': true, 'node-x': true, 'node-y': true },
    'soft spreadConstraints should be bypassed',
  );
});

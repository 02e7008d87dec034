// The zone rules of the node lifecycle controller as pure functions: GetZoneKey
// (pkg/util/node), ComputeZoneState, setLimiterInZone and handleDisruption. The state and rate
// vectors follow the zones of upstream's TestMonitorNodeStatusEvictPodsWithDisruption
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go, v1.12), cut down to the rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeCondition } from '../../../src/api/core';
import { computeZoneState, zoneEvictionRate } from '../../../src/controllers/nodelifecycle/zones';
import { zoneKey } from '../../../src/api/topology';

const c = (status: NodeCondition['status']): NodeCondition => ({ type: 'Ready', status });
const T = c('True'),
  F = c('False'),
  U = c('Unknown');

test('zoneKey follows GetZoneKey: beta labels win, even when empty; region:\\0:zone', () => {
  assert.equal(zoneKey(undefined), '');
  assert.equal(zoneKey({}), '');
  assert.equal(zoneKey({ 'topology.kubernetes.io/zone': 'z1' }), ':\x00:z1');
  assert.equal(zoneKey({ 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z1' }), 'r:\x00:z1');
  assert.equal(
    zoneKey({ 'failure-domain.beta.kubernetes.io/zone': 'old', 'topology.kubernetes.io/zone': 'new' }),
    ':\x00:old',
  );
  assert.equal(zoneKey({ 'failure-domain.beta.kubernetes.io/zone': '', 'topology.kubernetes.io/zone': 'new' }), '');
  assert.equal(zoneKey({ 'failure-domain.beta.kubernetes.io/region': 'r' }), 'r:\x00:');
});

test("zoneKey's v1.12 rule (the scheduler's SelectorSpread): the beta labels only", () => {
  assert.equal(zoneKey({ 'topology.kubernetes.io/zone': 'z1' }, true), '');
  assert.equal(
    zoneKey({ 'failure-domain.beta.kubernetes.io/zone': 'z1', 'topology.kubernetes.io/region': 'r' }, true),
    ':\x00:z1',
  );
  assert.equal(
    zoneKey({ 'failure-domain.beta.kubernetes.io/region': 'r', 'failure-domain.beta.kubernetes.io/zone': 'z' }, true),
    'r:\x00:z',
  );
});

test('ComputeZoneState: Full when no node is ready and one is not', () => {
  assert.deepEqual(computeZoneState([U], 0.55), { notReady: 1, state: 'FullDisruption' });
  assert.deepEqual(computeZoneState([undefined, F], 0.55), { notReady: 2, state: 'FullDisruption' });
  assert.deepEqual(computeZoneState([], 0.55), { notReady: 0, state: 'Normal' });
});

test('ComputeZoneState: Partial needs more than 2 not-ready and fraction >= threshold', () => {
  // 2 of 3 not ready: fraction 0.67 but only 2 → Normal.
  assert.equal(computeZoneState([T, U, U], 0.55).state, 'Normal');
  // 3 of 5 = 0.6 >= 0.55 → Partial; 3 of 6 = 0.5 → Normal.
  assert.equal(computeZoneState([T, T, U, U, U], 0.55).state, 'PartialDisruption');
  assert.equal(computeZoneState([T, T, T, U, U, U], 0.55).state, 'Normal');
  // The boundary is inclusive: 11 of 20 = 0.55.
  assert.equal(computeZoneState([...Array(9).fill(T), ...Array(11).fill(U)], 0.55).state, 'PartialDisruption');
  assert.equal(computeZoneState([...Array(10).fill(T), ...Array(10).fill(U)], 0.55).state, 'Normal');
  // A node with no Ready condition counts as not ready (upstream test Z3).
  assert.equal(computeZoneState([T, undefined, undefined, undefined], 0.55).state, 'PartialDisruption');
});

test('setLimiterInZone: Partial slows large zones (> threshold) and stops small ones; Full keeps the normal rate', () => {
  const r = { nodeEvictionRate: 0.1, secondaryNodeEvictionRate: 0.01, largeClusterSizeThreshold: 50 };
  assert.equal(zoneEvictionRate('Normal', 10, r), 0.1);
  assert.equal(zoneEvictionRate('PartialDisruption', 50, r), 0);
  assert.equal(zoneEvictionRate('PartialDisruption', 51, r), 0.01);
  assert.equal(zoneEvictionRate('FullDisruption', 3, r), 0.1);
  assert.equal(zoneEvictionRate('FullDisruption', 300, r), 0.1);
});

import { ZoneDisruption } from '../../../src/controllers/nodelifecycle/disruption';

const rates = {
  nodeEvictionRate: 0.1,
  secondaryNodeEvictionRate: 0.01,
  largeClusterSizeThreshold: 50,
  unhealthyZoneThreshold: 0.55,
};

test('handleDisruption: a zone leaving Initial gets its rate; unchanged zones are left alone', () => {
  const d = new ZoneDisruption(rates);
  d.addZone('a');
  d.addZone('b');
  assert.deepEqual(
    d.handle(
      new Map([
        ['a', [T, T]],
        ['b', [T]],
      ]),
    ),
    {
      kind: 'normal',
      rates: new Map([
        ['a', 0.1],
        ['b', 0.1],
      ]),
    },
  );
  assert.deepEqual(
    d.handle(
      new Map([
        ['a', [T, T]],
        ['b', [T]],
      ]),
    ),
    { kind: 'normal', rates: new Map() },
  );
  // Zone a fully down while b is healthy: a still evicts at the normal rate.
  assert.deepEqual(
    d.handle(
      new Map([
        ['a', [U, U]],
        ['b', [T]],
      ]),
    ),
    { kind: 'normal', rates: new Map([['a', 0.1]]) },
  );
  assert.equal(d.states.get('a'), 'FullDisruption');
});

test('handleDisruption: every zone Full → enter master disruption once; then stay; a ready node → exit with every rate', () => {
  const d = new ZoneDisruption(rates);
  d.handle(
    new Map([
      ['a', [T]],
      ['b', [T]],
    ]),
  );
  assert.deepEqual(
    d.handle(
      new Map([
        ['a', [U]],
        ['b', [F]],
      ]),
    ),
    { kind: 'enter-master-disruption' },
  );
  assert.deepEqual(
    d.handle(
      new Map([
        ['a', [U]],
        ['b', [F]],
      ]),
    ),
    { kind: 'stay-master-disruption' },
  );
  assert.deepEqual(
    d.handle(
      new Map([
        ['a', [T]],
        ['b', [F]],
      ]),
    ),
    {
      kind: 'exit-master-disruption',
      rates: new Map([
        ['a', 0.1],
        ['b', 0.1],
      ]),
    },
  );
});

test('handleDisruption: a zone with no nodes left is forgotten', () => {
  const d = new ZoneDisruption(rates);
  d.handle(
    new Map([
      ['a', [T]],
      ['b', [T]],
    ]),
  );
  d.handle(new Map([['a', [T]]]));
  assert.deepEqual([...d.states.keys()], ['a']);
});

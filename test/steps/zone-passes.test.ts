import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { bestOrigin, readPasses, readWrites } from '../../steps/zone-passes';

const rules = { zoneSize: 20, monitorPeriodMs: 5000, nodeEvictionRate: 0.1, unhealthyZoneThreshold: 0.55 };
const at = (names: string[], ms: number) => names.map((node, i) => ({ node, at: ms + i * 20 }));

test('marks in one pass: the zone stops at once, nothing may go', () => {
  const r = readPasses(at(['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9', 'n10', 'n11'], 172_400), rules);
  assert.equal(r.passes.length, 1);
  assert.equal(r.disrupting, 0);
  assert.deepEqual([...r.early], []);
  assert.equal(r.tokens, 0);
});

test('upstream v1.32.13: 3 marked a pass before the other 8, the zone Normal after the first: one of the 3 may go', () => {
  const r = readPasses(
    [...at(['n1', 'n2', 'n3'], 172_400), ...at(['n4', 'n5', 'n6', 'n7', 'n8', 'n9', 'n10', 'n11'], 177_400)],
    rules,
  );
  assert.equal(r.passes.length, 2);
  assert.equal(r.disrupting, 1);
  assert.deepEqual([...r.early], ['n1', 'n2', 'n3']);
  assert.equal(r.tokens, 1);
});

test('an earlier pass that already disrupts the zone allows nothing', () => {
  // 11 of 20 in the first pass: PartialDisruption from it on.
  const first = at(['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9', 'n10', 'n11'], 100_000);
  const r = readPasses([...first, ...at(['n12'], 105_000)], rules);
  assert.equal(r.disrupting, 0);
  assert.equal(r.tokens, 0);
});

test('the threshold and the rate are read from the rules: a Normal zone long enough earns a second token', () => {
  const marks = [...at(['n1', 'n2', 'n3'], 0), ...at(['n4'], 5_000), ...at(['n5'], 10_000), ...at(['n6'], 25_000)];
  // 20 nodes at 0.3: 6 not ready is the first Partial (0.3); the window runs 5 s → 25 s.
  const r = readPasses(marks, { ...rules, unhealthyZoneThreshold: 0.3 });
  assert.equal(r.disrupting, 3);
  assert.equal(r.tokens, 3);
  assert.equal(readPasses(marks, { ...rules, unhealthyZoneThreshold: 0.3, nodeEvictionRate: 0.01 }).tokens, 1);
  assert.equal(readPasses(marks, rules).disrupting, -1, 'at 0.55 six of 20 are Normal');
});

test('unmarked nodes are left out, and more than 2 not ready are needed however small the zone', () => {
  const r = readPasses([...at(['n1', 'n2'], 0), { node: 'n3', at: undefined }], { ...rules, zoneSize: 3 });
  assert.equal(r.disrupting, -1);
  assert.equal(r.tokens, 0);
});

// ── Ready=False written by the scenario (readWrites): a pass may fall between any two writes ──

const ten = { ...rules, zoneSize: 10 };
const z1 = (n: number) => Array.from({ length: n }, (_, i) => `z1-node-${i + 1}`);

test('Ready=False writes 40 ms apart: one of the five before the disrupting sixth may go, not the sixth', () => {
  // not-ready.feature:34 in the nineteenth run: 6 of 10 written one after another, z1-node-4 tainted.
  const r = readWrites(at(z1(6), 100_000), ten);
  assert.equal(r.passes.length, 6);
  assert.equal(r.disrupting, 5); // 6 of 10 ≥ 0.55
  assert.deepEqual([...r.early], z1(5));
  assert.equal(r.tokens, 1); // (0.1 s + a period) at 0.1/s is under a second token
});

test('Ready=False writes in one instant: nothing may go, as on a virtual clock', () => {
  const r = readWrites(
    z1(6).map((node) => ({ node, at: 100_000 })),
    ten,
  );
  assert.equal(r.passes.length, 1);
  assert.equal(r.disrupting, 0);
  assert.equal(r.tokens, 0);
});

test('Ready=False writes spread over more than the rate allows earn a second token', () => {
  // 6 writes over 6 s at 0.1/s: 6 s + a 5 s period ≥ 10 s, a second token.
  const r = readWrites(
    z1(6).map((node, i) => ({ node, at: i * 1200 })),
    ten,
  );
  assert.equal(r.disrupting, 5);
  assert.equal(r.tokens, 2);
});

test('bestOrigin: the first deletion 1.2 s late against ten 10 s apart fits a schedule from -0.6 s', () => {
  // other-values.feature:37, twentieth full run (seconds after the first node's pods went).
  const actual = [0, 8.8, 18.8, 28.9, 38.9, 49.0, 59.0, 69.0, 79.1, 89.1, 99.1];
  const offsets = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
  const origin = bestOrigin(actual, offsets);
  assert.ok(Math.abs(origin - -0.6) < 1e-9, String(origin)); // differences 0 … -1.2: midrange -0.6
  for (const [i, a] of actual.entries()) assert.ok(Math.abs(a - origin - offsets[i]) <= 1);
  // A rate off by 10 % does not fit any origin within 1 s.
  const fast = offsets.map((o) => o * 0.9);
  const o2 = bestOrigin(fast, offsets);
  assert.ok(fast.some((a, i) => Math.abs(a - o2 - offsets[i]) > 1));
});

import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { readPasses } from '../../steps/zone-passes';

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

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clone, deepFreeze, jsonEqual, reuseFrozen } from '../../src/api/meta';

const samples: unknown[] = [
  { a: 1, b: 'x', c: [1, 2, { d: null }], e: { f: true } },
  { a: 1, b: 'x', c: [1, 2, { d: null }], e: { f: true }, g: undefined },
  { b: 'x', a: 1, c: [1, 2, { d: null }], e: { f: true } },
  { a: 1, b: 'x', c: [1, 2, { d: null, z: undefined }], e: { f: true } },
  { a: 1, b: 'x', c: [1, 2, {}], e: { f: true } },
  { a: 1, b: 'x', c: [1, 2], e: { f: true } },
  { a: 1, b: 'x', c: [1, 2, null], e: { f: true } },
  { a: 1, b: 'x', c: [1, 2, undefined], e: { f: true } },
  { a: NaN, b: 'x', c: [Infinity, 2, () => 1], e: { f: true } },
  { a: null, b: 'x', c: [null, 2, null], e: { f: true } },
  { a: 1, b: 'x', c: {}, e: { f: true } },
  { a: 1, b: 'x', c: [], e: { f: true } },
  { a: 1, b: 'x', c: [1, 2, { d: null }], e: { f: 'true' } },
  { a: 1, b: 'x', c: [1, 2, { d: null }], e: { f: true }, t: new Date(0) },
  { a: 1, b: 'x', c: [1, 2, { d: null }], e: { f: true }, t: '1970-01-01T00:00:00.000Z' },
  { a: 1, b: 'x', c: [1, 2, { d: null }], metadata: { n: 1 }, status: { s: 1 } },
  { a: 1, b: 'x', c: [1, 2, { d: null }], metadata: { n: 2 } },
];

test('clone is a JSON round trip without the string', () => {
  for (const s of samples) {
    const c = clone(s);
    assert.equal(JSON.stringify(c), JSON.stringify(s));
    assert.deepEqual(c, JSON.parse(JSON.stringify(s)));
    assert.notEqual(c, s);
  }
  assert.equal(clone(undefined), undefined);
});

test('jsonEqual agrees with comparing JSON serializations, member order included', () => {
  for (const a of samples) {
    for (const b of samples) {
      assert.equal(
        jsonEqual(a, b),
        JSON.stringify(a) === JSON.stringify(b),
        `${JSON.stringify(a)} vs ${JSON.stringify(b)}`,
      );
      const strip = (o: unknown) => {
        const { metadata: _m, status: _s, ...rest } = o as Record<string, unknown>;
        return JSON.stringify(rest);
      };
      assert.equal(jsonEqual(a, b, ['metadata', 'status']), strip(a) === strip(b));
    }
  }
});

test('reuseFrozen shares the frozen subtrees a new version left alike, and nothing else', () => {
  const prev = deepFreeze({
    metadata: { name: 'a', labels: { x: '1' }, resourceVersion: '7' },
    spec: { containers: [{ name: 'c', image: 'i' }], nodeName: 'n' },
    status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }] },
  });
  const next = clone(prev) as typeof prev & { status: { phase: string } };
  (next as { metadata: Record<string, unknown> }).metadata = { name: 'a', labels: { x: '1' } };
  (next.status as { phase: string }).phase = 'Running';
  const before = JSON.stringify(next);
  const out = reuseFrozen(next, prev);
  assert.equal(out, next);
  assert.equal(JSON.stringify(out), before);
  assert.equal(out.spec, prev.spec, 'an unchanged subtree is the stored one');
  assert.equal(out.metadata.labels, prev.metadata.labels);
  assert.equal(out.status.conditions, prev.status.conditions);
  assert.notEqual(out.status, prev.status, 'a changed subtree is the new one');
  assert.notEqual(out.metadata, prev.metadata, 'a member less is a change');
  // Member order is part of the JSON: reordered members are not shared.
  const reordered = { metadata: prev.metadata, spec: { nodeName: 'n', containers: [{ name: 'c', image: 'i' }] } };
  assert.notEqual(reuseFrozen(reordered, prev).spec, prev.spec);
  assert.equal(reordered.spec.containers[0], prev.spec.containers[0]);
  // Alike as a whole: the frozen stored version itself.
  assert.equal(reuseFrozen(clone(prev), prev), prev);
  // Never shared: a prev that is not frozen, a frozen part of next, a value with toJSON.
  const open = clone(prev);
  assert.notEqual(reuseFrozen(clone(prev), open).spec, open.spec);
  const frozenPart = { spec: Object.freeze({ nodeName: 'n' }) };
  assert.equal(reuseFrozen(frozenPart, deepFreeze({ spec: { nodeName: 'n' } })).spec, frozenPart.spec);
  const t = { at: new Date(1) };
  assert.equal(reuseFrozen(t, deepFreeze({ at: new Date(2) })).at, t.at);
  // Arrays: an element alike is shared, a longer or shorter array is a change.
  const longer = { spec: { containers: [{ name: 'c', image: 'i' }, { name: 'd' }], nodeName: 'n' } };
  reuseFrozen(longer, prev);
  assert.notEqual(longer.spec, prev.spec);
  assert.equal(longer.spec.containers[0], prev.spec.containers[0]);
});

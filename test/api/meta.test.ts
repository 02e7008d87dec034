import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clone, jsonEqual } from '../../src/api/meta';

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

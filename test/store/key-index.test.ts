// The store contract itself (every backend) is test/store/contract.ts; these are the memory backend's key index.
import { KeyIndex } from '../../src/store/key-index';
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('the key index ranges and counts as sorting every key would, through creates and deletes', () => {
  const index = new KeyIndex();
  const present = new Set<string>();
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const names = ['a', 'a-b', 'b', 'a.b', 'ab', 'c'];
  const keyOf = () =>
    rand(10) === 0
      ? `/other/${names[rand(6)]}`
      : `/registry/${['pods', 'pods-x', 'leases'][rand(3)]}/${names[rand(6)]}/${names[rand(6)]}`;
  const prefixes = [
    '/registry/pods/',
    '/registry/pods/a/',
    '/registry/pods/a',
    '/registry/',
    '/registry/pod',
    '/',
    '/other/',
    '/registry/leases/b/',
  ];
  for (let step = 0; step < 3000; step++) {
    const key = keyOf();
    if (present.has(key) && rand(2) === 0) {
      index.remove(key);
      present.delete(key);
    } else if (!present.has(key)) {
      index.add(key);
      present.add(key);
    }
    const prefix = prefixes[rand(prefixes.length)];
    const want = [...present].filter((k) => k.startsWith(prefix)).sort();
    assert.deepEqual(index.range(prefix), want, `range ${prefix} at step ${step}`);
    assert.equal(index.count(prefix), want.length);
  }
});

test('a key deleted and created again between ranges is listed once', () => {
  const index = new KeyIndex();
  for (const k of ['/registry/pods/ns/a', '/registry/pods/ns/b']) index.add(k);
  assert.deepEqual(index.range('/registry/pods/'), ['/registry/pods/ns/a', '/registry/pods/ns/b']);
  index.remove('/registry/pods/ns/b');
  index.add('/registry/pods/ns/b');
  assert.deepEqual(index.range('/registry/pods/'), ['/registry/pods/ns/a', '/registry/pods/ns/b']);
  assert.equal(index.count('/registry/pods/'), 2);
});

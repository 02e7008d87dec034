import { KeyIndex } from '../src/store/key-index';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, StoreError, WatchEvent } from '../src/store';
import { Quiescence } from '../src/clock';

test('every write moves the global revision; keys carry create/mod revisions and version', async () => {
  const s = new MemoryStore();
  const r0 = s.revision();
  const a = await s.create('/registry/pods/default/a', { n: 1 });
  assert.equal(a.createRevision, r0 + 1);
  assert.equal(a.version, 1);
  const a2 = await s.update('/registry/pods/default/a', { n: 2 }, a.modRevision);
  assert.equal(a2.modRevision, r0 + 2);
  assert.equal(a2.createRevision, a.createRevision);
  assert.equal(a2.version, 2);
});

test('create refuses an existing key; update and delete are guarded by mod revision', async () => {
  const s = new MemoryStore();
  const a = await s.create('/k', 1);
  await assert.rejects(s.create('/k', 2), (e: StoreError) => e.code === 'KeyExists');
  await s.update('/k', 3, a.modRevision);
  await assert.rejects(s.update('/k', 4, a.modRevision), (e: StoreError) => e.code === 'RevisionMismatch');
  await assert.rejects(s.delete('/k', a.modRevision), (e: StoreError) => e.code === 'RevisionMismatch');
  await s.delete('/k');
  assert.equal(await s.get('/k'), undefined);
  await assert.rejects(s.update('/x', 1), (e: StoreError) => e.code === 'KeyNotFound');
});

test('range by prefix returns keys in order with the current revision', async () => {
  const s = new MemoryStore();
  await s.create('/registry/pods/b/x', 1);
  await s.create('/registry/pods/a/y', 2);
  await s.create('/registry/podsecurity/z', 3);
  const r = await s.range('/registry/pods/');
  assert.deepEqual(r.items.map((kv) => kv.key), ['/registry/pods/a/y', '/registry/pods/b/x']);
  assert.equal(r.revision, s.revision());
  assert.equal(await s.count('/registry/pods/'), 2);
});

test('watch replays history after a revision, then streams in order; compaction answers Compacted', async () => {
  const q = new Quiescence();
  const s = new MemoryStore(q);
  const a = await s.create('/p/a', 1);
  await s.update('/p/a', 2);
  await s.create('/q/other', 0);
  const seen: string[] = [];
  const w = s.watch('/p/', { afterRevision: a.modRevision }, (events: WatchEvent[]) => {
    for (const e of events) seen.push(`${e.type} ${e.kv.key}=${e.kv.value} @${e.kv.modRevision}`);
  });
  await s.delete('/p/a');
  await q.settle();
  assert.deepEqual(seen, [`PUT /p/a=2 @${a.modRevision + 1}`, `DELETE /p/a=2 @${a.modRevision + 3}`]);
  w.stop();
  await s.compact(a.modRevision + 1);
  assert.throws(() => s.watch('/p/', { afterRevision: a.modRevision }, () => undefined), (e: StoreError) => e.code === 'Compacted');
});

test('the key index ranges and counts as sorting every key would, through creates and deletes', () => {
  const index = new KeyIndex();
  const present = new Set<string>();
  let seed = 7;
  const rand = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
  const names = ['a', 'a-b', 'b', 'a.b', 'ab', 'c'];
  const keyOf = () => rand(10) === 0 ? `/other/${names[rand(6)]}` : `/registry/${['pods', 'pods-x', 'leases'][rand(3)]}/${names[rand(6)]}/${names[rand(6)]}`;
  const prefixes = ['/registry/pods/', '/registry/pods/a/', '/registry/pods/a', '/registry/', '/registry/pod', '/', '/other/', '/registry/leases/b/'];
  for (let step = 0; step < 3000; step++) {
    const key = keyOf();
    if (present.has(key) && rand(2) === 0) { index.remove(key); present.delete(key); }
    else if (!present.has(key)) { index.add(key); present.add(key); }
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

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Quiescence } from '../../src/clock';
import { MemoryStore, StoreError, WatchEvent } from '../../src/store';
import { storeContract } from './contract';

storeContract({ name: 'memory', open: async (q) => new MemoryStore(q) });

// The history limit: a watch from before what it kept is Compacted; one from where it begins
// replays equal events, prevKv included, also for a key whose earlier versions were trimmed.
test('memory history past its limit: Compacted before, equal events with prevKv after', async () => {
  const q = new Quiescence();
  const s = new MemoryStore(q, 4);
  const written: WatchEvent[] = [];
  await s.watch('/', {}, (events) => written.push(...events));
  const a = await s.create('/k/a', { n: 0, spec: { list: [1, 2] } });
  for (let n = 1; n <= 4; n++) await s.update('/k/a', { n, spec: { list: [1, 2, n] } });
  await s.delete('/k/a');
  await q.settle();
  assert.ok(s.compactedRevision() > a.modRevision, 'the limit trimmed the history');
  await assert.rejects(
    s.watch('/k/', { afterRevision: a.modRevision }, () => undefined),
    (e: unknown) => e instanceof StoreError && e.code === 'Compacted',
  );
  const replayed: WatchEvent[] = [];
  await s.watch('/k/', { afterRevision: s.compactedRevision() }, (events) => replayed.push(...events));
  await q.settle();
  const expected = written.filter((e) => e.kv.modRevision > s.compactedRevision());
  assert.ok(expected.length >= 2 && expected[0].prevKv !== undefined);
  assert.deepEqual(
    replayed.map((e) => JSON.parse(JSON.stringify(e))),
    expected.map((e) => JSON.parse(JSON.stringify(e))),
  );
  assert.equal(replayed.at(-1)?.type, 'DELETE');
  assert.deepEqual(replayed.at(-1)?.prevKv?.value, { n: 4, spec: { list: [1, 2, 4] } });
  await s.close();
});

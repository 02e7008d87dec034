// The work queue's guarantees, after client-go's util/workqueue tests (queue_test.go,
// delaying_queue_test.go, rate_limiting_queue_test.go): dedup, one sync per key at a time,
// the earliest of two delayed adds, per-key exponential retry, shutdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkQueue } from '../../src/client/workqueue';
import { VirtualClock } from '../../src/clock/virtual';

function queue(
  sync: (key: string) => Promise<void>,
  options: Partial<ConstructorParameters<typeof WorkQueue>[3]> = {},
) {
  const clock = new VirtualClock(0);
  const failures: string[] = [];
  const q = new WorkQueue(clock, clock.quiescence, sync, {
    name: 'test',
    onError: (key, e) => failures.push(`${key}: ${(e as Error).message}`),
    ...options,
  });
  return { q, clock, failures };
}

test('a key added twice before its sync is synced once; added during its sync, once more afterwards', async () => {
  const synced: string[] = [];
  let release!: () => void;
  const { q, clock } = queue(async (k) => {
    synced.push(k);
    if (synced.length === 1) await new Promise<void>((r) => (release = r));
  });
  q.add('a');
  q.add('a');
  await Promise.resolve();
  q.add('a'); // while 'a' is being synced
  q.add('a');
  release();
  await clock.settle();
  assert.deepEqual(synced, ['a', 'a']);
});

test('a key is never synced by two workers at once; distinct keys run side by side', async () => {
  let running = 0;
  let most = 0;
  const perKey = new Map<string, number>();
  const { q, clock } = queue(
    async (k) => {
      running++;
      perKey.set(k, (perKey.get(k) ?? 0) + 1);
      assert.equal(perKey.get(k), 1, `${k} synced twice at once`);
      most = Math.max(most, running);
      await new Promise((r) => setImmediate(r));
      perKey.set(k, perKey.get(k)! - 1);
      running--;
    },
    { workers: 3 },
  );
  for (const k of ['a', 'b', 'c', 'd', 'a']) q.add(k);
  await clock.settle();
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(most, 3);
});

test('delaying: addAfter adds when due; of two delayed adds of one key the earlier wins', async () => {
  const synced: string[] = [];
  const { q, clock } = queue(async (k) => void synced.push(`${k}@${clock.now()}`));
  q.addAfter('a', 1000);
  q.addAfter('a', 500);
  q.addAfter('a', 2000); // later than the pending one: ignored
  q.addAfter('b', 0); // no delay: at once
  await clock.settle();
  assert.deepEqual(synced, ['b@0']);
  await clock.advance(2000);
  assert.deepEqual(synced, ['b@0', 'a@500']);
});

test('rate limiting: a failing key is reported and retried after 5 ms doubling to the cap; success forgets it', async () => {
  let fail = 4;
  const attempts: number[] = [];
  const { q, clock, failures } = queue(
    async () => {
      attempts.push(clock.now());
      if (fail-- > 0) throw new Error('conflict');
    },
    { baseRetryDelayMs: 5, maxRetryDelayMs: 20 },
  );
  q.add('k');
  await clock.advance(1000);
  // 0, then +5, +10, +20 (cap), +20
  assert.deepEqual(attempts, [0, 5, 15, 35, 55]);
  assert.equal(failures.length, 4);
  assert.equal(failures[0], 'k: conflict');
  // Forgotten after the success: the next failure starts at the base delay again.
  fail = 1;
  q.add('k');
  await clock.advance(1000);
  assert.deepEqual(attempts.slice(5), [1000, 1005]);
});

test('shutdown: nothing queued or delayed is synced any more, later adds are ignored, drained() waits for the sync in hand', async () => {
  const synced: string[] = [];
  let release!: () => void;
  const { q, clock } = queue(async (k) => {
    synced.push(k);
    if (k === 'slow') await new Promise<void>((r) => (release = r));
  });
  q.add('slow');
  q.add('queued');
  q.addAfter('delayed', 100);
  await Promise.resolve();
  q.shutdown();
  q.add('later');
  let drained = false;
  const done = q.drained().then(() => (drained = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(drained, false);
  release();
  await done;
  await clock.advance(1000);
  assert.deepEqual(synced, ['slow']);
  assert.equal(q.isShutDown, true);
});

test('a sync that fails after shutdown is reported but not retried', async () => {
  let release!: () => void;
  let attempts = 0;
  const { q, clock, failures } = queue(async () => {
    attempts++;
    await new Promise<void>((r) => (release = r));
    throw new Error('gone');
  });
  q.add('k');
  await Promise.resolve();
  q.shutdown();
  release();
  await q.drained();
  await clock.advance(10_000);
  assert.equal(attempts, 1);
  assert.deepEqual(failures, ['k: gone']);
});

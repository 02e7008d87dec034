import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ALWAYS,
  NEVER,
  RateLimitedTimedQueue,
  TokenBucket,
} from '../../../src/controllers/nodelifecycle/rate-limited-queue';

/** Upstream's vectors (rate_limited_queue_test.go), plus the token bucket on a fake clock. */

function drain(q: RateLimitedTimedQueue): Promise<string[]> {
  const seen: string[] = [];
  return q
    .try(async (v) => {
      seen.push(v.value);
      return { done: true };
    })
    .then(() => seen);
}

test('Add keeps insertion order and refuses duplicates (TestAddNode)', () => {
  const q = new RateLimitedTimedQueue(ALWAYS, () => 0);
  assert.equal(q.add('first', '1'), true);
  q.add('second', '2');
  q.add('third', '3');
  assert.equal(q.add('first', '1'), false);
  assert.deepEqual(q.pending(), ['first', 'second', 'third']);
});

test('Remove takes a value from anywhere (TestDelNode)', () => {
  for (const [gone, rest] of [
    ['first', ['second', 'third']],
    ['second', ['first', 'third']],
    ['third', ['first', 'second']],
  ] as const) {
    const q = new RateLimitedTimedQueue(ALWAYS, () => 0);
    q.add('first', '1');
    q.add('second', '2');
    q.add('third', '3');
    assert.equal(q.remove(gone), true);
    assert.deepEqual(q.pending(), rest);
  }
});

test('Try processes what is left; a processed value is not re-added until removed (TestTry, TestAddAfterTry)', async () => {
  const q = new RateLimitedTimedQueue(ALWAYS, () => 0);
  q.add('first', '1');
  q.add('second', '2');
  q.add('third', '3');
  q.remove('second');
  assert.deepEqual(await drain(q), ['first', 'third']);
  q.add('first', '1');
  assert.deepEqual(await drain(q), []);
  q.remove('first');
  q.add('first', '1');
  assert.deepEqual(await drain(q), ['first']);
});

test('A failed value is retried after its wait, behind values already due (TestTryOrdering)', async () => {
  let now = 0;
  const q = new RateLimitedTimedQueue(ALWAYS, () => now);
  q.add('first', '1');
  q.add('second', '2');
  q.add('third', '3');
  const order: string[] = [];
  let failed = false;
  await q.try(async (v) => {
    if (v.value === 'second' && !failed) {
      failed = true;
      return { done: false, retryAfterMs: 2 };
    }
    order.push(v.value);
    return { done: true };
  });
  assert.deepEqual(order, ['first', 'third']);
  assert.deepEqual(q.pending(), ['second']);
  now = 3;
  await q.try(async (v) => {
    order.push(v.value);
    return { done: true };
  });
  assert.deepEqual(order, ['first', 'third', 'second']);
});

test('A value removed while being processed is not retried (TestTryRemovingWhileTry)', async () => {
  const q = new RateLimitedTimedQueue(ALWAYS, () => 0);
  q.add('first', '1');
  q.add('second', '2');
  q.add('third', '3');
  const order: string[] = [];
  let count = 0;
  await q.try(async (v) => {
    count++;
    if (v.value === 'second') {
      q.remove('second');
      return { done: false, retryAfterMs: 1 };
    }
    order.push(v.value);
    return { done: true };
  });
  assert.deepEqual(order, ['first', 'third']);
  assert.equal(count, 3);
});

test('Token bucket: starts full with one token, then one every 1/qps seconds', () => {
  let now = 0;
  const b = new TokenBucket(0.1, 1, () => now);
  assert.equal(b.tryAccept(), true);
  assert.equal(b.tryAccept(), false);
  now = 9_999;
  assert.equal(b.tryAccept(), false);
  now = 10_000;
  assert.equal(b.tryAccept(), true);
  now = 60_000; // burst 1: a long pause saves no more than one token
  assert.equal(b.tryAccept(), true);
  assert.equal(b.tryAccept(), false);
});

test('A queue at 0.1/s lets one node through at once, then one every 10 s', async () => {
  let now = 0;
  const q = new RateLimitedTimedQueue(new TokenBucket(0.1, 1, () => now), () => now);
  for (const n of ['a', 'b', 'c']) q.add(n, n);
  const at: [string, number][] = [];
  for (now = 0; now <= 25_000; now += 100)
    await q.try(async (v) => {
      at.push([v.value, now]);
      return { done: true };
    });
  assert.deepEqual(at, [
    ['a', 0],
    ['b', 10_000],
    ['c', 20_000],
  ]);
});

test('SwapLimiter: same rate is a no-op; 0 means never (QPS 1, as upstream); new rate (TestSwapLimiter)', () => {
  const q = new RateLimitedTimedQueue(ALWAYS, () => 0);
  assert.equal(q.qps, 1);
  q.swapLimiter(0);
  assert.equal(q.qps, NEVER.qps);
  q.swapLimiter(5.5);
  assert.equal(q.qps, 5.5);
});

test('SwapLimiter grants no free token when the old limiter had none; keeps the full bucket when it had one', async () => {
  let now = 0;
  const q = new RateLimitedTimedQueue(new TokenBucket(0.1, 1, () => now), () => now);
  q.add('a', 'a');
  q.add('b', 'b');
  const seen = await drain(q); // spends the token on "a"
  assert.deepEqual(seen, ['a']);
  q.swapLimiter(0.01); // old bucket empty → the new one is drained
  assert.deepEqual(await drain(q), []);
  now = 99_999;
  assert.deepEqual(await drain(q), []);
  now = 100_000; // float32(0.01) × 100 s is just under one token
  assert.deepEqual(await drain(q), []);
  now = 100_100; // the next 100 ms pass
  assert.deepEqual(await drain(q), ['b']);

  const fresh = new RateLimitedTimedQueue(new TokenBucket(0.1, 1, () => now), () => now);
  fresh.add('x', 'x');
  fresh.swapLimiter(0.01); // old bucket had its token → new bucket starts full
  assert.deepEqual(await drain(fresh), ['x']);
});

test('The "never" limiter reports QPS 1, so swapping to rate 1 leaves a stopped queue stopped (upstream quirk)', async () => {
  const q = new RateLimitedTimedQueue(new TokenBucket(0.1, 1, () => 0), () => 0);
  q.swapLimiter(0);
  q.swapLimiter(1);
  q.add('a', 'a');
  assert.deepEqual(await drain(q), []);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoTime, microTime, Quiescence, VirtualClock } from '../../src/clock';

test('virtual clock fires timers in time order, ties in the order set', async () => {
  const clock = new VirtualClock(0);
  const fired: string[] = [];
  clock.setTimeout(() => fired.push('b@20'), 20);
  clock.setTimeout(() => fired.push('a@10'), 10);
  clock.setTimeout(() => fired.push('c@20'), 20);
  await clock.advance(15);
  assert.deepEqual(fired, ['a@10']);
  assert.equal(clock.now(), 15);
  await clock.advance(5);
  assert.deepEqual(fired, ['a@10', 'b@20', 'c@20']);
});

test('intervals repeat and can be cleared; now is the due time while a timer runs', async () => {
  const clock = new VirtualClock(1000);
  const seen: number[] = [];
  const h = clock.setInterval(() => seen.push(clock.now()), 5000);
  await clock.advance(12_000);
  assert.deepEqual(seen, [6000, 11000]);
  clock.clear(h);
  await clock.advance(20_000);
  assert.deepEqual(seen, [6000, 11000]);
});

test('a timer cleared by another due at the same instant does not fire', async () => {
  const clock = new VirtualClock(0);
  const fired: string[] = [];
  let victim = { id: -1 };
  clock.setTimeout(() => {
    fired.push('clearer');
    clock.clear(victim);
  }, 10);
  victim = clock.setTimeout(() => fired.push('victim'), 10);
  await clock.advance(10);
  assert.deepEqual(fired, ['clearer']);
});

test('advance settles work triggered by a timer before firing the next one', async () => {
  const q = new Quiescence();
  const clock = new VirtualClock(0, q);
  const log: string[] = [];
  clock.setTimeout(() => {
    void q.track(
      (async () => {
        for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
        log.push('async work of t=10 done');
      })(),
    );
  }, 10);
  clock.setTimeout(() => log.push('t=11'), 11);
  await clock.advance(20);
  assert.deepEqual(log, ['async work of t=10 done', 't=11']);
});

test('timers set while advancing that fall inside the window fire in the same advance', async () => {
  const clock = new VirtualClock(0);
  const fired: number[] = [];
  clock.setTimeout(() => clock.setTimeout(() => fired.push(clock.now()), 5), 10);
  await clock.advance(15);
  assert.deepEqual(fired, [15]);
});

test('time cannot go backwards', async () => {
  const clock = new VirtualClock(0);
  await assert.rejects(clock.advance(-1), /backwards/);
});

test('a settle with a wall-time limit fails clearly when work stays in flight past it (the real clock)', async () => {
  const q = new Quiescence();
  q.begin();
  const started = Date.now();
  await assert.rejects(q.settle(undefined, 50), /cluster did not settle within 50 ms \(1 tasks in flight\)/);
  assert.ok(Date.now() - started < 5000);
  q.end();
  await q.settle(undefined, 50);
});

test('isoTime and microTime write each instant as before when asked again and again', () => {
  const times = [
    0,
    999,
    1000,
    1000,
    1500,
    2000,
    1999,
    -1,
    -1000,
    Date.UTC(9999, 11, 31, 23, 59, 59) + 5000,
    Infinity,
    Number.NaN,
  ];
  for (const ms of times) {
    const iso = Number.isFinite(ms)
      ? new Date(Math.min(ms, Date.UTC(9999, 11, 31, 23, 59, 59))).toISOString()
      : '9999-12-31T23:59:59.000Z';
    assert.equal(isoTime(ms), iso.replace(/\.\d{3}Z$/, 'Z'), `isoTime(${ms})`);
    if (Number.isFinite(ms) && ms >= 0 && ms < 1e12)
      assert.equal(microTime(ms), new Date(ms).toISOString().replace(/Z$/, '000Z'));
  }
  assert.equal(isoTime(1999), '1970-01-01T00:00:01Z', 'the same second from another millisecond');
  assert.equal(microTime(1999), '1970-01-01T00:00:01.999000Z');
  assert.equal(microTime(1998), '1970-01-01T00:00:01.998000Z', 'microTime keeps each millisecond');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_FRESH_MS, EventWindow, LOWER_CAPACITY } from '../../src/apiserver/event-window';
import { KeyValue, WatchEvent } from '../../src/store';

/** Writes to a few keys, each version's value naming its revision. */
function writer(window: EventWindow<{ v: number }>) {
  let rev = 10;
  const last = new Map<string, KeyValue<{ v: number }>>();
  return (key: string) => {
    rev++;
    const prev = last.get(key);
    const kv = {
      key,
      value: { v: rev },
      createRevision: prev?.createRevision ?? rev,
      modRevision: rev,
      version: (prev?.version ?? 0) + 1,
    };
    const e: WatchEvent<{ v: number }> = { type: 'PUT', kv, prevKv: prev, created: !prev };
    last.set(key, kv);
    window.push(e);
    return rev;
  };
}

test('the window keeps 75 s of events however many, served from the list revision until one is dropped', () => {
  let now = 0;
  const w = new EventWindow<{ v: number }>(10, () => now);
  const write = writer(w);
  for (let i = 0; i < 1000; i++) write(`/k/${i % 7}`);
  assert.equal(w.size, 1000, 'all fresh: the ring grew instead of dropping');
  assert.equal(w.oldestServable, 10);
  assert.equal(w.bounded, false);
  const replay = [...w.since(500, '/k/')];
  assert.equal(replay.length, 510);
  assert.deepEqual(replay[0].kv.value, { v: 501 });
  assert.deepEqual(replay[0].prevKv?.value, { v: 494 }, 'the version before, as the store delivered it');
  now += EVENT_FRESH_MS + 1;
  for (let i = 0; i < 2000; i++) write(`/k/${i % 7}`);
  assert.ok(w.bounded, 'stale events were dropped');
  assert.ok(w.size >= 2000 && w.size < 3000, `the stale ones go as the ring shrinks (${w.size})`);
  assert.equal(w.oldestServable, [...w.since(0, '/')][0].kv.modRevision - 1);
});

test('changedSince maps the keys written since to their value then', () => {
  const w = new EventWindow<{ v: number }>(10, () => 0);
  const write = writer(w);
  write('/k/a'); // 11
  write('/k/b'); // 12
  write('/k/a'); // 13
  const then = w.changedSince(11)!;
  assert.equal(then.get('/k/b'), undefined);
  assert.ok(then.has('/k/b'));
  assert.deepEqual(then.get('/k/a')?.value, { v: 11 });
});

test('v1.12: the first event kept bounds the window', () => {
  const w = new EventWindow<{ v: number }>(10, () => 0, false);
  assert.equal(w.oldestServable, 10);
  writer(w)('/k/a');
  assert.ok(w.bounded);
  assert.equal(w.oldestServable, 10);
  assert.ok(LOWER_CAPACITY > 0);
});

test('a kept event is the one the store delivered (its frozen versions shared), not a copy', () => {
  let now = 0;
  const w = new EventWindow<{ v: number }>(10, () => now);
  const events: WatchEvent<{ v: number }>[] = [];
  let prev: KeyValue<{ v: number }> | undefined;
  for (let rev = 11; rev <= 20; rev++) {
    const kv = {
      key: '/k/a',
      value: Object.freeze({ v: rev }),
      createRevision: 11,
      modRevision: rev,
      version: rev - 10,
    };
    const e: WatchEvent<{ v: number }> = { type: 'PUT', kv, prevKv: prev, created: !prev };
    events.push(e);
    w.push(e);
    prev = kv;
    now += 1000;
  }
  const replay = [...w.since(14, '/k/')];
  assert.equal(replay.length, 6);
  replay.forEach((e, i) => {
    assert.equal(e, events[i + 4]);
  });
  assert.equal(w.changedSince(14)?.get('/k/a'), events[4].prevKv, "the version then is the store's own");
  // Past eventFreshDuration the window may drop them, and then a start before them is too old.
  now += EVENT_FRESH_MS;
  for (let i = 0; i < 2 * LOWER_CAPACITY; i++) {
    const kv = {
      key: '/k/b',
      value: Object.freeze({ v: 100 + i }),
      createRevision: 100,
      modRevision: 100 + i,
      version: i + 1,
    };
    w.push({ type: 'PUT', kv, created: i === 0 });
  }
  assert.ok(w.bounded);
  assert.ok(w.oldestServable > 20, `the stale events are gone (${w.oldestServable})`);
});

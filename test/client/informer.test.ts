// The informer's relist after a failure, and the backoff it waits (client-go reflector, v1.32).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Informer } from '../../src/client/informer';
import { ExponentialBackoff, REFLECTOR_BACKOFF } from '../../src/client/backoff';
import { backgroundErrors, onHandledError } from '../../src/client/background';
import { Client, WatchHandlers } from '../../src/client/client';
import { VirtualClock } from '../../src/clock/virtual';
import { KubeObject } from '../../src/api/meta';
import { errors } from '../../src/api/errors';

test('backoff: 800 ms, doubling, capped at 30 s, reset after 2 min quiet (NewExponentialBackoffManager as NewReflectorWithOptions sets it)', () => {
  const b = new ExponentialBackoff(REFLECTOR_BACKOFF);
  let now = 0;
  const delays: number[] = [];
  for (let i = 0; i < 9; i++) {
    const d = b.delay(now);
    delays.push(d);
    now += d;
  }
  assert.deepEqual(delays, [800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000, 30_000]);
  // More than backoffResetDuration (2 min) since the last backoff: back to the initial delay.
  assert.equal(b.delay(now + 120_001), 800);
  assert.equal(b.delay(now + 120_001 + 120_000), 1600, 'exactly 2 min later is not more than the reset duration');
});

/** A client whose lists fail while `failing` holds; its watch hands its handlers to the test. */
function flakyClient() {
  const state = { failing: 0, lists: [] as number[], handlers: undefined as WatchHandlers<KubeObject> | undefined };
  const clock = new VirtualClock(0);
  const client = {
    list: async () => {
      state.lists.push(clock.now());
      if (state.failing > 0) {
        state.failing--;
        throw new Error('connection refused');
      }
      return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '1' }, items: [] };
    },
    watch: async (_r: unknown, _o: unknown, h: WatchHandlers<KubeObject>) => {
      state.handlers = h;
      return { stop: () => undefined };
    },
  } as unknown as Client;
  return { state, clock, client };
}

test('after a 410 the informer relists; a relist that fails is reported and retried after the reflector backoff, not given up', async () => {
  const { state, clock, client } = flakyClient();
  const seen: string[] = [];
  const stop = onHandledError((e) => seen.push(e.component));
  const quiet = backgroundErrors.report;
  backgroundErrors.report = () => undefined;
  try {
    const informer = new Informer(client, { resource: 'pods' }, {}, clock);
    await informer.run();
    assert.deepEqual(state.lists, [0]);
    state.failing = 3;
    state.handlers!.onClose?.(errors.gone('too old resource version: 1 (5)'));
    await clock.settle();
    await clock.advance(800 + 1600 + 3200);
    // The watch closed at 0: relist at once (fails), then after 800 ms, 1.6 s and 3.2 s.
    assert.deepEqual(state.lists, [0, 0, 800, 2400, 5600]);
    assert.equal(seen.filter((c) => c === 'informer (pods)').length, 3);
    informer.stop();
  } finally {
    stop();
    backgroundErrors.report = quiet;
  }
});

test('without a clock a failed relist is still reported (never dropped)', async () => {
  const { state, client, clock } = flakyClient();
  const seen: string[] = [];
  const stop = onHandledError((e) => seen.push(e.message));
  const quiet = backgroundErrors.report;
  backgroundErrors.report = () => undefined;
  try {
    const informer = new Informer(client, { resource: 'pods' });
    await informer.run();
    state.failing = 1;
    state.handlers!.onClose?.(errors.gone('too old resource version: 1 (5)'));
    await clock.settle();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, ['connection refused']);
  } finally {
    stop();
    backgroundErrors.report = quiet;
  }
});

/** A client whose watches the test closes; it records each list and each watch's resourceVersion. */
function resumableClient() {
  const clock = new VirtualClock(0);
  const calls: string[] = [];
  const watches: WatchHandlers<KubeObject>[] = [];
  let refuse = 0;
  const client = {
    list: async () => {
      calls.push(`list at ${clock.now()}`);
      return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '10' }, items: [] };
    },
    watch: async (_r: unknown, o: { resourceVersion?: string }, h: WatchHandlers<KubeObject>) => {
      calls.push(`watch from ${o.resourceVersion} at ${clock.now()}`);
      if (refuse > 0) {
        refuse--;
        throw new Error('connection refused');
      }
      watches.push(h);
      return { stop: () => undefined };
    },
  } as unknown as Client;
  const last = () => watches[watches.length - 1];
  const event = (rv: string) =>
    last().onEvent({ type: 'ADDED', object: { metadata: { name: `cm${rv}`, resourceVersion: rv } } });
  return { clock, client, calls, last, event, refuseNext: (n: number) => (refuse = n) };
}

test('a watch that closes after delivering resumes at once from the last resourceVersion, without a list', async () => {
  const { clock, client, calls, last, event } = resumableClient();
  const informer = new Informer(client, { resource: 'configmaps' }, {}, clock);
  await informer.run();
  event('11');
  event('12');
  last().onClose?.();
  await clock.settle();
  assert.deepEqual(calls, ['list at 0', 'watch from 10 at 0', 'watch from 12 at 0']);
  assert.equal(informer.size, 2, 'the cache is kept');
  informer.stop();
});

test('a watch that fails (not 410) is reported and resumed from the last resourceVersion after the backoff', async () => {
  const { clock, client, calls, last, event, refuseNext } = resumableClient();
  const seen: string[] = [];
  const stop = onHandledError((e) => seen.push(e.message));
  const quiet = backgroundErrors.report;
  backgroundErrors.report = () => undefined;
  try {
    const informer = new Informer(client, { resource: 'configmaps' }, {}, clock);
    await informer.run();
    event('11');
    refuseNext(1);
    last().onClose?.(new Error('connection reset'));
    await clock.advance(800 + 1600);
    assert.deepEqual(calls, ['list at 0', 'watch from 10 at 0', 'watch from 11 at 800', 'watch from 11 at 2400']);
    assert.deepEqual(seen, ['connection reset', 'connection refused']);
    // A watch that closes at once with nothing is not asked again in a tight loop.
    last().onClose?.();
    await clock.settle();
    assert.equal(calls.length, 4, 'no watch at once after a very short watch');
    await clock.advance(3200);
    assert.deepEqual(calls.slice(4), ['watch from 11 at 5600']);
    informer.stop();
  } finally {
    stop();
    backgroundErrors.report = quiet;
  }
});

test('only a 410 makes the informer list again', async () => {
  const { clock, client, calls, last, event } = resumableClient();
  const informer = new Informer(client, { resource: 'configmaps' }, {}, clock);
  await informer.run();
  event('11');
  last().onClose?.(errors.gone('too old resource version: 11 (20)'));
  await clock.settle();
  assert.deepEqual(calls, ['list at 0', 'watch from 10 at 0', 'list at 0', 'watch from 10 at 0']);
  informer.stop();
});

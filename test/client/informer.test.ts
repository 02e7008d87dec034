// The informer's relist after a failure, and the backoff it waits (client-go reflector, v1.32).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Informer } from '../../src/client/informer';
import { ExponentialBackoff, REFLECTOR_BACKOFF } from '../../src/client/backoff';
import { backgroundErrors, onHandledError } from '../../src/client/background';
import { Client, WatchHandlers } from '../../src/client/client';
import { VirtualClock } from '../../src/clock/virtual';
import { KubeObject } from '../../src/api/meta';

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

test('a relist that fails is reported and retried after the reflector backoff, not given up', async () => {
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
    state.handlers!.onClose?.(new Error('watch closed'));
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
    state.handlers!.onClose?.(new Error('watch closed'));
    await clock.settle();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, ['connection refused']);
  } finally {
    stop();
    backgroundErrors.report = quiet;
  }
});

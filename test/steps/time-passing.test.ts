import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { letTimePass, step } from '../../steps/support';
import type { KubeWorld } from '../../steps/world';

/** A world on a fake cluster whose clock is `now` and whose advances are recorded. */
function world(options: { virtualTime: boolean; keepsStates: boolean; judgedFrom?: number; now: number }) {
  const advances: number[] = [];
  let moves = 0;
  const cluster = {
    capabilities: { virtualTime: options.virtualTime },
    objectStates: options.keepsStates ? async () => [] : undefined,
    now: () => options.now,
    timeMoves: () => moves,
    advance: async (ms: number) => {
      if (ms > 0) moves++;
      advances.push(ms);
    },
  };
  const w = {
    judgedFrom: options.judgedFrom,
    late: undefined as KubeWorld['late'],
    stepType: 'Action',
    driver: cluster,
    cluster: async () => cluster,
    attach: () => undefined,
  };
  return { w: w as unknown as KubeWorld, advances };
}

test('a real clock: "10 seconds pass" ends 10 s after the last action, not after the checks since', async () => {
  const { w, advances } = world({ virtualTime: false, keepsStates: true, judgedFrom: 100_000, now: 108_000 });
  await letTimePass(w, 10_000);
  assert.deepEqual(advances, [2_000]);
  assert.equal(w.late, undefined);
});

test('a real clock past the instant: no wait, and the outcomes are judged from that instant', async () => {
  const { w, advances } = world({ virtualTime: false, keepsStates: true, judgedFrom: 100_000, now: 113_000 });
  await letTimePass(w, 10_000);
  assert.deepEqual(advances, []);
  assert.deepEqual(w.late, { at: 110_000, by: 3_000, what: '10 s after the last action or wait ended' });
});

test('a real clock past the instant on a target that keeps no states: the whole wait from now', async () => {
  const { w, advances } = world({ virtualTime: false, keepsStates: false, judgedFrom: 100_000, now: 113_000 });
  await letTimePass(w, 10_000);
  assert.deepEqual(advances, [10_000]);
});

test('a virtual clock: checks take no time, the wait is the whole duration', async () => {
  const { w, advances } = world({ virtualTime: true, keepsStates: true, judgedFrom: 100_000, now: 108_000 });
  await letTimePass(w, 10_000);
  assert.deepEqual(advances, [10_000]);
});

test('an outcome that lets time pass moves the instant the next wait counts from; one that only reads does not', async () => {
  const { w } = world({ virtualTime: true, keepsStates: true, judgedFrom: 1, now: 0 });
  w.stepType = 'Outcome';
  await step(async function (this: KubeWorld) {
    await (await this.cluster()).now();
  }).call(w);
  assert.equal(w.judgedFrom, 1);
  const before = Date.now();
  await step(async function (this: KubeWorld) {
    await (await this.cluster()).advance(500);
  }).call(w);
  assert.ok((w.judgedFrom ?? 0) >= before);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Expectations, EXPECTATIONS_TIMEOUT_MS, slowStartBatch } from '../../src/controllers/expectations';

// The controllers' expectations (ControllerExpectations) and slowStartBatch, as upstream's pkg/controller/controller_utils.go.
const T0 = Date.UTC(2025, 0, 1);

test('expectations: satisfied once observed, or after 5 minutes', () => {
  let now = T0;
  const e = new Expectations(() => now);
  assert.equal(e.satisfied('k'), true);
  e.expect('k', 2, 0);
  e.creationObserved('k');
  assert.equal(e.satisfied('k'), false);
  e.creationObserved('k');
  assert.equal(e.satisfied('k'), true);
  e.expect('k', 1, 0);
  now += EXPECTATIONS_TIMEOUT_MS + 1;
  assert.equal(e.satisfied('k'), true);
});

test('slowStartBatch: batches of 1, 2, 4… stop at the first failing batch (vector: 500 creations)', async () => {
  let calls = 0;
  const ok = await slowStartBatch(500, 1, async () => {
    calls++;
  });
  assert.deepEqual([ok.successes, calls], [500, 500]);
  calls = 0;
  const failing = await slowStartBatch(10, 1, async () => {
    calls++;
    if (calls === 2) throw new Error('quota');
  });
  assert.equal(failing.successes, 2); // batch 1 (1 ok), batch 2 (1 ok, 1 failed): stop
  assert.equal(calls, 3);
});

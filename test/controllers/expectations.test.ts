// UIDTrackingControllerExpectations: deletions counted per pod key (pkg/controller/controller_utils.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Expectations, EXPECTATIONS_TIMEOUT_MS, slowStartBatch } from '../../src/controllers/expectations';

test('TestUIDExpectations (controller_utils_test.go): satisfied only once every expected pod key is observed', () => {
  const e = new Expectations(() => 0);
  const controllers = {
    'ns/rc1': ['ns/pod-a', 'ns/pod-b', 'ns/pod-c'],
    'ns/rc2': ['ns/pod-d', 'ns/pod-e'],
  };
  for (const [rc, pods] of Object.entries(controllers)) {
    e.expectDeletions(rc, pods);
    assert.equal(e.satisfied(rc), false, `${rc} waits on its deletions`);
  }
  for (const [rc, pods] of Object.entries(controllers)) {
    for (const [i, pod] of [...pods].reverse().entries()) {
      assert.equal(e.satisfied(rc), false, `${rc} before ${pod}`);
      e.deletionObserved(rc, pod);
      assert.equal(e.pendingDeletions(rc).length, pods.length - i - 1);
    }
    assert.equal(e.satisfied(rc), true, `${rc} after every deletion`);
    e.delete(rc);
    assert.deepEqual(e.pendingDeletions(rc), [], 'DeleteExpectations drops the keys too');
  }
});

test('one pod observed deleted twice (deletionTimestamp, then gone) counts once', () => {
  const e = new Expectations(() => 0);
  e.expectDeletions('ns/rs', ['ns/pod-a', 'ns/pod-b']);
  e.deletionObserved('ns/rs', 'ns/pod-a');
  e.deletionObserved('ns/rs', 'ns/pod-a');
  assert.equal(e.satisfied('ns/rs'), false, 'pod-b is still unseen');
  e.deletionObserved('ns/rs', 'ns/pod-x');
  assert.equal(e.satisfied('ns/rs'), false, 'a pod the controller did not delete does not count');
  e.deletionObserved('ns/rs', 'ns/pod-b');
  assert.equal(e.satisfied('ns/rs'), true);
});

test('plain ControllerExpectations (no key) still count every observation', () => {
  const e = new Expectations(() => 0);
  e.expect('ns/ds', 0, 2);
  e.deletionObserved('ns/ds');
  e.deletionObserved('ns/ds');
  assert.equal(e.satisfied('ns/ds'), true);
});

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

// UIDTrackingControllerExpectations: deletions counted per pod key (pkg/controller/controller_utils.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Expectations } from '../../src/controllers/expectations';

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

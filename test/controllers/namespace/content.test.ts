import { test } from 'node:test';
import assert from 'node:assert/strict';
import { finalizersWithout, recheckAfterMs, remainingEstimate } from '../../../src/controllers/namespace/content';

const T0 = Date.UTC(2025, 0, 1);

test('namespace finalize: kubernetes removed, the rest de-duplicated and sorted; estimate and re-check as upstream', () => {
  assert.deepEqual(finalizersWithout(['kubernetes', 'z', 'a', 'z']), ['a', 'z']);
  assert.deepEqual(finalizersWithout(['kubernetes']), []);
  const pod = (grace: number, phase = 'Running') => ({
    metadata: {},
    spec: { terminationGracePeriodSeconds: grace },
    status: { phase },
  });
  // the longest grace period of the pods not yet finished, while the namespace has been deleting less than that
  assert.equal(remainingEstimate([pod(30), pod(10), pod(60, 'Succeeded')], [pod(30)], T0, T0 + 5_000), 30);
  assert.equal(remainingEstimate([pod(30)], [pod(30)], T0, T0 + 30_000), 0);
  // content held by finalizers and no grace estimate: finalizerEstimateSeconds
  assert.equal(remainingEstimate([], [{ metadata: { finalizers: ['x'] } }], T0, T0), 15);
  assert.equal(remainingEstimate([], [], T0, T0), 0);
  // re-checked after estimate/2 + 1 s (NamespaceController.worker)
  assert.equal(recheckAfterMs(30), 16_000);
  assert.equal(recheckAfterMs(15), 8_000);
  assert.equal(recheckAfterMs(0), 1_000);
});

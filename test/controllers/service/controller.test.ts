import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Service } from '../../../src/api/resources/service';
import { LB_CLEANUP_FINALIZER, needsCleanup, wantsLoadBalancer } from '../../../src/controllers/service/controller';

test('needsCleanup and wantsLoadBalancer (derived vectors 4, 5)', () => {
  const lb = (o: Partial<Service['spec']>, finalizer: boolean, deleting = false): Service => ({
    metadata: {
      name: 's',
      ...(finalizer ? { finalizers: [LB_CLEANUP_FINALIZER] } : {}),
      ...(deleting ? { deletionTimestamp: 'x' } : {}),
    },
    spec: { type: 'LoadBalancer', ...o },
  });
  assert.equal(needsCleanup(lb({}, false)), false);
  assert.equal(needsCleanup(lb({}, true, true)), true);
  assert.equal(needsCleanup(lb({ type: 'ClusterIP' }, true)), true);
  assert.equal(needsCleanup(lb({}, true)), false);
  assert.equal(wantsLoadBalancer(lb({ loadBalancerClass: 'example.com/lb' }, false)), false);
});

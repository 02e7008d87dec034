import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultLoadBalancerName } from '../../src/cloud/loadbalancer';

test('DefaultLoadBalancerName (derived vector 6): "a" and the service UID without dashes, cut to 32 characters', () => {
  assert.equal(
    defaultLoadBalancerName({ metadata: { uid: '12345678-1234-1234-1234-123456789012' }, spec: {} }),
    'a1234567812341234123412345678901',
  );
  assert.equal(defaultLoadBalancerName({ metadata: { uid: '333' }, spec: {} }), 'a333');
});

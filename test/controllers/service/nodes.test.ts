import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Node } from '../../../src/api/core';
import { backsLoadBalancer } from '../../../src/controllers/service/nodes';

// Which nodes back a load balancer; TestGetNodeConditionPredicate of pkg/controller/service/service_controller_test.go
// (v1.12 and v1.32), and derived v1.21 vectors.
function node(
  name: string,
  o: { ready?: boolean | null; unschedulable?: boolean; labels?: Record<string, string>; taint?: string } = {},
): Node {
  return {
    metadata: { name, labels: o.labels },
    spec: { unschedulable: o.unschedulable, taints: o.taint ? [{ key: o.taint, effect: 'NoSchedule' }] : [] },
    status: { conditions: o.ready === null ? [] : [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  };
}

test('load-balancer nodes (TestGetNodeConditionPredicate, old and new, and derived v1.21 vectors)', () => {
  assert.equal(backsLoadBalancer(node('empty', { ready: null }), 'legacy'), false);
  assert.equal(backsLoadBalancer(node('ready'), 'legacy'), true);
  assert.equal(backsLoadBalancer(node('cordoned', { unschedulable: true }), 'legacy'), false);
  assert.equal(backsLoadBalancer(node('unready', { ready: false }), 'legacy'), false);
  assert.equal(backsLoadBalancer(node('unready', { ready: false }), 'stable'), true);
  assert.equal(backsLoadBalancer(node('cordoned', { unschedulable: true }), 'stable'), true);
  assert.equal(
    backsLoadBalancer(
      node('x', { labels: { 'node.kubernetes.io/exclude-from-external-load-balancers': '' } }),
      'stable',
    ),
    false,
  );
  assert.equal(
    backsLoadBalancer(
      node('x', { labels: { 'node.kubernetes.io/exclude-from-external-load-balancers': 'false' } }),
      'stable',
    ),
    true,
  );
  assert.equal(backsLoadBalancer(node('x', { taint: 'ToBeDeletedByClusterAutoscaler' }), 'stable'), false);
});

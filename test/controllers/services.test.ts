// Endpoints, kube-proxy, load-balancer nodes, service IPs and tokens: pure rules with upstream's vectors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Node, Pod } from '../../src/api/core';
import { Service } from '../../src/api/resources/service';
import { computeSubsets, endpointsLabels, findPort } from '../../src/controllers/endpoints/subsets';
import { backsLoadBalancer } from '../../src/controllers/service/nodes';
import { needsCleanup, wantsLoadBalancer, LB_CLEANUP_FINALIZER } from '../../src/controllers/service/controller';
import { defaultLoadBalancerName } from '../../src/cloud/loadbalancer';
import { RangeAllocator, ServiceIPRange } from '../../src/apiserver/ipallocator';
import { buildTable } from '../../src/kubeproxy/table';
import { legacyClaims, TokenSigner } from '../../src/serviceaccount/jwt';

function pod(n: number, ready = true, ports = [{ name: 'port0', containerPort: 8080 }]): Pod {
  return {
    metadata: { name: `pod${n}`, namespace: 'other', uid: `uid${n}`, labels: { foo: 'bar' } },
    spec: {
      nodeName: 'node1',
      containers: [{ name: 'c', ports: ports.map((p) => ({ ...p, protocol: 'TCP' as const })) }],
    },
    status: {
      phase: 'Running',
      podIP: `1.2.3.${4 + n}`,
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    },
  };
}

const svc = (spec: Partial<Service['spec']> = {}): Service => ({
  metadata: { name: 'foo', namespace: 'other' },
  spec: { selector: {}, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }], ...spec },
});

test('endpoints (TestSyncEndpointsProtocolTCP, ...SelectsAllNotReady, ...SelectsAllMixed)', () => {
  assert.deepEqual(computeSubsets(svc(), [pod(0)]), [
    {
      addresses: [
        { ip: '1.2.3.4', nodeName: 'node1', targetRef: { kind: 'Pod', namespace: 'other', name: 'pod0', uid: 'uid0' } },
      ],
      ports: [{ port: 8080, protocol: 'TCP' }],
    },
  ]);
  assert.deepEqual(
    computeSubsets(svc(), [pod(0, false)]).map((s) => [s.addresses, s.notReadyAddresses?.map((a) => a.ip)]),
    [[undefined, ['1.2.3.4']]],
  );
  const mixed = computeSubsets(svc(), [pod(0), pod(1, false)]);
  assert.equal(mixed.length, 1);
  assert.deepEqual(
    [mixed[0].addresses?.map((a) => a.ip), mixed[0].notReadyAddresses?.map((a) => a.ip)],
    [['1.2.3.4'], ['1.2.3.5']],
  );
  assert.deepEqual(
    computeSubsets(svc({ publishNotReadyAddresses: true }), [pod(1, false)])[0].addresses?.map((a) => a.ip),
    ['1.2.3.5'],
  );
});

test('endpoints: finished, deleting and IP-less pods are left out; numeric targetPort needs no declared port (TestSyncEndpointsItems)', () => {
  const done = { ...pod(0), status: { ...pod(0).status, phase: 'Succeeded' as const } };
  const noIP = { ...pod(1), status: { ...pod(1).status, podIP: undefined } };
  const deleting = { ...pod(2), metadata: { ...pod(2).metadata, deletionTimestamp: '2025-01-01T00:00:00Z' } };
  assert.deepEqual(computeSubsets(svc(), [done, noIP, deleting]), []);
  const two = computeSubsets(
    svc({
      ports: [
        { name: 'port0', port: 80, targetPort: 8080 },
        { name: 'port1', port: 88, targetPort: 8088 },
      ],
    }),
    [pod(0)],
  );
  assert.deepEqual(two[0].ports, [
    { name: 'port0', port: 8080, protocol: 'TCP' },
    { name: 'port1', port: 8088, protocol: 'TCP' },
  ]);
});

test('FindPort: a named port must match name and protocol (derived vector: UDP port for a TCP service port is skipped)', () => {
  const p = pod(0, true, [{ name: 'http', containerPort: 8080 }]);
  assert.equal(findPort(p, { port: 80, targetPort: 'http', protocol: 'TCP' }), 8080);
  assert.equal(findPort(p, { port: 80, targetPort: 'http', protocol: 'UDP' }), undefined);
  assert.equal(findPort(p, { port: 80, targetPort: 'nope' }), undefined);
  assert.deepEqual(endpointsLabels({ ...svc({ clusterIP: 'None' }), metadata: { name: 'x', labels: { a: 'b' } } }), {
    a: 'b',
    'service.kubernetes.io/headless': '',
  });
});

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

test('needsCleanup and wantsLoadBalancer (derived vectors 4, 5); DefaultLoadBalancerName (vector 6)', () => {
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
  assert.equal(
    defaultLoadBalancerName({ metadata: { uid: '12345678-1234-1234-1234-123456789012' }, spec: {} }),
    'a1234567812341234123412345678901',
  );
  assert.equal(defaultLoadBalancerName({ metadata: { uid: '333' }, spec: {} }), 'a333');
});

test('service IPs: the first address is network+1, dynamic ones start above the static band, nothing twice', () => {
  const r = new ServiceIPRange('10.96.0.0/12');
  assert.equal(r.firstIP, '10.96.0.1');
  assert.equal(r.allocate('10.96.0.1'), 'ok');
  assert.equal(r.allocate('10.96.0.1'), 'taken');
  assert.equal(r.allocate('10.112.0.1'), 'out-of-range');
  assert.equal(r.allocateNext(), '10.96.1.1'); // 256 static addresses for a /12
  const small = new ServiceIPRange('10.0.0.0/29'); // 6 usable
  const got = new Set<string>();
  for (let ip = small.allocateNext(); ip; ip = small.allocateNext()) got.add(ip);
  assert.equal(got.size, 6);
  assert.ok(!got.has('10.0.0.0') && !got.has('10.0.0.7'));
  small.release('10.0.0.3');
  assert.equal(small.allocateNext(), '10.0.0.3');
  const ports = new RangeAllocator(30000, 2);
  assert.deepEqual([ports.allocateNext(), ports.allocateNext(), ports.allocateNext()], [30000, 30001, undefined]);
});

test('kube-proxy table: ClusterIP:port to the ready addresses of the same-named endpoint port', () => {
  const s: Service = {
    metadata: { name: 'web', namespace: 'd' },
    spec: { clusterIP: '10.96.0.10', ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
  };
  const table = buildTable([s, { ...s, metadata: { name: 'h', namespace: 'd' }, spec: { clusterIP: 'None' } }], () => ({
    metadata: { name: 'web' },
    subsets: [
      {
        addresses: [{ ip: '10.0.0.3' }, { ip: '10.0.0.2' }],
        notReadyAddresses: [{ ip: '10.0.0.9' }],
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      },
    ],
  }));
  assert.deepEqual([...table.keys()], ['10.96.0.10:80/TCP']);
  assert.deepEqual(table.get('10.96.0.10:80/TCP')!.backends, [
    { ip: '10.0.0.2', port: 8080 },
    { ip: '10.0.0.3', port: 8080 },
  ]);
});

test('service-account tokens verify with the cluster key only', () => {
  const signer = new TokenSigner();
  const token = signer.sign(legacyClaims('ns', 'default', 'uid-1', 'default-token-abcde'));
  assert.equal(signer.verify<{ sub: string }>(token)?.sub, 'system:serviceaccount:ns:default');
  assert.equal(new TokenSigner().verify(token), undefined);
  const [h, , s] = token.split('.');
  const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url')}.${s}`;
  assert.equal(signer.verify(forged), undefined);
  assert.equal(signer.verify('not.a.token'), undefined);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pod } from '../../../src/api/core';
import { Service } from '../../../src/api/resources/service';
import { computeSubsets, endpointsLabels, findPort } from '../../../src/controllers/endpoints/subsets';

// The endpoints controller's subsets; tables of v1.12 pkg/controller/endpoint/endpoints_controller_test.go
// (TestSyncEndpoints…), vectors beyond them marked derived.
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

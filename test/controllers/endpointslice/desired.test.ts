// The EndpointSlice controllers' rules (v1.32), with upstream's vectors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pod } from '../../../src/api/core';
import { Service } from '../../../src/api/resources/service';
import { chunk, desiredGroups, podToEndpoint, sliceLabels } from '../../../src/controllers/endpointslice/desired';
import { mirroredSubsets } from '../../../src/controllers/endpointslice/mirroring';

function pod(name: string, o: { ready?: boolean; terminating?: boolean; phase?: 'Running' | 'Failed' } = {}): Pod {
  return {
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      labels: { foo: 'bar' },
      ...(o.terminating ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}),
    },
    spec: { nodeName: 'node-1', containers: [{ name: 'c', ports: [{ name: 'http', containerPort: 8080 }] }] },
    status: {
      phase: o.phase ?? 'Running',
      podIP: `1.2.3.${name.length}`,
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
  };
}

const svc = (publish = false): Service => ({
  metadata: { name: 'foo', namespace: 'ns', labels: { tier: 'front' } },
  spec: {
    selector: { foo: 'bar' },
    clusterIP: '10.0.0.1',
    ports: [{ name: 'http', port: 80, targetPort: 'http' }],
    publishNotReadyAddresses: publish,
  },
});

test('TestPodToEndpoint (pkg/controller/endpointslice/utils_test.go, v1.32): the conditions', () => {
  const table: [string, Pod, boolean, { ready: boolean; serving: boolean; terminating: boolean }][] = [
    ['Ready pod', pod('a'), false, { ready: true, serving: true, terminating: false }],
    ['Unready pod', pod('a', { ready: false }), false, { ready: false, serving: false, terminating: false }],
    [
      'Unready pod + publishNotReadyAddresses',
      pod('a', { ready: false }),
      true,
      { ready: true, serving: false, terminating: false },
    ],
    [
      'Ready and terminating pod',
      pod('a', { terminating: true }),
      false,
      { ready: false, serving: true, terminating: true },
    ],
    [
      'Ready and terminating pod + publishNotReadyAddresses',
      pod('a', { terminating: true }),
      true,
      { ready: true, serving: true, terminating: true },
    ],
    [
      'Unready and terminating pod',
      pod('a', { ready: false, terminating: true }),
      false,
      { ready: false, serving: false, terminating: true },
    ],
  ];
  for (const [name, p, publish, want] of table) {
    const ep = podToEndpoint(p, svc(publish), {
      metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'us-a' } },
    });
    assert.deepEqual(ep.conditions, want, name);
    assert.equal(ep.zone, 'us-a', name);
    assert.equal(ep.nodeName, 'node-1', name);
    assert.deepEqual(ep.targetRef, { kind: 'Pod', namespace: 'ns', name: 'a', uid: 'uid-a' }, name);
  }
});

test('desired slices: terminating pods stay, terminal ones go; one group per port set; 100 a slice', () => {
  const groups = desiredGroups(
    svc(),
    [pod('a'), pod('bb', { terminating: true }), pod('ccc', { phase: 'Failed' })],
    () => undefined,
  );
  assert.equal(groups.length, 1);
  assert.deepEqual(groups[0].ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
  assert.deepEqual(
    groups[0].endpoints.map((e) => e.targetRef?.name),
    ['a', 'bb'],
  );
  assert.deepEqual(
    chunk(
      Array.from({ length: 101 }, (_, i) => i),
      100,
    ).map((c) => c.length),
    [100, 1],
  );
  assert.deepEqual(chunk([], 100), []);
});

test('setEndpointSliceLabels (utils.go, v1.32): the service labels, its name, managed-by, headless', () => {
  assert.deepEqual(sliceLabels(svc(), 'endpointslice-controller.k8s.io'), {
    tier: 'front',
    'kubernetes.io/service-name': 'foo',
    'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
  });
  const headless = { ...svc(), spec: { ...svc().spec, clusterIP: 'None' } };
  assert.equal(sliceLabels(headless, 'x')['service.kubernetes.io/headless'], '');
});

test('mirroring (endpointslicemirroring reconciler, v1.32): a slice per subset, ready then not ready, 1000 at most', () => {
  const slices = mirroredSubsets({
    metadata: { name: 'ext', namespace: 'ns' },
    subsets: [
      { addresses: [{ ip: '10.0.0.1' }], notReadyAddresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'db', port: 5432 }] },
      { addresses: Array.from({ length: 1001 }, (_, i) => ({ ip: `10.1.${Math.floor(i / 250)}.${i % 250}` })) },
    ],
  });
  assert.equal(slices.length, 2);
  assert.deepEqual(
    slices[0].endpoints.map((e) => [e.addresses[0], e.conditions?.ready]),
    [
      ['10.0.0.1', true],
      ['10.0.0.2', false],
    ],
  );
  assert.deepEqual(slices[0].ports, [{ name: 'db', port: 5432, protocol: 'TCP' }]);
  assert.equal(slices[1].endpoints.length, 1000);
});

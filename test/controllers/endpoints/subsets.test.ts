// The endpoints controller's rules by release: v1.12 (seed) and v1.32 (kubernetes-1.32).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pod } from '../../../src/api/core';
import { EndpointSubset } from '../../../src/api/resources/endpoints';
import { Service } from '../../../src/api/resources/service';
import {
  computeSubsets,
  EndpointsRules,
  endpointsLabels,
  notReadyPodKeptV112,
  parseGoBool,
  TOLERATE_UNREADY_ANNOTATION,
  tolerateUnready,
  truncateEndpoints,
} from '../../../src/controllers/endpoints/subsets';
import { findPort, shouldPodBeInEndpoints } from '../../../src/controllers/endpoint-pods';
import { backgroundErrors, onHandledError } from '../../../src/client/background';

type Phase = NonNullable<Pod['status']>['phase'];

function makePod(
  phase: Phase,
  ready: boolean,
  terminating: boolean,
  restartPolicy?: 'Always' | 'OnFailure' | 'Never',
): Pod {
  return {
    metadata: {
      namespace: 'ns',
      name: 'fakepod',
      labels: { foo: 'bar' },
      ...(terminating ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}),
    },
    spec: {
      ...(restartPolicy ? { restartPolicy } : {}),
      containers: [{ name: 'c', ports: [{ name: 'port1', containerPort: 8080 }] }],
    },
    status: { phase, podIP: '10.1.1.1', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

function makeService(publishNotReady: boolean, annotation?: string): Service {
  return {
    metadata: {
      name: 'foo',
      namespace: 'ns',
      ...(annotation !== undefined ? { annotations: { [TOLERATE_UNREADY_ANNOTATION]: annotation } } : {}),
    },
    spec: {
      selector: { foo: 'bar' },
      clusterIP: '1.1.1.1',
      ports: [{ port: 80 }],
      publishNotReadyAddresses: publishNotReady,
    },
  };
}

const count = (subsets: EndpointSubset[]) => [
  subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0),
  subsets.reduce((n, s) => n + (s.notReadyAddresses?.length ?? 0), 0),
];

/** A test's sink: HandleError's reports collected instead of printed. */
function collectHandled(): { messages: string[]; done(): void } {
  const messages: string[] = [];
  const quiet = backgroundErrors.report;
  backgroundErrors.report = () => undefined;
  const stop = onHandledError((e) => messages.push(e.message));
  return {
    messages,
    done: () => {
      stop();
      backgroundErrors.report = quiet;
    },
  };
}

// TestSyncServiceAddresses (pkg/controller/endpoint/endpoints_controller_test.go, v1.32):
// [name, phase, ready, terminating, publishNotReadyAddresses, ready addresses, not-ready addresses].
const syncServiceAddresses: [string, Phase, boolean, boolean, boolean, number, number][] = [
  ['pod running phase', 'Running', true, false, false, 1, 0],
  ['pod running phase being deleted', 'Running', true, true, false, 0, 0],
  ['pod unknown phase container ready', 'Unknown', true, false, false, 1, 0],
  ['pod unknown phase container ready being deleted', 'Unknown', true, true, false, 0, 0],
  ['pod pending phase container ready', 'Pending', true, false, false, 1, 0],
  ['pod pending phase container ready being deleted', 'Pending', true, true, false, 0, 0],
  ['pod unknown phase container not ready', 'Unknown', false, false, false, 0, 1],
  ['pod pending phase container not ready', 'Pending', false, false, false, 0, 1],
  ['pod failed phase', 'Failed', false, false, false, 0, 0],
  ['pod succeeded phase', 'Succeeded', false, false, false, 0, 0],
  ['pod running phase and tolerate unready', 'Running', false, false, true, 1, 0],
  ['pod running phase and tolerate unready being deleted', 'Running', false, true, true, 1, 0],
  ['pod unknown phase and tolerate unready', 'Unknown', false, false, true, 1, 0],
  ['pod unknown phase and tolerate unready being deleted', 'Unknown', false, true, true, 1, 0],
  ['pod pending phase and tolerate unready', 'Pending', false, false, true, 1, 0],
  ['pod pending phase and tolerate unready being deleted', 'Pending', false, true, true, 1, 0],
  ['pod failed phase and tolerate unready', 'Failed', false, false, true, 0, 0],
  ['pod succeeded phase and tolerate unready endpoints', 'Succeeded', false, false, true, 0, 0],
];

test('TestSyncServiceAddresses (endpoints_controller_test.go, v1.32)', () => {
  for (const [name, phase, ready, terminating, tolerate, wantReady, wantNotReady] of syncServiceAddresses) {
    const subsets = computeSubsets(makeService(tolerate), [makePod(phase, ready, terminating)], 'v1.32');
    assert.deepEqual(count(subsets), [wantReady, wantNotReady], name);
  }
});

test('the same table at v1.12: a finished pod stays by restartPolicy (Always by default), with the field or not', () => {
  // v1.12 syncService/addEndpointSubset: only the not-ready finished pods differ — a Failed or
  // Succeeded pod with restartPolicy Always is a not-ready address, and with
  // publishNotReadyAddresses a ready one (no phase check at all).
  const changed = new Map<string, [number, number]>([
    ['pod failed phase', [0, 1]],
    ['pod succeeded phase', [0, 1]],
    ['pod failed phase and tolerate unready', [1, 0]],
    ['pod succeeded phase and tolerate unready endpoints', [1, 0]],
  ]);
  for (const [name, phase, ready, terminating, tolerate, wantReady, wantNotReady] of syncServiceAddresses) {
    const subsets = computeSubsets(makeService(tolerate), [makePod(phase, ready, terminating)], 'v1.12');
    assert.deepEqual(count(subsets), changed.get(name) ?? [wantReady, wantNotReady], name);
  }
});

test('v1.12 TestShouldPodBeInEndpoints (endpoints_controller_test.go): a not-ready pod by restartPolicy and phase', () => {
  const table: [string, 'Always' | 'OnFailure' | 'Never', Phase, boolean][] = [
    ['Failed pod with Never RestartPolicy', 'Never', 'Failed', false],
    ['Succeeded pod with Never RestartPolicy', 'Never', 'Succeeded', false],
    ['Running pod with Never RestartPolicy', 'Never', 'Running', true],
    ['Failed pod with Always RestartPolicy', 'Always', 'Failed', true],
    ['Succeeded pod with Always RestartPolicy', 'Always', 'Succeeded', true],
    ['Running pod with Always RestartPolicy', 'Always', 'Running', true],
    ['Failed pod with OnFailure RestartPolicy', 'OnFailure', 'Failed', true],
    ['Succeeded pod with OnFailure RestartPolicy', 'OnFailure', 'Succeeded', false],
    ['Running pod with OnFailure RestartPolicy', 'OnFailure', 'Running', true],
  ];
  for (const [name, policy, phase, want] of table) {
    assert.equal(notReadyPodKeptV112(makePod(phase, false, false, policy)), want, name);
    // …and through syncService (TestSyncEndpointsItemsExcludeNotReadyPodsWithRestartPolicy…):
    const subsets = computeSubsets(makeService(false), [makePod(phase, false, false, policy)], 'v1.12');
    assert.deepEqual(count(subsets), want ? [0, 1] : [0, 0], `${name} (syncService)`);
  }
});

test('v1.32 TestShouldPodBeInEndpoints (staging/src/k8s.io/endpointslice/util/controller_utils_test.go)', () => {
  const table: [string, Pod, boolean, boolean][] = [
    ['Failed pod with Never RestartPolicy', makePod('Failed', false, false, 'Never'), false, false],
    ['Succeeded pod with Never RestartPolicy', makePod('Succeeded', false, false, 'Never'), false, false],
    ['Running pod with Never RestartPolicy', makePod('Running', false, false, 'Never'), false, true],
    ['Failed pod with Always RestartPolicy', makePod('Failed', false, false, 'Always'), false, false],
    ['Succeeded pod with Always RestartPolicy', makePod('Succeeded', false, false, 'Always'), false, false],
    ['Running pod with Always RestartPolicy', makePod('Running', false, false, 'Always'), false, true],
    ['Failed pod with OnFailure RestartPolicy', makePod('Failed', false, false, 'OnFailure'), false, false],
    ['Succeeded pod with OnFailure RestartPolicy', makePod('Succeeded', false, false, 'OnFailure'), false, false],
    ['Running pod with OnFailure RestartPolicy', makePod('Running', false, false, 'OnFailure'), false, true],
    ['Pod without Pod IP', { ...makePod('Running', false, false), status: { phase: 'Running' } }, false, false],
    ['Terminating Pod with includeTerminating disabled', makePod('Running', false, true), false, false],
    ['Terminating Pod with includeTerminating enabled', makePod('Running', false, true), true, true],
  ];
  for (const [name, pod, includeTerminating, want] of table)
    assert.equal(shouldPodBeInEndpoints(pod, includeTerminating), want, name);
});

test('strconv.ParseBool spellings (strconv atob_test.go atobtests)', () => {
  for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) assert.equal(parseGoBool(t), true, t);
  for (const f of ['0', 'f', 'F', 'FALSE', 'false', 'False']) assert.equal(parseGoBool(f), false, f);
  for (const bad of ['', 'yes', 'on', 'tRuE', ' true', 'asdf', '2']) assert.equal(parseGoBool(bad), undefined, bad);
});

test('the tolerate-unready annotation: v1.12 over publishNotReadyAddresses when it parses; v1.32 ignores it', () => {
  const h = collectHandled();
  try {
    const cases: [boolean, string | undefined, EndpointsRules, boolean][] = [
      [false, undefined, 'v1.12', false],
      [true, undefined, 'v1.12', true],
      [false, 'true', 'v1.12', true],
      [false, 'T', 'v1.12', true],
      [false, '1', 'v1.12', true],
      [true, 'false', 'v1.12', false], // the annotation, when it parses, decides (PR #63742)
      [true, 'F', 'v1.12', false],
      [false, 'yes', 'v1.12', false], // unparsable: HandleError, and the field stands
      [true, 'yes', 'v1.12', true],
      [false, 'true', 'v1.32', false],
      [true, 'false', 'v1.32', true],
    ];
    for (const [field, annotation, rules, want] of cases)
      assert.equal(tolerateUnready(makeService(field, annotation), rules), want, `${field} ${annotation} ${rules}`);
    assert.deepEqual(h.messages, [
      'Failed to parse annotation service.alpha.kubernetes.io/tolerate-unready-endpoints: strconv.ParseBool: parsing "yes": invalid syntax',
      'Failed to parse annotation service.alpha.kubernetes.io/tolerate-unready-endpoints: strconv.ParseBool: parsing "yes": invalid syntax',
    ]);
  } finally {
    h.done();
  }
});

test('TestTruncateEndpoints (endpoints_controller_test.go, v1.32)', () => {
  const table: [string, number[], number[], number[], number[]][] = [
    ['empty', [], [], [], []],
    [
      'total endpoints < max capacity',
      [50, 100, 100, 100, 100],
      [50, 100, 100, 100, 100],
      [50, 100, 100, 100, 100],
      [50, 100, 100, 100, 100],
    ],
    [
      'total endpoints = max capacity',
      [100, 100, 100, 100, 100],
      [100, 100, 100, 100, 100],
      [100, 100, 100, 100, 100],
      [100, 100, 100, 100, 100],
    ],
    [
      'total ready endpoints < max capacity, but total endpoints > max capacity',
      [90, 110, 50, 10, 20],
      [101, 200, 200, 201, 298],
      [90, 110, 50, 10, 20],
      [73, 144, 144, 145, 214],
    ],
    [
      'total ready endpoints > max capacity',
      [205, 400, 402, 400, 693],
      [100, 200, 200, 200, 300],
      [98, 191, 192, 191, 328],
      [0, 0, 0, 0, 0],
    ],
  ];
  const addrs = (n: number) => Array.from({ length: n }, (_, i) => ({ ip: `10.0.${Math.floor(i / 250)}.${i % 250}` }));
  for (const [name, ready, notReady, wantReady, wantNotReady] of table) {
    const subsets: EndpointSubset[] = ready.map((r, i) => ({
      addresses: addrs(r),
      notReadyAddresses: addrs(notReady[i]),
    }));
    const { subsets: out, truncated } = truncateEndpoints(subsets);
    assert.deepEqual(
      out.map((s) => s.addresses?.length ?? 0),
      wantReady,
      `${name}: ready`,
    );
    assert.deepEqual(
      out.map((s) => s.notReadyAddresses?.length ?? 0),
      wantNotReady,
      `${name}: not ready`,
    );
    assert.equal(truncated, ready.reduce((a, b) => a + b, 0) + notReady.reduce((a, b) => a + b, 0) > 1000, name);
  }
});

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

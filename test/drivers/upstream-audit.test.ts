import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  auditFlags,
  auditLog,
  auditOffset,
  lockIdentities,
  objectStates,
  readAudit,
  requestTimes,
} from '../../src/drivers/upstream/audit';
import { schedulerConfigYaml } from '../../src/drivers/upstream/commands';
import { listeningAddress, listeningIn } from '../../src/drivers/upstream/listen';

const line = (o: object) => `${JSON.stringify({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', ...o })}\n`;

test("kube-apiserver's audit log is read back into writes and reads per user, from the scenario's offset", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-audit-test-'));
  try {
    const flags = auditFlags(dir);
    assert.ok(flags.includes(`--audit-log-path=${auditLog(dir)}`));
    assert.match(fs.readFileSync(path.join(dir, 'audit-policy.yaml'), 'utf8'), /level: Metadata/);
    fs.writeFileSync(auditLog(dir), line({ stage: 'ResponseComplete', verb: 'create', user: { username: 'before' } }));
    const from = auditOffset(dir);
    fs.appendFileSync(
      auditLog(dir),
      [
        line({ stage: 'ResponseComplete', verb: 'create', user: { username: 'a' }, objectRef: { resource: 'pods' } }),
        line({ stage: 'ResponseComplete', verb: 'patch', user: { username: 'a' }, objectRef: { resource: 'nodes' } }),
        line({ stage: 'ResponseComplete', verb: 'list', user: { username: 'b' }, objectRef: { resource: 'pods' } }),
        // A watch counts once, when it starts.
        line({ stage: 'ResponseStarted', verb: 'watch', user: { username: 'b' }, objectRef: { resource: 'pods' } }),
        line({ stage: 'ResponseComplete', verb: 'watch', user: { username: 'b' }, objectRef: { resource: 'pods' } }),
        line({
          stage: 'ResponseStarted',
          verb: 'watch',
          user: { username: 'c' },
          objectRef: { resource: 'pods' },
          requestURI: '/api/v1/pods?allowWatchBookmarks=true&sendInitialEvents=true&watch=true',
        }),
        // Discovery is no read of the cluster's state.
        line({ stage: 'ResponseComplete', verb: 'get', user: { username: 'b' } }),
        // A line still being written is not read.
        '{"kind":"Event","stage":"Respo',
      ].join(''),
    );
    const r = readAudit(dir, from);
    assert.deepEqual(r.writesByUser, { a: 2 });
    assert.deepEqual(r.readsByUser, { b: { get: 0, list: 1, watch: 1 }, c: { get: 0, list: 1, watch: 1 } });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a leader lock's holder is read from the successful lock writes an API server logged with their bodies", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-audit-test-'));
  try {
    auditFlags(dir, { lockBodies: true });
    const policy = fs.readFileSync(path.join(dir, 'audit-policy.yaml'), 'utf8');
    assert.match(policy, /level: Request\n {4}verbs: \[create, update\]/);
    assert.match(policy, /resourceNames: \[kube-controller-manager, kube-scheduler\]/);
    assert.equal(lockIdentities(dir).controllerManager, undefined); // no log yet
    const write = (name: string, verb: string, code: number, holder: string, namespace = 'kube-system') =>
      line({
        stage: 'ResponseComplete',
        verb,
        objectRef: { resource: 'leases', namespace, name },
        responseStatus: { code },
        requestObject: { spec: { holderIdentity: holder } },
      });
    fs.writeFileSync(
      auditLog(dir),
      [
        write('kube-controller-manager', 'create', 201, 'host_a'),
        // A refused write names a candidate that did not get the lock.
        write('kube-controller-manager', 'update', 409, 'host_b'),
        write('kube-scheduler', 'update', 200, 'host_s'),
        // Not a leader lock: another Lease, or one in another namespace.
        write('kube-apiserver-x', 'update', 200, 'kube-apiserver-x'),
        write('kube-scheduler', 'update', 200, 'host_other', 'default'),
      ].join(''),
    );
    assert.deepEqual(lockIdentities(dir), { controllerManager: 'host_a', scheduler: 'host_s' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("kube-scheduler's configuration elects a leader only when told, with the timings given", () => {
  assert.match(schedulerConfigYaml('/k'), /leaderElection: \{ leaderElect: false \}/);
  const elected = schedulerConfigYaml('/k', undefined, undefined, {
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
  });
  assert.match(
    elected,
    /leaderElect: true, leaseDuration: 15s, renewDeadline: 10s, retryPeriod: 2s, resourceLock: leases/,
  );
  assert.match(elected, /resourceNamespace: kube-system, resourceName: kube-scheduler/);
  // A timing that is not whole seconds stays exact (Go's "1500ms").
  const fine = schedulerConfigYaml('/k', undefined, undefined, {
    leaseDurationMs: 1_500,
    renewDeadlineMs: 1_000,
    retryPeriodMs: 250,
  });
  assert.match(fine, /leaseDuration: 1500ms, renewDeadline: 1s, retryPeriod: 250ms,/);
});

test('the address a port listens on is what the kernel says', async () => {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  try {
    assert.equal(listeningAddress(port), '127.0.0.1');
  } finally {
    server.close();
  }
  // A wildcard socket as Go binds "0.0.0.0" on a dual-stack machine (tcp6 ::), and a plain IPv4 one.
  const header = '  sl  local_address rem_address   st\n';
  const tcp6 = `${header}   0: 00000000000000000000000000000000:192B 00000000000000000000000000000000:0000 0A 0\n`;
  assert.equal(listeningIn(tcp6, 6443), '0.0.0.0');
  assert.equal(listeningIn(`${header}   0: 0100007F:192B 00000000:0000 0A 0\n`, 6443), '127.0.0.1');
  assert.equal(listeningIn(`${header}   0: 0100007F:192B 0100007F:9C40 01 0\n`, 6443), undefined);
});

test('requestTimes: when kube-apiserver received each successful DELETE of each pod (or a subresource named), from the offset, to the microsecond, in one read', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-audit-test-'));
  // One audit event: verb on default/p1 (or `ref`'s changes), its answer's code (none: not answered yet), when received.
  const ev = (verb: string, at: string, code: number | undefined, ref: object = {}, stage = 'ResponseComplete') =>
    line({
      stage,
      verb,
      objectRef: { resource: 'pods', namespace: 'default', name: 'p1', ...ref },
      ...(code === undefined ? {} : { responseStatus: { code } }),
      requestReceivedTimestamp: `2026-12-07T03:${at}Z`,
    });
  try {
    fs.writeFileSync(auditLog(dir), ev('delete', '00:00.000000', 200));
    const from = auditOffset(dir);
    fs.appendFileSync(
      auditLog(dir),
      [
        // Not the object's DELETE: a status patch, another pod, another namespace, a refused one, the start of one.
        ev('patch', '37:48.100000', 200, { subresource: 'status' }),
        ev('delete', '37:48.200000', 200, { name: 'p2' }),
        ev('delete', '37:48.300000', 200, { namespace: 'other' }),
        ev('delete', '37:48.400000', 403),
        ev('delete', '37:49.211934', undefined, {}, 'ResponseStarted'),
        ev('delete', '37:49.211934', 200),
        ev('delete', '37:50.5', 200),
        '{"kind":"Event","stage":"ResponseComplete","verb":"delete","objectRef":{"name":"p1"',
      ].join(''),
    );
    const pod = (name: string, namespace = 'default') => ({ resource: 'pods', namespace, name });
    assert.deepEqual(requestTimes(dir, from, 'delete', [pod('p1'), pod('nobody'), pod('p2'), pod('p1', 'other')]), [
      [Date.parse('2026-12-07T03:37:49.211Z'), Date.parse('2026-12-07T03:37:50.500Z')],
      [],
      [Date.parse('2026-12-07T03:37:48.200Z')],
      [Date.parse('2026-12-07T03:37:48.300Z')],
    ]);
    // A subresource's requests where the ref names it: the status patch, and not the pod's own DELETEs.
    assert.deepEqual(requestTimes(dir, from, 'patch', [{ ...pod('p1'), subresource: 'status' }, pod('p1')]), [
      [Date.parse('2026-12-07T03:37:48.100Z')],
      [],
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('objectStates: what the objects of a kept resource were at an instant and after each write since, from the bodies the policy logs', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-audit-test-'));
  try {
    auditFlags(dir);
    const policy = fs.readFileSync(path.join(dir, 'audit-policy.yaml'), 'utf8');
    assert.match(policy, /level: RequestResponse/);
    assert.match(
      policy,
      /group: "apps", resources: \[deployments, deployments\/status, deployments\/finalize, replicasets/,
    );
    // Written before the scenario's offset: not its history.
    fs.writeFileSync(auditLog(dir), '');
    const from = auditOffset(dir);
    const at = (s: number) => new Date(Date.UTC(2026, 11, 7, 5, 0, s)).toISOString().replace('.000Z', '.000000Z');
    const rs = (name: string, replicas: number) => ({
      kind: 'ReplicaSet',
      metadata: { name, namespace: 'default' },
      spec: { replicas },
    });
    const write = (s: number, verb: string, name: string | undefined, body: object | undefined, extra: object = {}) =>
      line({
        stage: 'ResponseComplete',
        verb,
        objectRef: { resource: 'replicasets', apiGroup: 'apps', namespace: 'default', name, ...extra },
        responseStatus: { code: 200 },
        responseObject: body,
        stageTimestamp: at(s),
      });
    fs.appendFileSync(
      auditLog(dir),
      [
        // A create names its object in the body only.
        write(1, 'create', undefined, rs('a', 3)),
        write(2, 'update', 'a', rs('a', 2)),
        // Refused: not a state.
        line({
          stage: 'ResponseComplete',
          verb: 'update',
          objectRef: { resource: 'replicasets', apiGroup: 'apps', namespace: 'default', name: 'a' },
          responseStatus: { code: 409 },
          stageTimestamp: at(3),
        }),
        write(4, 'create', undefined, rs('b', 1)),
        write(5, 'update', 'a', { ...rs('a', 2), status: { replicas: 2 } }, { subresource: 'status' }),
        // Another namespace's, another group's.
        line({
          stage: 'ResponseComplete',
          verb: 'create',
          objectRef: { resource: 'replicasets', apiGroup: 'apps', namespace: 'other', name: 'c' },
          responseStatus: { code: 201 },
          responseObject: rs('c', 1),
          stageTimestamp: at(5),
        }),
        // A scale answers with a Scale: a's state is not known until its next write.
        write(6, 'update', 'a', { kind: 'Scale', metadata: { name: 'a' } }, { subresource: 'scale' }),
        write(7, 'update', 'a', rs('a', 1)),
        write(8, 'delete', 'b', { kind: 'Status', status: 'Success' }),
        '{"kind":"Event","stage":"Respo',
      ].join(''),
    );
    const t = (s: number) => Date.parse(at(s));
    const states = (since: number, name?: string) =>
      objectStates(dir, from, { resource: 'replicasets.apps', namespace: 'default', name }, since)?.map((s) => [
        (s.at - t(0)) / 1000,
        s.objects
          .map((o) => `${o.metadata.name}=${(o as unknown as { spec: { replicas: number } }).spec.replicas}`)
          .join(' '),
      ]);
    assert.deepEqual(states(t(2) + 500), [
      [2.5, 'a=2'],
      [4, 'a=2 b=1'],
      [5, 'a=2 b=1'],
      [7, 'a=1 b=1'],
      [8, 'a=1'],
    ]);
    assert.deepEqual(states(t(0)), [
      [0, ''],
      [1, 'a=3'],
      [2, 'a=2'],
      [4, 'a=2 b=1'],
      [5, 'a=2 b=1'],
      [7, 'a=1 b=1'],
      [8, 'a=1'],
    ]);
    assert.deepEqual(states(t(3), 'b'), [
      [3, ''],
      [4, 'b=1'],
      [8, ''],
    ]);
    // Not kept: no history.
    assert.equal(objectStates(dir, from, { resource: 'pods', namespace: 'default' }, t(0)), undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('objectStates: an object last written before the offset, or by a deletecollection, has no known state; a delete waiting for finalizers leaves it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-audit-test-'));
  try {
    fs.writeFileSync(auditLog(dir), '');
    const at = (s: number) => new Date(Date.UTC(2026, 11, 7, 5, 0, s)).toISOString();
    const ns = (phase: string, finalizers: string[], deleting = false) => ({
      kind: 'Namespace',
      metadata: { name: 'shop', ...(deleting ? { deletionTimestamp: at(2) } : {}) },
      spec: { finalizers },
      status: { phase },
    });
    const write = (s: number, verb: string, body: object, subresource?: string) =>
      line({
        stage: 'ResponseComplete',
        verb,
        objectRef: { resource: 'namespaces', namespace: 'shop', name: 'shop', apiVersion: 'v1', subresource },
        responseStatus: { code: 200 },
        responseObject: body,
        stageTimestamp: at(s),
      });
    fs.appendFileSync(
      auditLog(dir),
      [
        write(2, 'delete', ns('Terminating', ['kubernetes'], true)),
        write(3, 'update', ns('Terminating', [], true), 'finalize'),
        write(4, 'delete', ns('Terminating', [], true)),
      ].join(''),
    );
    const phases = (since: number) =>
      objectStates(dir, 0, { resource: 'namespaces', name: 'shop' }, since)?.map((s) => [
        new Date(s.at).toISOString(),
        s.objects.map((o) => (o as unknown as { status: { phase: string } }).status.phase).join(),
      ]);
    // Its first write here is no creation: before it, its state is not known.
    assert.deepEqual(phases(Date.parse(at(1))), [
      [at(2), 'Terminating'],
      [at(3), 'Terminating'],
      [at(4), ''],
    ]);
    fs.appendFileSync(
      auditLog(dir),
      line({
        stage: 'ResponseComplete',
        verb: 'deletecollection',
        objectRef: { resource: 'namespaces' },
        responseStatus: { code: 200 },
        stageTimestamp: at(5),
      }),
    );
    assert.deepEqual(phases(Date.parse(at(6))), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

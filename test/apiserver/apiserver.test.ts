import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../src/cluster/cluster';
import { clusterConfig } from '../../src/profile/config';
import { loadProfile } from '../../src/profile/profile';
import { Pod, Node } from '../../src/api/core';
import { StatusError, errors } from '../../src/api/errors';
import { ApiWatchEvent } from '../../src/api/request';

async function cluster(): Promise<Cluster> {
  const c = new Cluster({ config: clusterConfig(loadProfile('seed')) });
  await c.start();
  return c;
}

const pod = (name: string, extra: Partial<Pod['spec']> = {}): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx:1.25' }], ...extra },
});

function statusOf(e: unknown): { code: number; reason?: string; message?: string } {
  assert.ok(e instanceof StatusError, `expected a StatusError, got ${e}`);
  return { code: e.status.code, reason: e.status.reason, message: e.status.message };
}

test('create fills server fields and defaults; get returns it with a resourceVersion', async () => {
  const c = await cluster();
  const created = await c.client.create({ resource: 'pods', namespace: 'default' }, pod('a'));
  assert.ok(created.metadata.uid);
  assert.ok(created.metadata.resourceVersion);
  assert.equal(created.spec.restartPolicy, 'Always');
  assert.equal(created.spec.schedulerName, 'default-scheduler');
  assert.equal(created.status?.phase, 'Pending');
  assert.equal(created.status?.qosClass, 'BestEffort');
  const got = await c.client.get<Pod>({ resource: 'pods', namespace: 'default' }, 'a');
  assert.equal(got.metadata.resourceVersion, created.metadata.resourceVersion);
  await assert.rejects(
    c.client.create({ resource: 'pods', namespace: 'default' }, pod('a')),
    (e) => statusOf(e).code === 409 && statusOf(e).reason === 'AlreadyExists',
  );
});

test('a stale resourceVersion is a 409 Conflict; a no-op update keeps the resourceVersion', async () => {
  const c = await cluster();
  const ref = { resource: 'pods', namespace: 'default' };
  const created = await c.client.create(ref, pod('a'));
  const same = await c.client.update(ref, created);
  assert.equal(same.metadata.resourceVersion, created.metadata.resourceVersion);
  const changed = await c.client.update(ref, { ...created, metadata: { ...created.metadata, labels: { app: 'db' } } });
  assert.notEqual(changed.metadata.resourceVersion, created.metadata.resourceVersion);
  await assert.rejects(
    c.client.update(ref, { ...created, metadata: { ...created.metadata, labels: { app: 'x' } } }),
    (e) => {
      const s = statusOf(e);
      return s.code === 409 && s.reason === 'Conflict' && /the object has been modified/.test(s.message!);
    },
  );
});

test('invalid objects are 422 Invalid with causes naming the fields', async () => {
  const c = await cluster();
  await assert.rejects(
    c.client.create(
      { resource: 'pods', namespace: 'default' },
      pod('Bad_Name', { restartPolicy: 'Sometimes' as never }),
    ),
    (e) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.status.code, 422);
      assert.equal(e.status.reason, 'Invalid');
      const fields = e.status.details!.causes!.map((x) => x.field);
      assert.ok(fields.includes('metadata.name'));
      assert.ok(fields.includes('spec.restartPolicy'));
      assert.match(e.status.message!, /^Pod "Bad_Name" is invalid: /);
      return true;
    },
  );
});

test('objects in a missing namespace are refused; the system namespaces cannot be deleted', async () => {
  const c = await cluster();
  await assert.rejects(
    c.client.create(
      { resource: 'pods', namespace: 'nope' },
      { ...pod('a'), metadata: { name: 'a', namespace: 'nope' } },
    ),
    (e) => statusOf(e).code === 404,
  );
  await assert.rejects(
    c.client.delete({ resource: 'namespaces' }, 'kube-system'),
    (e) => statusOf(e).code === 403 && /may not be deleted/.test(statusOf(e).message!),
  );
});

test('status is changed only through the status subresource', async () => {
  const c = await cluster();
  const ref = { resource: 'nodes' };
  const n = await c.client.create<Node>(ref, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1' },
    status: { capacity: { cpu: '1' } },
  });
  const viaMain = await c.client.update<Node>(ref, { ...n, status: { capacity: { cpu: '8' } } });
  assert.equal(viaMain.status?.capacity?.cpu, '1');
  const viaStatus = await c.client.update<Node>(
    ref,
    { ...viaMain, metadata: { ...viaMain.metadata, labels: { x: 'y' } }, status: { capacity: { cpu: '8' } } },
    { subresource: 'status' },
  );
  assert.equal(viaStatus.status?.capacity?.cpu, '8');
  assert.equal(viaStatus.metadata.labels?.x, undefined);
});

test('watch from a resourceVersion streams ADDED, MODIFIED, DELETED in order, filtered by label', async () => {
  const c = await cluster();
  const ref = { resource: 'pods', namespace: 'default' };
  const list = await c.client.list(ref);
  const seen: string[] = [];
  // Pods no scheduler picks up: the scheduler's own write (PodScheduled False, no nodes) is not among the events.
  const unscheduled = { schedulerName: 'nobody' };
  const w = await c.client.watch<Pod>(
    ref,
    { resourceVersion: list.metadata.resourceVersion, labelSelector: 'app=web' },
    {
      onEvent: (e: ApiWatchEvent<Pod>) => seen.push(`${e.type} ${e.object.metadata.name}`),
    },
  );
  await c.client.create(ref, pod('a', unscheduled));
  await c.client.create(ref, {
    ...pod('other', unscheduled),
    metadata: { name: 'other', namespace: 'default', labels: { app: 'db' } },
  });
  await c.client.patch(ref, 'a', 'merge', { metadata: { annotations: { x: '1' } } });
  await c.client.patch(ref, 'a', 'merge', { metadata: { labels: { app: 'db' } } });
  await c.settle();
  w.stop();
  assert.deepEqual(seen, ['ADDED a', 'MODIFIED a', 'DELETED a']);
});

test('binding assigns a node once; a bound pod is deleted gracefully and its kubelet confirms', async () => {
  const c = await cluster();
  await c.addKubelet({ name: 'n1' });
  const ref = { resource: 'pods', namespace: 'default' };
  await c.client.create(ref, pod('a'));
  await c.client.createSubresource(ref, 'a', 'binding', {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name: 'a' },
    target: { kind: 'Node', name: 'n1' },
  });
  await assert.rejects(
    c.client.createSubresource(ref, 'a', 'binding', { metadata: { name: 'a' }, target: { name: 'n2' } }),
    (e) => statusOf(e).code === 409,
  );
  await c.settle();
  const running = await c.client.get<Pod>(ref, 'a');
  assert.equal(running.spec.nodeName, 'n1');
  assert.equal(running.status?.phase, 'Running');
  c.kubelet('n1').stop();
  const deleting = await c.client.delete<Pod>(ref, 'a');
  assert.ok((deleting as Pod).metadata.deletionTimestamp, 'a bound pod waits for its kubelet');
  await c.advance(60_000);
  assert.ok(
    (await c.client.get<Pod>(ref, 'a')).metadata.deletionTimestamp,
    'with the kubelet gone it stays Terminating',
  );
  await c.kubelet('n1').start();
  await c.settle();
  await assert.rejects(c.client.get(ref, 'a'), (e) => statusOf(e).code === 404);
});

test("reads are counted per caller (API-CACHE); the API server's own reads, with no caller, are not", async () => {
  const c = await cluster();
  try {
    const reader = c.clientFor('test:reader');
    await reader.list({ resource: 'pods', namespace: 'default' });
    await reader.list({ resource: 'nodes' });
    await assert.rejects(
      reader.get({ resource: 'pods', namespace: 'default' }, 'nope'),
      (e) => statusOf(e).code === 404,
    );
    const w = await reader.watch({ resource: 'pods', namespace: 'default' }, {}, { onEvent: () => undefined });
    w.stop();
    await c.api.list({ resource: 'pods' }); // no caller: the API server itself
    const audit = await c.apiAudit();
    assert.deepEqual(audit.readsByUser?.['test:reader'], { get: 1, list: 2, watch: 1 });
    assert.equal(audit.readsByUser?.['system:anonymous'], undefined);
    // The controller manager and the scheduler started their informers: lists and watches.
    for (const user of ['system:kube-controller-manager', 'system:kube-scheduler']) {
      const r = audit.readsByUser?.[user];
      assert.ok(r && r.list > 0 && r.watch > 0, `${user}: ${JSON.stringify(r)}`);
    }
  } finally {
    await c.stop();
  }
});

test('an update runs as Store.Update: mutating admission, the resourceVersion (409), the strategy (422), validating admission (403)', async () => {
  const c = await cluster();
  const ref = { resource: 'pods', namespace: 'default' };
  const created = await c.client.create(ref, pod('a'));
  await c.client.update(ref, { ...created, metadata: { ...created.metadata, labels: { app: 'db' } } });
  // refusals keyed by a label the update sets
  const refuse =
    (phase: string) => (attrs: { operation: string; object?: { metadata: { labels?: Record<string, string> } } }) => {
      if (attrs.operation === 'UPDATE' && attrs.object?.metadata.labels?.refuse === phase)
        throw errors.forbidden({ kind: 'pods', name: 'a' }, phase);
    };
  c.api.admission.use({ name: 'TestMutating', admit: refuse('admit') });
  c.api.admission.use({ name: 'TestValidating', validate: refuse('validate') });
  const stale = (labels: Record<string, string>, spec: Partial<Pod['spec']> = {}) =>
    c.client.update(ref, { ...created, metadata: { ...created.metadata, labels }, spec: { ...created.spec, ...spec } });
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 200,
      (e) => statusOf(e).code,
    );
  // stale (created's resourceVersion is behind): a mutating refusal comes first, a validating one after the 409
  assert.equal(await code(stale({ refuse: 'admit' })), 403);
  assert.equal(await code(stale({ refuse: 'validate' })), 409);
  // stale and invalid (a pod's containers cannot change name): the 409 comes first
  assert.equal(await code(stale({}, { containers: [{ name: 'other', image: 'nginx:1.25' }] })), 409);
  // current: the strategy's 422 before a validating refusal
  const current = await c.client.get<Pod>(ref, 'a');
  const invalid = { ...current, metadata: { ...current.metadata, labels: { refuse: 'validate' } } };
  invalid.spec = { ...current.spec, containers: [{ name: 'other', image: 'nginx:1.25' }] };
  assert.equal(await code(c.client.update(ref, invalid)), 422);
  assert.equal(
    await code(c.client.update(ref, { ...current, metadata: { ...current.metadata, labels: { refuse: 'validate' } } })),
    403,
  );
});

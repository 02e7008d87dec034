import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiServer } from '../../src/apiserver/apiserver';
import { coreRegistry } from '../../src/api/resources';
import { MemoryStore } from '../../src/store';
import { VirtualClock } from '../../src/clock';
import { StatusError } from '../../src/api/errors';
import { KubeObject } from '../../src/api/meta';
import { ListOptions } from '../../src/api/request';
import { decodeContinue, encodeContinue, validateListOptions } from '../../src/apiserver/storage-list';

function statusOf(e: unknown) {
  assert.ok(e instanceof StatusError, `expected a StatusError, got ${e}`);
  return e.status;
}

async function server(names = ['a', 'b', 'c', 'd', 'e']) {
  const clock = new VirtualClock(0);
  const api = new ApiServer(coreRegistry(), new MemoryStore(), clock);
  const ref = { resource: 'secrets', namespace: 'default' };
  for (const name of names)
    await api.create(ref, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name,
        namespace: 'default',
        labels: { odd: String(names.indexOf(name) % 2 === 0) },
        annotations: { v: '0' },
      },
    });
  const list = (o: ListOptions = {}) => api.list(ref, o);
  const names_ = (l: { items: KubeObject[] }) => l.items.map((i) => i.metadata.name).join(',');
  const change = (name: string, v: string) =>
    api.patch({ ...ref, name }, 'merge', { metadata: { annotations: { v } } }) as Promise<KubeObject>;
  return { api, clock, ref, list, names: names_, change };
}

// Upstream TestValidateListOptions (staging/src/k8s.io/apimachinery/pkg/apis/meta/internalversion/validation/validation_test.go at v1.32).
test('list options are validated as upstream ValidateListOptions: 422 ListOptions.meta.k8s.io', () => {
  const table: { name: string; o: ListOptions & { limit?: number }; err?: string }[] = [
    { name: 'valid-default', o: {} },
    { name: 'valid-resourceversion', o: { resourceVersion: '1' } },
    { name: 'valid-resourceversion-exact', o: { resourceVersion: '1', resourceVersionMatch: 'Exact' } },
    {
      name: 'invalid-resourceversion-exact',
      o: { resourceVersion: '0', resourceVersionMatch: 'Exact' },
      err: 'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    },
    { name: 'valid-resourceversion-notolderthan', o: { resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' } },
    {
      name: 'invalid-resourceversionmatch',
      o: { resourceVersion: '0', resourceVersionMatch: 'foo' },
      err: 'resourceVersionMatch: Unsupported value: "foo": supported values: "Exact", "NotOlderThan", ""',
    },
    {
      name: 'resourceversionmatch-without-resourceversion',
      o: { resourceVersionMatch: 'NotOlderThan' },
      err: 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    },
    {
      name: 'resourceversionmatch-with-continue',
      o: { resourceVersion: '1', resourceVersionMatch: 'NotOlderThan', continue: 'x' },
      err: 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
    },
  ];
  for (const t of table) {
    if (!t.err) {
      assert.doesNotThrow(() => validateListOptions(t.o), t.name);
      continue;
    }
    assert.throws(
      () => validateListOptions(t.o),
      (e) => {
        const s = statusOf(e);
        assert.equal(s.code, 422, t.name);
        assert.equal(s.message, `ListOptions.meta.k8s.io "" is invalid: ${t.err}`, t.name);
        return true;
      },
    );
  }
});

// Upstream storage.EncodeContinue / DecodeContinue (staging/src/k8s.io/apiserver/pkg/storage/continue.go,
// TestDecodeContinue in continue_test.go at v1.32): base64url JSON {"v","rv","start"}, start relative to the prefix.
test('continue tokens: encoded relative to the prefix; bad ones are 400 "invalid continue token"', () => {
  const prefix = '/registry/pods/';
  const token = encodeContinue('/registry/pods/ns/b\x00', prefix, 7);
  assert.deepEqual(JSON.parse(Buffer.from(token, 'base64url').toString()), {
    v: 'meta.k8s.io/v1',
    rv: 7,
    start: 'ns/b\x00',
  });
  assert.deepEqual(decodeContinue(token, prefix), { key: '/registry/pods/ns/b\x00', revision: 7 });
  assert.deepEqual(decodeContinue(encodeContinue('/registry/pods/x', prefix, -1), prefix).revision, -1);
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const bad: [string, string][] = [
    ['%%%', 'continue key is not valid: illegal base64 data'],
    [enc({ v: 'meta.k8s.io/v2', rv: 1, start: 'a' }), 'server does not recognize this encoded version'],
    [enc({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }), 'incorrect encoded start resourceVersion'],
    [enc({ v: 'meta.k8s.io/v1', rv: 1, start: '' }), 'encoded start key empty'],
    [enc({ v: 'meta.k8s.io/v1', rv: 1, start: '../secrets/x' }), 'continue key is not valid: ../secrets/x'],
    [enc({ v: 'meta.k8s.io/v1', rv: 1, start: 'a//b' }), 'continue key is not valid: a//b'],
  ];
  for (const [t, why] of bad)
    assert.throws(
      () => decodeContinue(t, prefix),
      (e) =>
        statusOf(e).code === 400 &&
        (statusOf(e).message ?? '').startsWith('invalid continue token: ') &&
        (statusOf(e).message ?? '').includes(why),
      why,
    );
});

test('resourceVersion "" is a consistent read: a write just made is listed, at the store revision', async () => {
  const s = await server();
  await s.list(); // the cache exists
  const changed = await s.change('c', '1');
  const l = await s.list();
  assert.equal(l.metadata.resourceVersion, changed.metadata.resourceVersion);
  assert.equal(l.items.find((i) => i.metadata.name === 'c')?.metadata.annotations?.v, '1');
});

test("limit and continue: chunks in key order, each read at the first chunk's revision", async () => {
  const s = await server();
  const first = await s.list({ limit: 2 });
  assert.equal(s.names(first), 'a,b');
  assert.ok(first.metadata.continue);
  assert.equal(first.metadata.remainingItemCount, 3);
  // Changes after the first chunk are not seen by the next ones (a consistent snapshot).
  await s.change('c', 'later');
  await s.api.delete({ ...s.ref, name: 'd' });
  const second = await s.list({ limit: 2, continue: first.metadata.continue });
  assert.equal(s.names(second), 'c,d');
  assert.equal(second.metadata.resourceVersion, first.metadata.resourceVersion);
  assert.equal(second.items[0].metadata.annotations?.v, '0');
  const third = await s.list({ limit: 2, continue: second.metadata.continue });
  assert.equal(s.names(third), 'e');
  assert.equal(third.metadata.continue, undefined);
  assert.equal(third.metadata.remainingItemCount, undefined);
  // A filtered list: no remainingItemCount; a full page with keys after it still continues (etcd3 GetList).
  const odd = await s.list({ limit: 2, labelSelector: 'odd=true' });
  assert.equal(s.names(odd), 'a,c');
  assert.ok(odd.metadata.continue);
  assert.equal(odd.metadata.remainingItemCount, undefined);
});

test('resourceVersion "0" is served from the cache whatever the limit (shouldDelegateList)', async () => {
  const s = await server();
  const l = await s.list({ resourceVersion: '0', limit: 2 });
  assert.equal(s.names(l), 'a,b,c,d,e');
  assert.equal(l.metadata.continue, undefined);
});

test('Exact reads the objects as they were; NotOlderThan the present; too new a revision is 504', async () => {
  const s = await server();
  const before = await s.list();
  await s.change('a', '1');
  await s.api.delete({ ...s.ref, name: 'b' });
  const exact = await s.list({ resourceVersion: before.metadata.resourceVersion, resourceVersionMatch: 'Exact' });
  assert.equal(s.names(exact), 'a,b,c,d,e');
  assert.equal(exact.metadata.resourceVersion, before.metadata.resourceVersion);
  assert.equal(exact.items[0].metadata.annotations?.v, '0');
  // NotOlderThan: whatever the cache has, as long as it is at least that revision (it may not have the delete yet).
  const notOlder = await s.list({
    resourceVersion: before.metadata.resourceVersion,
    resourceVersionMatch: 'NotOlderThan',
  });
  assert.ok(Number(notOlder.metadata.resourceVersion) >= Number(before.metadata.resourceVersion));
  const now = await s.list();
  assert.equal(s.names(now), 'a,c,d,e');
  // The legacy exact read: a resourceVersion with a limit and no match.
  assert.equal(s.names(await s.list({ resourceVersion: before.metadata.resourceVersion, limit: 10 })), 'a,b,c,d,e');
  const future = String(Number(now.metadata.resourceVersion) + 100);
  for (const match of ['Exact', 'NotOlderThan'])
    await assert.rejects(
      s.list({ resourceVersion: future, resourceVersionMatch: match }),
      (e) => statusOf(e).code === 504 && /^Too large resource version/.test(statusOf(e).message ?? ''),
    );
  await assert.rejects(
    s.list({ resourceVersion: before.metadata.resourceVersion, continue: 'x' }),
    (e) => statusOf(e).message === 'specifying resource version is not allowed when using continue',
  );
});

test('a revision older than the cache remembers is 410 Expired; an expired continue token offers one at the latest revision', async () => {
  const s = await server();
  const first = await s.list({ limit: 2 });
  // The cache keeps 75 s of events at least (upstream's eventFreshDuration), however many:
  // 300 writes in one instant leave the first chunk's revision within reach.
  const key = '/registry/secrets/default/e';
  const write = async (i: number) => {
    const kv = await s.api.store.get<KubeObject>(key);
    const value = kv!.value;
    await s.api.store.update(key, { ...value, metadata: { ...value.metadata, annotations: { v: String(i) } } });
  };
  for (let i = 0; i < 300; i++) await write(i);
  await s.list(); // the cache has them all
  const reached = await s.list({ resourceVersion: first.metadata.resourceVersion, resourceVersionMatch: 'Exact' });
  assert.equal(s.names(reached), 'a,b,c,d,e');
  // 76 s on, the events of then are stale: the next writes push them out of the window.
  await s.clock.advance(76_000);
  for (let i = 300; i < 1300; i++) await write(i);
  await s.list();
  await assert.rejects(
    s.list({ resourceVersion: first.metadata.resourceVersion, resourceVersionMatch: 'Exact' }),
    (e) => statusOf(e).code === 410 && statusOf(e).message === 'The resourceVersion for the provided list is too old.',
  );
  const err = await s.list({ limit: 2, continue: first.metadata.continue }).then(
    () => assert.fail('an expired continue token must be refused'),
    (e) => statusOf(e),
  );
  assert.equal(err.code, 410);
  assert.equal(err.reason, 'Expired');
  assert.match(err.message ?? '', /^The provided continue parameter is too old/);
  const next = (err.metadata as { continue?: string }).continue;
  assert.ok(next, 'a token to go on with');
  assert.equal(decodeContinue(next, '/registry/secrets/default/').revision, -1);
  const rest = await s.list({ limit: 10, continue: next });
  assert.equal(s.names(rest), 'c,d,e');
  assert.notEqual(rest.metadata.resourceVersion, first.metadata.resourceVersion);
});

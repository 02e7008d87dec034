import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiServer } from '../../src/apiserver/apiserver';
import { coreRegistry } from '../../src/api/resources';
import { MemoryStore, StoreError } from '../../src/store';
import { VirtualClock } from '../../src/clock';
import { StatusError } from '../../src/api/errors';
import { Secret } from '../../src/api/resources/secret';

// ResourceStorage's optimistic concurrency (upstream's GuaranteedUpdate): a write that loses
// the race reads again and retries; a pinned resourceVersion is a 409 instead.
function storage() {
  const api = new ApiServer(coreRegistry(), new MemoryStore(), new VirtualClock(0));
  return api.storage<Secret>({ resource: 'secrets' });
}

const cm = (): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'c', namespace: 'default' },
  data: {},
});

test('concurrent updates that race are retried: every change lands', async () => {
  const s = storage();
  await s.create(cm());
  // Each mutate yields before returning, so all read the same revision and all but one lose.
  await Promise.all(
    ['a', 'b', 'c', 'd'].map((k) =>
      s.guaranteedUpdate('default', 'c', async (cur) => {
        await new Promise((r) => setImmediate(r));
        return { ...cur, data: { ...cur.data, [k]: 'MQ==' } };
      }),
    ),
  );
  assert.deepEqual(Object.keys((await s.get('default', 'c')).data ?? {}).sort(), ['a', 'b', 'c', 'd']);
});

test('a write pinned to a resourceVersion that moved is a 409, not retried', async () => {
  const s = storage();
  const created = await s.create(cm());
  await s.guaranteedUpdate('default', 'c', (cur) => ({ ...cur, data: { x: 'MQ==' } }));
  await assert.rejects(
    s.guaranteedUpdate('default', 'c', (cur) => ({ ...cur, data: { y: 'MQ==' } }), {
      expectedResourceVersion: created.metadata.resourceVersion,
    }),
    (e) => e instanceof StatusError && e.status.code === 409,
  );
});

test('a delete whose guarded write loses the race reads again and deletes; past the retries the mismatch surfaces', async () => {
  let failures = 0;
  class RacingStore extends MemoryStore {
    override async delete<V>(key: string, expectedModRevision?: number) {
      if (failures-- > 0) throw new StoreError('RevisionMismatch', key, 'moved underneath');
      return super.delete<V>(key, expectedModRevision);
    }
  }
  const s = new ApiServer(coreRegistry(), new RacingStore(), new VirtualClock(0)).storage<Secret>({
    resource: 'secrets',
  });
  await s.create(cm());
  failures = 3;
  assert.equal((await s.delete('default', 'c')).deleted, true);
  await s.create(cm());
  failures = 17;
  await assert.rejects(s.delete('default', 'c'), (e) => e instanceof StoreError && e.code === 'RevisionMismatch');
});

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Etcd3 } from 'etcd3';
import { Quiescence, RealClock } from '../../src/clock';
import { EtcdStore } from '../../src/store/etcd';
import { EtcdServer, etcdMissing } from '../../src/store/etcd-process';
import { StoreError, WatchEvent } from '../../src/store';
import { ApiServer } from '../../src/apiserver/apiserver';
import { InProcessClient } from '../../src/apiserver/inprocess-client';
import { coreRegistry } from '../../src/api/resources';
import { KubeObject } from '../../src/api/meta';
import { isStatusError } from '../../src/api/errors';

/**
 * etcd cancels a watch whose resume point was compacted away while its client was cut off
 * (etcd down; meanwhile writes and a compaction on the same data). The store's one feed is
 * such a watch: every watch it fed ends (onEnd, Compacted), the API watches on it end with
 * 410 Gone so their clients list again (as upstream's cacher terminates its watchers and
 * re-lists), and the store follows etcd again: later writes reach new watches.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ms: number, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

describe('etcd store: a feed cancelled by etcd', { skip: etcdMissing() }, () => {
  const etcd = new EtcdServer();
  after(() => etcd.stop());

  test("a range of more than gRPC's default 4 MiB message is read whole", async () => {
    if (!etcd.endpoint) await etcd.start();
    const store = await EtcdStore.open({ endpoints: [etcd.endpoint], keyPrefix: '/big' });
    try {
      const pad = 'x'.repeat(10_000);
      for (let i = 0; i < 600; i += 100)
        await Promise.all(
          Array.from({ length: 100 }, (_, j) =>
            store.create(`/registry/pods/big/p-${String(i + j).padStart(4, '0')}`, { pad }),
          ),
        );
      const all = await store.range('/registry/pods/big/');
      assert.equal(all.items.length, 600);
    } finally {
      await store.close();
    }
  });

  test('ends every watch it fed (the API watch with 410), then follows etcd again', async () => {
    if (!etcd.endpoint) await etcd.start();
    const port = etcd.clientPort;
    const q = new Quiescence();
    const store = await EtcdStore.open({ endpoints: [etcd.endpoint] }, q);
    try {
      const api = new ApiServer(coreRegistry(), store, new RealClock());
      const client = new InProcessClient(api, q, { username: 'admin', groups: ['system:masters'] });
      await client.create(
        { resource: 'namespaces' },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
      );
      const ref = { resource: 'secrets', namespace: 'default' };
      const listed = await client.list(ref);
      let apiClosed: unknown = 'open';
      const apiEvents: string[] = [];
      await client.watch(
        ref,
        { resourceVersion: listed.metadata.resourceVersion },
        {
          onEvent: (e) => apiEvents.push(`${e.type} ${e.object.metadata.name}`),
          onClose: (e) => {
            apiClosed = e;
          },
        },
      );
      const events: WatchEvent[] = [];
      let ended: StoreError | undefined;
      await store.watch(
        '/registry/pods/',
        {
          onEnd: (e) => {
            ended = e;
          },
        },
        (es) => events.push(...es),
      );
      await client.create(ref, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'before' } } as KubeObject);
      await store.create('/registry/pods/default/before', { n: 0 });
      await until('the events before the cut', 10_000, () => events.length === 1 && apiEvents.length === 1);

      // etcd dies; on another port (the store cannot reach it there) it takes writes and a
      // compaction; back on its port, the store's feed asks to resume from a compacted revision.
      await etcd.kill();
      await etcd.start();
      const other = new Etcd3({ hosts: [etcd.endpoint] });
      for (let i = 0; i < 5; i++) await other.put(`/registry/pods/default/while-away-${i}`).value('{}');
      const res = await other.kv.range({ key: Buffer.from('/'), count_only: true });
      await other.kv.compact({ revision: res.header.revision, physical: true });
      other.close();
      await etcd.kill();
      await etcd.start(port);

      await until('the store watch ends', 30_000, () => ended !== undefined);
      assert.equal(ended!.code, 'Compacted');
      assert.equal(
        events.length,
        1,
        'the writes made while the feed was away must not arrive as if nothing was missed',
      );
      await until('the API watch ends', 10_000, () => apiClosed !== 'open');
      assert.ok(
        isStatusError(apiClosed, 'Expired') || (apiClosed as { code?: number })?.code === 410,
        `the API watch ended with ${String(apiClosed)}, not 410`,
      );
      assert.equal(store.feedLosses, 1);

      // Following etcd again: a list gives the writes made while away, and a new watch from
      // it (the store's and the API's) gets what is written next.
      const now = await store.range('/registry/pods/');
      assert.equal(now.items.length, 6);
      const later: WatchEvent[] = [];
      await store.watch('/registry/pods/', { afterRevision: now.revision }, (es) => later.push(...es));
      const relisted = await client.list(ref);
      const apiLater: string[] = [];
      await client.watch(
        ref,
        { resourceVersion: relisted.metadata.resourceVersion },
        { onEvent: (e) => apiLater.push(`${e.type} ${e.object.metadata.name}`) },
      );
      await store.create('/registry/pods/default/after', { n: 1 });
      await client.create(ref, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'after' } } as KubeObject);
      await until('events after the new feed', 10_000, () => later.length === 1 && apiLater.length === 1);
      assert.equal(later[0].kv.key, '/registry/pods/default/after');
      assert.deepEqual(apiLater, ['ADDED after']);
      await sleep(200);
      await q.settle();
    } finally {
      await store.close();
    }
  });
});

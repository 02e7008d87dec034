import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Quiescence } from '../../src/clock';
import { KeyValue, Store, StoreError, Watch, WatchEvent } from '../../src/store';

/**
 * The store contract as one suite, run against every backend (memory.test.ts,
 * sqlite.test.ts, etcd.test.ts): global revision, create-if-absent, guarded update and
 * delete, prefix ranges with limit and continue, watches from a revision (ordered, no gap,
 * no duplicate), compaction answering Compacted, and (persistent backends) a restart that
 * keeps data, revision, history and compaction.
 */
export interface Backend {
  name: string;
  /** Why this backend cannot run here (the suite is then skipped, saying why). */
  skip?: string;
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
  /** A new, empty store. */
  open(q: Quiescence): Promise<Store>;
  /** The store's data opened again by a new instance after close() (persistent backends only). */
  reopen?(closed: Store, q: Quiescence): Promise<Store>;
}

/** Collects a watch's events; `until(n)` waits (real time: etcd is over the network) for n of them. */
class Seen {
  readonly events: WatchEvent[] = [];
  watch?: Watch;
  push = (events: WatchEvent[]) => {
    this.events.push(...events);
  };
  async until(n: number, ms = 10_000): Promise<WatchEvent[]> {
    const deadline = Date.now() + ms;
    while (this.events.length < n) {
      if (Date.now() > deadline)
        throw new Error(`only ${this.events.length} of ${n} events in ${ms} ms: ${this.events.map(show).join(', ')}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return this.events;
  }
  /** Waits a little more and checks no further event came. */
  async exactly(n: number): Promise<WatchEvent[]> {
    await this.until(n);
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(this.events.length, n, `more events than ${n}: ${this.events.map(show).join(', ')}`);
    return this.events;
  }
}

const show = (e: WatchEvent) => `${e.type} ${e.kv.key}=${JSON.stringify(e.kv.value)}@${e.kv.modRevision}`;
const code = (c: string) => (e: unknown) => e instanceof StoreError && e.code === c;

export function storeContract(b: Backend): void {
  describe(`store contract: ${b.name}`, { skip: b.skip }, () => {
    const q = new Quiescence();
    const open: Store[] = [];
    const fresh = async () => {
      const s = await b.open(q);
      open.push(s);
      return s;
    };
    before(async () => {
      await b.setup?.();
    });
    after(async () => {
      for (const s of open) await s.close();
      await b.teardown?.();
    });

    test('every write makes exactly one new global revision; keys carry create/mod revision and version', async () => {
      const s = await fresh();
      const r0 = s.revision();
      const a = await s.create('/registry/pods/default/a', { n: 1 });
      assert.deepEqual([a.createRevision, a.modRevision, a.version], [r0 + 1, r0 + 1, 1]);
      const a2 = await s.update('/registry/pods/default/a', { n: 2 }, a.modRevision);
      assert.deepEqual([a2.createRevision, a2.modRevision, a2.version], [r0 + 1, r0 + 2, 2]);
      const b2 = await s.create('/registry/pods/default/b', { n: 3 });
      assert.equal(b2.modRevision, r0 + 3);
      assert.equal(s.revision(), r0 + 3);
      assert.equal(await s.currentRevision(), r0 + 3);
      assert.deepEqual(await s.get('/registry/pods/default/a'), {
        key: '/registry/pods/default/a',
        value: { n: 2 },
        createRevision: r0 + 1,
        modRevision: r0 + 2,
        version: 2,
      });
      const gone = await s.delete('/registry/pods/default/a');
      assert.deepEqual(gone.value, { n: 2 });
      assert.equal(gone.modRevision, r0 + 2, 'delete returns the value as it was');
      assert.equal(s.revision(), r0 + 4);
    });

    test('create refuses an existing key; update and delete are guarded by mod revision; refused writes make no revision', async () => {
      const s = await fresh();
      const a = await s.create('/k/a', 1);
      const r = s.revision();
      await assert.rejects(s.create('/k/a', 2), code('KeyExists'));
      await assert.rejects(s.update('/k/a', 4, a.modRevision - 1), code('RevisionMismatch'));
      await assert.rejects(s.delete('/k/a', a.modRevision + 1), code('RevisionMismatch'));
      await assert.rejects(s.update('/k/missing', 1), code('KeyNotFound'));
      await assert.rejects(s.update('/k/missing', 1, 3), code('KeyNotFound'));
      await assert.rejects(s.delete('/k/missing'), code('KeyNotFound'));
      assert.equal(await s.currentRevision(), r, 'refused writes moved the revision');
      assert.equal((await s.get('/k/a'))!.value, 1);
      await s.update('/k/a', 3, a.modRevision);
      await s.delete('/k/a');
      assert.equal(await s.get('/k/a'), undefined);
      const again = await s.create('/k/a', 5);
      assert.equal(again.version, 1, 'a key created again starts over');
      assert.equal(again.createRevision, again.modRevision);
    });

    test('of concurrent updates guarded by the same revision exactly one wins', async () => {
      const s = await fresh();
      const a = await s.create('/race/x', 0);
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => s.update('/race/x', i + 1, a.modRevision)),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of results)
        if (r.status === 'rejected') assert.ok(code('RevisionMismatch')(r.reason), String(r.reason));
      const winner = results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<KeyValue<number>>;
      assert.equal((await s.get<number>('/race/x'))!.value, winner.value.value);
    });

    test('range by prefix: key order, prefix boundaries, count, revision, limit and continue', async () => {
      const s = await fresh();
      await s.create('/registry/pods/b/x', 1);
      await s.create('/registry/pods/a/y', 2);
      await s.create('/registry/podsecurity/z', 3);
      await s.create('/registry/pods/a/x', 4);
      await s.create('/registry/pods/c/z', 5);
      await s.create('/registry/pods/a/z', 6);
      const all = await s.range('/registry/pods/');
      assert.deepEqual(
        all.items.map((kv) => kv.key),
        ['/registry/pods/a/x', '/registry/pods/a/y', '/registry/pods/a/z', '/registry/pods/b/x', '/registry/pods/c/z'],
      );
      assert.deepEqual(
        all.items.map((kv) => kv.value),
        [4, 2, 6, 1, 5],
      );
      assert.equal(all.revision, s.revision());
      assert.ok(!all.more);
      assert.equal(await s.count('/registry/pods/'), 5);
      assert.equal(await s.count('/registry/pods/a/'), 3);
      assert.equal(await s.count('/registry/nothing/'), 0);
      assert.deepEqual(
        (await s.range('/registry/pods/a/')).items.map((kv) => kv.key),
        ['/registry/pods/a/x', '/registry/pods/a/y', '/registry/pods/a/z'],
      );
      const pages: string[][] = [];
      let startAfter: string | undefined;
      for (;;) {
        const page = await s.range('/registry/pods/', { limit: 2, startAfter });
        pages.push(page.items.map((kv) => kv.key.slice('/registry/pods/'.length)));
        if (!page.more) break;
        startAfter = page.items[page.items.length - 1].key;
      }
      assert.deepEqual(pages, [['a/x', 'a/y'], ['a/z', 'b/x'], ['c/z']]);
      const exact = await s.range('/registry/pods/', { limit: 5 });
      assert.equal(exact.items.length, 5);
      assert.ok(!exact.more, 'a limit equal to what is there leaves nothing more');
    });

    test('watch replays history after a revision, then streams; events carry created, prevKv and the deleted value', async () => {
      const s = await fresh();
      const a = await s.create('/w/p/a', 1);
      await s.update('/w/p/a', 2);
      await s.create('/w/q/other', 0);
      const seen = new Seen();
      seen.watch = await s.watch('/w/p/', { afterRevision: a.modRevision - 1 }, seen.push);
      await s.delete('/w/p/a');
      await s.create('/w/p/b', 7);
      const ev = await seen.exactly(4);
      seen.watch.stop();
      const r = a.modRevision;
      assert.deepEqual(ev.map(show), [
        `PUT /w/p/a=1@${r}`,
        `PUT /w/p/a=2@${r + 1}`,
        `DELETE /w/p/a=2@${r + 3}`,
        `PUT /w/p/b=7@${r + 4}`,
      ]);
      assert.deepEqual(
        ev.map((e) => e.created),
        [true, false, false, true],
      );
      assert.equal(ev[0].prevKv, undefined);
      assert.deepEqual(ev[1].prevKv, { key: '/w/p/a', value: 1, createRevision: r, modRevision: r, version: 1 });
      assert.deepEqual(ev[2].prevKv?.value, 2);
      assert.equal(ev[2].prevKv?.modRevision, r + 1);
      assert.equal(ev[1].kv.version, 2);
      assert.equal(ev[1].kv.createRevision, r);
    });

    test('a watch from the current revision sees only later writes; a future revision is refused; stop() ends delivery', async () => {
      const s = await fresh();
      await s.create('/f/a', 1);
      const seen = new Seen();
      seen.watch = await s.watch('/f/', {}, seen.push);
      await assert.rejects(
        s.watch('/f/', { afterRevision: s.revision() + 5 }, () => undefined),
        code('FutureRevision'),
      );
      await s.update('/f/a', 2);
      await seen.until(1);
      seen.watch.stop();
      await s.update('/f/a', 3);
      await seen.exactly(1);
      assert.equal(seen.events[0].kv.value, 2);
    });

    test('a write storm reaches a watcher in revision order with no gap and no duplicate', async () => {
      const s = await fresh();
      const r0 = s.revision();
      const seen = new Seen();
      seen.watch = await s.watch('/storm/', { afterRevision: r0 }, seen.push);
      const late = new Seen();
      await Promise.all(
        Array.from({ length: 20 }, async (_, w) => {
          for (let i = 0; i < 10; i++) {
            const key = `/storm/${w}/${i % 3}`;
            const cur = await s.get(key);
            if (cur) await s.update(key, i, cur.modRevision);
            else await s.create(key, i);
            if (w === 0 && i === 5) late.watch = await s.watch('/storm/', { afterRevision: r0 }, late.push);
          }
        }),
      );
      const end = s.revision();
      assert.equal(end, r0 + 200);
      const want = Array.from({ length: 200 }, (_, i) => r0 + 1 + i);
      assert.deepEqual(
        (await seen.exactly(200)).map((e) => e.kv.modRevision),
        want,
      );
      assert.deepEqual(
        (await late.exactly(200)).map((e) => e.kv.modRevision),
        want,
        'a watch started mid-storm from the past',
      );
      seen.watch.stop();
      late.watch!.stop();
    });

    test('compaction forgets history: an older watch is refused as Compacted, a newer one is served, values stay', async () => {
      const s = await fresh();
      const a = await s.create('/c/a', 1);
      const a2 = await s.update('/c/a', 2);
      await s.create('/c/b', 3);
      await s.compact(a2.modRevision);
      assert.ok(s.compactedRevision() >= a2.modRevision);
      await assert.rejects(
        s.watch('/c/', { afterRevision: a.modRevision }, () => undefined),
        (e: unknown) => code('Compacted')(e) && (e as StoreError).revision! >= a2.modRevision,
      );
      const seen = new Seen();
      seen.watch = await s.watch('/c/', { afterRevision: a2.modRevision }, seen.push);
      assert.deepEqual((await seen.exactly(1)).map(show), [`PUT /c/b=3@${a2.modRevision + 1}`]);
      seen.watch.stop();
      assert.equal((await s.get('/c/a'))!.value, 2);
      assert.equal((await s.range('/c/')).items.length, 2);
      await s.compact(a.modRevision); // older than the last compaction: nothing to do
      await assert.rejects(s.compact(s.revision() + 10), code('FutureRevision'));
    });

    test('restart: data, revision, history and compaction come back', {
      skip: b.reopen ? false : 'not persistent',
    }, async () => {
      const s = await fresh();
      const a = await s.create('/r/a', { v: 1 });
      await s.update('/r/a', { v: 2 });
      const mid = s.revision();
      await s.create('/r/b', { v: 3 });
      await s.delete('/r/a');
      const last = s.revision();
      await s.close();
      const t = await b.reopen!(s, q);
      open.push(t);
      assert.equal(t.revision(), last);
      assert.equal(await t.get('/r/a'), undefined);
      assert.deepEqual((await t.get('/r/b'))?.value, { v: 3 });
      const seen = new Seen();
      seen.watch = await t.watch('/r/', { afterRevision: mid }, seen.push);
      const c = await t.create('/r/c', { v: 4 });
      assert.equal(c.modRevision, last + 1, 'revisions go on from where they were');
      assert.deepEqual((await seen.exactly(3)).map(show), [
        `PUT /r/b={"v":3}@${mid + 1}`,
        `DELETE /r/a={"v":2}@${mid + 2}`,
        `PUT /r/c={"v":4}@${last + 1}`,
      ]);
      seen.watch.stop();
      await t.compact(mid);
      await t.close();
      const u = await b.reopen!(t, q);
      open.push(u);
      await assert.rejects(
        u.watch('/r/', { afterRevision: a.modRevision }, () => undefined),
        code('Compacted'),
      );
      const again = new Seen();
      again.watch = await u.watch('/r/', { afterRevision: mid }, again.push);
      assert.equal((await again.exactly(3)).length, 3);
      again.watch.stop();
    });
  });
}

import { Etcd3, Watcher } from 'etcd3';
import { Quiescence } from '../clock';
import { Fanout } from './fanout';
import { KeyValue, RangeOptions, RangeResult, Store, StoreError, Watch, WatchEvent, WatchOptions } from './store';
import { guard, logCancelFailure, oldestReadableRevision, rangeEnd, refused, toEvent, toKv } from './etcd-wire';
import { compactedError, futureRevisionError } from './revision-errors';

/**
 * gRPC caps a received message at 4 MiB by default: a LIST of some 7 000 pods is more, and
 * failed with RESOURCE_EXHAUSTED. kube-apiserver lifts the cap (its etcd client's
 * MaxCallRecvMsgSize is math.MaxInt32); so does this store.
 */
export const ETCD_GRPC_OPTIONS = { 'grpc.max_receive_message_length': 2 ** 31 - 1 };

export interface EtcdOptions {
  /** Client URLs (http://host:port), as kube-apiserver's --etcd-servers. */
  endpoints: string[];
  /** Put before every key (another cluster, or a test, on the same etcd); default none. */
  keyPrefix?: string;
  /** Events kept in memory for watches that start a little in the past (older ones ask etcd). */
  historyLimit?: number;
  dialTimeoutMs?: number;
}

/**
 * etcd v3 as the store, over its gRPC API (the etcd3 client). Keys are the API server's own
 * (/registry/pods/<ns>/<name>, /registry/minions/<name> …), values are JSON (upstream's
 * --storage-media-type=application/json), and a KeyValue's revisions are etcd's: a
 * resourceVersion is the object's etcd mod revision, as upstream's.
 *
 * Writes are transactions guarded as upstream's etcd3 storage guards them: create only if
 * the key's create revision is 0, update and delete only if its mod revision is the
 * expected one. One watch on the whole key space (the feed) keeps the newest revision and a
 * window of recent events, and feeds every watch of this process that starts inside that
 * window; a watch from further back gets its own etcd watch, which replays etcd's history
 * (or is refused as compacted). A write done here keeps the process busy (quiescence) until
 * the feed has delivered it, so "settled" still means every watcher has heard of it.
 *
 * Over 400 lines on purpose: one state machine — the newest revision, the compaction, the
 * feed's window and the writes waiting for it — that every method reads and moves; how it
 * speaks etcd's API (guards, errors, key-values and events, compaction probing) is apart, in
 * etcd-wire.ts.
 */
export class EtcdStore implements Store {
  readonly backend = 'etcd';
  private rev = 0;
  private compacted = 0;
  /** The feed has delivered every event up to here. */
  private fed = 0;
  /** Local history: events after `windowStart`, in revision order. */
  private history: WatchEvent[] = [];
  private windowStart = 0;
  private feed?: Watcher;
  private readonly fanout: Fanout;
  /** Revisions written here whose event the feed has not delivered yet. */
  private readonly awaitingFeed: number[] = [];
  private readonly own = new Set<Watcher>();
  private closed = false;

  private constructor(
    private readonly client: Etcd3,
    private readonly options: EtcdOptions,
    private readonly quiescence: Quiescence,
  ) {
    this.fanout = new Fanout(quiescence);
  }

  static async open(options: EtcdOptions, quiescence = new Quiescence()): Promise<EtcdStore> {
    const client = new Etcd3({
      hosts: options.endpoints,
      dialTimeout: options.dialTimeoutMs ?? 5000,
      grpcOptions: ETCD_GRPC_OPTIONS,
    });
    const store = new EtcdStore(client, options, quiescence);
    try {
      await store.start();
    } catch (e) {
      client.close();
      throw new Error(`etcd at ${options.endpoints.join(',')} does not answer: ${(e as Error).message}`);
    }
    return store;
  }

  get keyPrefix(): string {
    return this.options.keyPrefix ?? '';
  }

  private get prefix(): string {
    return this.keyPrefix;
  }

  private async start(): Promise<void> {
    const res = await this.client.kv.range({ key: Buffer.from(`${this.prefix}/`), count_only: true });
    this.rev = this.fed = this.windowStart = Number(res.header.revision);
    await this.readCompaction();
    await this.startFeed(this.rev);
  }

  /** The one etcd watch on the key space, from after `from`. */
  private async startFeed(from: number): Promise<void> {
    const feed = await this.client
      .watch()
      .prefix(`${this.prefix}/`)
      .startRevision(String(from + 1))
      .withPreviousKV()
      .create();
    this.feed = feed;
    feed.on('data', (res) => this.onFeed(res.events.map((e) => toEvent(this.prefix, e.type, e.kv, e.prev_kv))));
    // The client reconnects and resumes from the last revision by itself (a 'disconnected'
    // event only); an 'error' is etcd cancelling the watch, typically because the revision
    // it had to resume from was compacted away while it was disconnected: no resume
    // without a gap.
    feed.on('error', (e) => this.feedLost(feed, e));
  }

  /**
   * The feed is gone with a gap in what it delivered: as upstream's cacher when its
   * reflector's watch fails (Cacher.startCaching: terminateAllWatchers, then ListAndWatch
   * again), every watch it fed ends (its watcher re-lists) and a new feed follows etcd from
   * its revision now. Writes still waiting for their event are released: it will not come.
   */
  private feedLost(feed: Watcher, e: Error): void {
    if (this.closed || feed !== this.feed) return;
    console.error(
      `etcd store: etcd cancelled the watch feed (${e.message}); ending every watch it fed and following etcd again`,
    );
    this.feed = undefined;
    this.feedLosses++;
    this.fanout.end(
      new StoreError(
        'Compacted',
        '/',
        `the watch feed was cancelled by etcd (${e.message}): list again`,
        this.compacted,
      ),
    );
    this.history = [];
    // Until the new feed runs, a watch gets its own etcd watch (windowStart above any revision).
    this.windowStart = Number.MAX_SAFE_INTEGER;
    for (let i = 0; i < this.awaitingFeed.length; i++) this.quiescence.end();
    this.awaitingFeed.length = 0;
    void this.quiescence.track(this.refeed());
  }

  private async refeed(): Promise<void> {
    for (let attempt = 1; !this.closed; attempt++) {
      try {
        const rev = await this.currentRevision();
        await this.readCompaction();
        this.fed = rev;
        await this.startFeed(rev);
        this.windowStart = rev;
        return;
      } catch (err) {
        console.error(`etcd store: following etcd again failed (attempt ${attempt}): ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, Math.min(5000, 200 * attempt)));
      }
    }
  }

  /** How many times etcd cancelled the feed (each time every watch fed by it ended). */
  feedLosses = 0;

  revision(): number {
    return this.rev;
  }

  async currentRevision(): Promise<number> {
    const res = await this.client.kv.range({ key: Buffer.from(`${this.prefix}/`), count_only: true });
    this.seen(Number(res.header.revision));
    return this.rev;
  }

  async get<V>(key: string): Promise<KeyValue<V> | undefined> {
    const res = await this.client.kv.range({ key: this.k(key) });
    this.seen(Number(res.header.revision));
    return res.kvs[0] ? toKv<V>(this.prefix, res.kvs[0]) : undefined;
  }

  async range<V>(prefix: string, options: RangeOptions = {}): Promise<RangeResult<V>> {
    const from =
      options.startAfter !== undefined && options.startAfter >= prefix
        ? this.k(`${options.startAfter}\0`)
        : this.k(prefix);
    const res = await this.client.kv.range({
      key: from,
      range_end: rangeEnd(this.k(prefix)),
      limit: options.limit ?? 0,
    });
    const revision = Number(res.header.revision);
    this.seen(revision);
    return { items: res.kvs.map((kv) => toKv<V>(this.prefix, kv)), revision, more: res.more };
  }

  async count(prefix: string): Promise<number> {
    const res = await this.client.kv.range({
      key: this.k(prefix),
      range_end: rangeEnd(this.k(prefix)),
      count_only: true,
    });
    return Number(res.count);
  }

  async create<V>(key: string, value: V): Promise<KeyValue<V>> {
    const k = this.k(key);
    const res = await this.client.kv.txn({
      compare: [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
      success: [{ request_put: { key: k, value: Buffer.from(JSON.stringify(value)) } }],
    });
    if (!res.succeeded) throw new StoreError('KeyExists', key, `key exists: ${key}`);
    const rev = this.wrote(key, Number(res.header.revision));
    return { key, value, createRevision: rev, modRevision: rev, version: 1 };
  }

  async update<V>(key: string, value: V, expectedModRevision?: number): Promise<KeyValue<V>> {
    const k = this.k(key);
    const res = await this.client.kv.txn({
      compare: [guard(k, expectedModRevision)],
      success: [{ request_put: { key: k, value: Buffer.from(JSON.stringify(value)), prev_kv: true } }],
      failure: [{ request_range: { key: k } }],
    });
    if (!res.succeeded) refused(key, expectedModRevision, res.responses[0]?.response_range?.kvs[0]);
    const rev = this.wrote(key, Number(res.header.revision));
    const prev = res.responses[0].response_put.prev_kv!;
    return {
      key,
      value,
      createRevision: Number(prev.create_revision),
      modRevision: rev,
      version: Number(prev.version) + 1,
    };
  }

  async delete<V>(key: string, expectedModRevision?: number): Promise<KeyValue<V>> {
    const k = this.k(key);
    const res = await this.client.kv.txn({
      compare: [guard(k, expectedModRevision)],
      success: [{ request_delete_range: { key: k, prev_kv: true } }],
      failure: [{ request_range: { key: k } }],
    });
    if (!res.succeeded) refused(key, expectedModRevision, res.responses[0]?.response_range?.kvs[0]);
    this.wrote(key, Number(res.header.revision));
    return toKv<V>(this.prefix, res.responses[0].response_delete_range.prev_kvs[0]);
  }

  async watch<V>(prefix: string, options: WatchOptions, onEvent: (events: WatchEvent<V>[]) => void): Promise<Watch> {
    const after = options.afterRevision ?? this.rev;
    if (after < this.compacted) throw compactedError(prefix, after, this.compacted);
    if (after > this.rev && after > (await this.currentRevision())) {
      throw futureRevisionError(prefix, after, this.rev);
    }
    if (after >= this.windowStart) {
      // Inside the feed's window: the events it has delivered after `after`, then the rest.
      return this.fanout.add(
        prefix,
        this.history.filter((e) => e.kv.modRevision > after),
        onEvent,
        after,
        options.onEnd,
      );
    }
    return this.watchEtcd(prefix, after, onEvent as (events: WatchEvent[]) => void, options.onEnd);
  }

  /** A watch of its own that etcd replays from after+1: ordered, no gap, no duplicate. */
  private async watchEtcd(
    prefix: string,
    after: number,
    onEvent: (events: WatchEvent[]) => void,
    onEnd?: (error: StoreError) => void,
  ): Promise<Watch> {
    // Another API server may have compacted since this one last looked.
    if (after < (await this.readCompaction())) throw compactedError(prefix, after, this.compacted);
    let watcher: Watcher;
    try {
      watcher = await this.client
        .watch()
        .prefix(this.k(prefix))
        .startRevision(String(after + 1))
        .withPreviousKV()
        .create();
    } catch (e) {
      const compactedTo = await this.compactionOf(after);
      if (compactedTo !== undefined) throw compactedError(prefix, after, compactedTo);
      throw e;
    }
    let stopped = false;
    this.own.add(watcher);
    watcher.on('data', (res) => {
      const events = res.events.map((e) => toEvent(this.prefix, e.type, e.kv, e.prev_kv));
      if (events.length > 0)
        this.quiescence.defer(() => {
          if (!stopped) onEvent(events);
        });
    });
    // etcd cancelled it (compacted while disconnected): it ends, and its watcher re-lists.
    watcher.on('error', (e) => {
      if (stopped || this.closed) return;
      console.error(`etcd store: etcd cancelled a watch on ${prefix}: ${e.message}`);
      stopped = true;
      this.own.delete(watcher);
      this.quiescence.defer(() =>
        onEnd?.(
          new StoreError(
            'Compacted',
            prefix,
            `the watch was cancelled by etcd (${e.message}): list again`,
            this.compacted,
          ),
        ),
      );
    });
    return {
      stop: () => {
        stopped = true;
        this.own.delete(watcher);
        void watcher.cancel().catch(logCancelFailure(`a watch on ${prefix}`));
      },
    };
  }

  /** The revision etcd compacted to when reading at after+1 is refused as compacted, else undefined. */
  private async compactionOf(after: number): Promise<number | undefined> {
    try {
      await this.client.kv.range({ key: Buffer.from(`${this.prefix}/`), revision: after + 1, count_only: true });
      return undefined;
    } catch (e) {
      if (!/compacted/.test((e as Error).message)) return undefined;
      // etcd does not say where it compacted to; find the oldest revision it still reads.
      const lo = await oldestReadableRevision(this.client, this.prefix, after + 1, await this.currentRevision());
      this.compacted = Math.max(this.compacted, lo);
      return lo;
    }
  }

  async compact(revision: number): Promise<void> {
    if (revision > this.rev && revision > (await this.currentRevision()))
      throw new StoreError('FutureRevision', '', `cannot compact to future revision ${revision}`);
    if (revision <= this.compacted) return;
    // As upstream's compactor: the compacted revision is kept in compact_rev_key, where every
    // API server on this etcd (and this one after a restart) reads it. etcd itself still
    // serves a watch from the compacted revision (the contract does not), so that key is
    // what refuses it.
    await this.client.kv.put({ key: this.compactKey, value: Buffer.from(String(revision)) });
    try {
      await this.client.kv.compact({ revision, physical: true });
    } catch (e) {
      if (!/compacted/.test((e as Error).message)) throw e;
    }
    this.compacted = revision;
    this.history = this.history.filter((e) => e.kv.modRevision > revision);
    this.windowStart = Math.max(this.windowStart, revision);
  }

  private get compactKey(): Buffer {
    return Buffer.from(`${this.prefix}compact_rev_key`);
  }

  /** The compaction recorded in compact_rev_key (by any server on this etcd). */
  private async readCompaction(): Promise<number> {
    const res = await this.client.kv.range({ key: this.compactKey });
    const recorded = res.kvs[0] ? Number(res.kvs[0].value.toString()) : 0;
    if (recorded > this.compacted) this.compacted = recorded;
    return this.compacted;
  }

  compactedRevision(): number {
    return this.compacted;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.fanout.close();
    for (const w of this.own) await w.cancel().catch(logCancelFailure('a watch'));
    await this.feed?.cancel().catch(logCancelFailure('the feed watch'));
    // Writes still waiting for their event will not get it: release them.
    for (let i = 0; i < this.awaitingFeed.length; i++) this.quiescence.end();
    this.awaitingFeed.length = 0;
    this.client.close();
  }

  private onFeed(events: WatchEvent[]): void {
    if (events.length === 0) return;
    const limit = this.options.historyLimit ?? 100_000;
    for (const e of events) this.history.push(e);
    if (this.history.length > limit) {
      const drop = this.history.length - Math.floor(limit / 2);
      this.windowStart = this.history[drop - 1].kv.modRevision;
      this.history.splice(0, drop);
    }
    this.fed = events[events.length - 1].kv.modRevision;
    this.seen(this.fed);
    this.fanout.publish(events);
    while (this.awaitingFeed.length > 0 && this.awaitingFeed[0] <= this.fed) {
      this.awaitingFeed.shift();
      this.quiescence.end();
    }
  }

  /** A write done here at `revision`: busy until the feed has delivered it. */
  private wrote(key: string, revision: number): number {
    this.seen(revision);
    // Only keys under "/" come through the feed.
    if (revision > this.fed && key.startsWith('/')) {
      this.quiescence.begin();
      let i = this.awaitingFeed.length;
      while (i > 0 && this.awaitingFeed[i - 1] > revision) i--;
      this.awaitingFeed.splice(i, 0, revision);
    }
    return revision;
  }

  private k(key: string): Buffer {
    return Buffer.from(this.prefix + key);
  }

  private seen(revision: number): void {
    if (revision > this.rev) this.rev = revision;
  }
}

import { KeyValue, LazySortedKeys, lowerBound, Store, StoreError, WatchEvent } from '../store';
import { EventWindow } from './event-window';

/** One API watch as the hub keeps it: what it wants, from which revision, where to send it. */
export interface HubWatcher<V> {
  /** Key prefix (resource, or resource + namespace). */
  prefix: string;
  /** Deliver only events after this store revision. */
  after: number;
  /** An indexed field this watcher's field selector pins to one value (spec.nodeName=x, metadata.name=x). */
  index?: { field: IndexedField; value: string };
  deliver(event: WatchEvent<V>): void;
  /** The hub's store watch ended (a gap in history): this watch ends too, and its client lists again. */
  end(): void;
}

export type IndexedField = 'spec.nodeName' | 'metadata.name';
export const INDEXED_FIELDS: IndexedField[] = ['spec.nodeName', 'metadata.name'];

function fieldValue(value: unknown, field: IndexedField): string {
  const v = value as { spec?: { nodeName?: string }; metadata?: { name?: string } };
  return (field === 'spec.nodeName' ? v.spec?.nodeName : v.metadata?.name) ?? '';
}

/**
 * The API server's watch cache for one resource (upstream's cacher and watchCache): one
 * store watch after one range, the current objects in key order (what lists are served
 * from, as v1.32's btree watch cache keeps them), a window of recent events for watches
 * that start a little in the past and for lists at an older revision (./event-window: at
 * least 75 s of them, the events the store delivered), and watchers indexed
 * by the field value they pin (a kubelet watching the pods on its node, or its own Node by
 * name), so one event reaches only the watchers it concerns.
 */
export class WatchHub<V> {
  private window: EventWindow<V>;
  /** The current objects by key. */
  private readonly state = new Map<string, KeyValue<V>>();
  /** Their keys in key order, sorted when a scan needs them (../store/key-index). */
  private readonly keys = new LazySortedKeys((k) => this.state.has(k));
  private readonly indexed = new Map<IndexedField, Map<string, Set<HubWatcher<V>>>>(
    INDEXED_FIELDS.map((f) => [f, new Map()]),
  );
  private readonly general = new Set<HubWatcher<V>>();
  /** Events up to this revision have been dispatched. */
  private revision: number;

  private constructor(revision: number, now: () => number, fromList: boolean) {
    this.revision = revision;
    this.window = new EventWindow<V>(revision, now, fromList);
  }

  /** Set once the store ended the hub's watch: no watcher may join; the owner opens a new hub. */
  ended = false;

  /**
   * A hub fed by one store watch from the store's revision now. When the store ends that
   * watch (etcd cancelled its feed), every watcher ends, as upstream's cacher terminates all
   * its watchers before it lists again (Cacher.startCaching, terminateAllWatchers), and
   * onEnded lets the owner open a fresh hub from the store's state then.
   *
   * Upstream's caches list when the API server starts; this one is made on the first read.
   * So that it remembers what upstream's would, its window begins at `since` (the API
   * server's start) when the store still has the history from there and can say when it
   * has handed it over (progress): those events go into the window only (the range has
   * their outcome), and are all in before the hub is.
   */
  static async open<V>(
    store: Store,
    prefix: string,
    onEnded: () => void = () => undefined,
    now: () => number = Date.now,
    since?: number,
    fromList = true,
  ): Promise<WatchHub<V>> {
    const initial = await store.range<V>(prefix);
    const hub = new WatchHub<V>(initial.revision, now, fromList);
    for (const kv of initial.items) {
      hub.state.set(kv.key, kv);
      hub.keys.added(kv.key); // range answers in key order: no sort needed
    }
    const options = (afterRevision: number) => ({
      afterRevision,
      onEnd: () => {
        hub.endAll();
        onEnded();
      },
    });
    const onEvents = (events: WatchEvent<V>[]) => hub.dispatch(events);
    if (since !== undefined && since < initial.revision && store.progress) {
      hub.window = new EventWindow<V>(since, now, fromList);
      try {
        await store.watch<V>(prefix, options(since), onEvents);
        await store.progress();
        return hub;
      } catch (e) {
        if (!(e instanceof StoreError && e.code === 'Compacted')) throw e;
        hub.window = new EventWindow<V>(initial.revision, now, fromList);
      }
    }
    await store.watch<V>(prefix, options(initial.revision), onEvents);
    return hub;
  }

  /** Events up to this revision are in the cache (a consistent read may need to wait for more: ./storage-list). */
  get cachedRevision(): number {
    return this.revision;
  }

  /** Notes that the store has handed over everything up to `revision` (its progress): nothing for this prefix came. */
  caughtUp(revision: number): void {
    if (!this.ended && revision > this.revision) this.revision = revision;
  }

  /** Current objects under prefix, in key order, from key `from` on (inclusive), while `take` returns true. */
  scan(prefix: string, from: string, take: (kv: KeyValue<V>) => boolean): void {
    const keys = this.keys.ordered();
    for (let i = lowerBound(keys, from > prefix ? from : prefix); i < keys.length; i++) {
      const key = keys[i];
      if (!key.startsWith(prefix) || !take(this.state.get(key)!)) return;
    }
  }

  has(key: string): boolean {
    return this.state.has(key);
  }

  /**
   * The objects as they were at `revision`, for a list at an older revision (a chunk of a
   * paginated list, resourceVersionMatch=Exact): the keys changed since then mapped to
   * their value then (undefined: absent then), from the window's previous values.
   * Undefined when the window no longer reaches back that far (upstream's etcd answers such
   * a list with "compacted", 410 Expired).
   */
  changedSince(revision: number): Map<string, KeyValue<V> | undefined> | undefined {
    if (this.ended || revision < this.oldestServable) return undefined;
    return this.window.changedSince(revision);
  }

  private apply(e: WatchEvent<V>): void {
    const key = e.kv.key;
    if (e.type === 'DELETE') {
      if (this.state.delete(key)) this.keys.deleted();
      return;
    }
    if (!this.state.has(key)) this.keys.added(key);
    this.state.set(key, e.kv);
  }

  private endAll(): void {
    this.ended = true;
    const all = [...this.general];
    for (const index of this.indexed.values()) for (const set of index.values()) all.push(...set);
    this.general.clear();
    for (const index of this.indexed.values()) index.clear();
    this.window.clear();
    this.state.clear();
    this.keys.clear();
    for (const w of all) w.end();
  }

  /** The oldest revision a new watcher may start after and still be served from the window. */
  get oldestServable(): number {
    return this.window.oldestServable;
  }

  /** Whether the window's first event bounds it (a start older than that is too old, as upstream's). */
  get bounded(): boolean {
    return this.window.bounded;
  }

  /** Registers a watcher, first replaying what it missed; undefined when its start is too old. */
  add(w: HubWatcher<V>): (() => void) | undefined {
    if (this.ended || w.after < this.oldestServable) return undefined;
    for (const e of this.window.since(w.after, w.prefix)) w.deliver(e);
    w.after = Math.max(w.after, this.revision);
    const set = w.index ? this.indexSet(w.index.field, w.index.value) : this.general;
    set.add(w);
    return () => set.delete(w);
  }

  private indexSet(field: IndexedField, value: string): Set<HubWatcher<V>> {
    const index = this.indexed.get(field)!;
    let s = index.get(value);
    if (!s) index.set(value, (s = new Set()));
    return s;
  }

  private send(w: HubWatcher<V>, e: WatchEvent<V>): void {
    if (e.kv.modRevision > w.after && e.kv.key.startsWith(w.prefix)) w.deliver(e);
  }

  private dispatch(events: WatchEvent<V>[]): void {
    for (const e of events) {
      this.window.push(e);
      // An event the range already has the outcome of (the window's history from the API server's start).
      if (e.kv.modRevision <= this.revision) continue;
      this.apply(e);
      this.revision = e.kv.modRevision;
      for (const w of this.general) this.send(w, e);
      for (const [field, index] of this.indexed) {
        if (index.size === 0) continue;
        const now = fieldValue(e.kv.value, field);
        const before = e.prevKv ? fieldValue((e.prevKv as KeyValue<V>).value, field) : now;
        for (const w of index.get(now) ?? []) this.send(w, e);
        if (before !== now) for (const w of index.get(before) ?? []) this.send(w, e);
      }
    }
  }
}

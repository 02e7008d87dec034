import { KeyValue, WatchEvent } from '../store';

/*
 * The recent events of one resource as its watch cache keeps them (upstream k8s.io/apiserver
 * cacher watchCache at v1.32): a ring whose capacity follows the event rate so that it holds
 * at least eventFreshDuration (75 s) of history. When the ring is full and its oldest event is
 * younger than that, the capacity doubles (up to 100 × 1024); when the event a quarter of
 * the ring back is already older, it halves (down to 100) (watchCache.resizeCacheLocked).
 * A watch from before the oldest event kept answers 410 "too old resource version"
 * (watchCache.getAllEventsSinceLocked); one within it is served from here, even when the
 * store has compacted that history away.
 *
 * A kept event is the very one the store delivered (and every live watcher received): its
 * versions are the stored ones, frozen, sharing their unchanged parts with the version
 * before (../api/update-walk) and their repeated parts with other objects
 * (../api/shared-subtrees). Keeping one costs a slot of the ring and what its version added;
 * the memory store holds the same event in its history anyway. (96a2e9f kept each event's
 * value as JSON text, which the collector does not trace, but that was a second copy of every
 * version kept, parsed again for each late reader; the shared versions cost less.)
 */

/** upstream watch_cache.go eventFreshDuration. */
export const EVENT_FRESH_MS = 75_000;
/** upstream defaultLowerBoundCapacity, defaultUpperBoundCapacity. */
export const LOWER_CAPACITY = 100;
export const UPPER_CAPACITY = 100 * 1024;

export class EventWindow<V> {
  /** The events kept, oldest first, from index start (older slots are emptied). */
  private ring: (WatchEvent<V> | undefined)[] = [];
  /** When each event in ring was added (the API server's clock). */
  private times: number[] = [];
  /** Index in ring of the oldest event kept; ring.length - start events are kept. */
  private start = 0;
  private capacity = LOWER_CAPACITY;
  /** Whether an event has left the window since the list it began from. */
  private evicted = false;

  constructor(
    /** The revision of the list the cache began from. */
    private readonly listRevision: number,
    private readonly now: () => number,
    /** v1.13+: served from the list's revision until an event is dropped; v1.12: from the first event kept. */
    private readonly fromList = true,
  ) {}

  get size(): number {
    return this.ring.length - this.start;
  }

  /** The oldest revision a watch may start after and be served from here. */
  get oldestServable(): number {
    const first = this.ring[this.start];
    return this.bounded && first ? first.kv.modRevision - 1 : this.listRevision;
  }

  /**
   * Whether the first event kept bounds the window (a start before it is too old): once an
   * event was dropped (v1.32 getAllEventsSinceLocked), or whenever one is kept (v1.12
   * GetAllEventsSinceThreadUnsafe).
   */
  get bounded(): boolean {
    return this.evicted || (!this.fromList && this.size > 0);
  }

  push(e: WatchEvent<V>): void {
    const time = this.now();
    this.resize(time);
    if (this.size >= this.capacity) this.evict(this.size - this.capacity + 1);
    this.ring.push(e);
    this.times.push(time);
  }

  /** The events after `after` under prefix, in order, as the store delivered them. */
  *since(after: number, prefix: string): Generator<WatchEvent<V>> {
    for (let i = this.start; i < this.ring.length; i++) {
      const e = this.ring[i]!;
      if (e.kv.modRevision > after && e.kv.key.startsWith(prefix)) yield e;
    }
  }

  /**
   * The keys changed after `revision` mapped to their value then (undefined: absent then);
   * undefined when an event kept no previous value (a backend that gives none).
   */
  changedSince(revision: number): Map<string, KeyValue<V> | undefined> | undefined {
    const then = new Map<string, KeyValue<V> | undefined>();
    for (let i = this.ring.length - 1; i >= this.start && this.ring[i]!.kv.modRevision > revision; i--) {
      const e = this.ring[i]!;
      if (e.created) then.set(e.kv.key, undefined);
      else if (e.prevKv === undefined) return undefined;
      else then.set(e.kv.key, e.prevKv);
    }
    return then;
  }

  clear(): void {
    this.ring = [];
    this.times = [];
    this.start = 0;
  }

  /** upstream watchCache.resizeCacheLocked, before each event is added. */
  private resize(time: number): void {
    if (this.size < this.capacity) return;
    if (time - this.times[this.start] < EVENT_FRESH_MS) {
      this.capacity = Math.min(this.capacity * 2, UPPER_CAPACITY);
      return;
    }
    const quarterBack = this.ring.length - Math.floor(this.capacity / 4);
    if (
      quarterBack >= this.start &&
      quarterBack < this.ring.length &&
      time - this.times[quarterBack] > EVENT_FRESH_MS
    ) {
      this.capacity = Math.max(Math.floor(this.capacity / 2), LOWER_CAPACITY);
      // The ring keeps the newest events that fit (doCacheResizeLocked).
      if (this.size > this.capacity) this.evict(this.size - this.capacity);
    }
  }

  private evict(n: number): void {
    for (let i = 0; i < n; i++) this.ring[this.start++] = undefined;
    this.evicted = true;
    // Dropped in bulk, not per event: shifting a long array on every event is quadratic.
    if (this.start > 1024 && this.start * 2 > this.ring.length) {
      this.ring = this.ring.slice(this.start);
      this.times = this.times.slice(this.start);
      this.start = 0;
    }
  }
}

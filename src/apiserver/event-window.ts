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
 * A kept event outlives the young generation of the garbage collector (at 5000 nodes, a Lease
 * version every 2 ms for over a minute), so it is kept as what a late reader needs, its
 * value's JSON text, which the collector does not trace, rather than as an object graph; a
 * reader that replays it parses it again (watches from the past and exact lists are rare,
 * the events are many).
 */

/** upstream watch_cache.go eventFreshDuration. */
export const EVENT_FRESH_MS = 75_000;
/** upstream defaultLowerBoundCapacity, defaultUpperBoundCapacity. */
export const LOWER_CAPACITY = 100;
export const UPPER_CAPACITY = 100 * 1024;

/** One event past its moment: the stored version it made and the one before, as text. */
interface Past {
  readonly time: number;
  readonly deleted: boolean;
  readonly created: boolean;
  readonly key: string;
  readonly modRevision: number;
  readonly createRevision: number;
  readonly version: number;
  /** JSON of the value (for a deletion, the last value). */
  readonly text: string;
  /** The version before, flat (one object per event): undefined when created, or when the backend gave none. */
  readonly prevText?: string;
  readonly prevModRevision: number;
  readonly prevVersion: number;
}

export class EventWindow<V> {
  private ring: (Past | undefined)[] = [];
  /** Index in ring of the oldest event kept; ring.length - start events are kept. */
  private start = 0;
  private capacity = LOWER_CAPACITY;
  /** Whether an event has left the window since the list it began from. */
  private evicted = false;
  /** The newest event kept per key: the text of the version before the next event of that key. */
  private readonly newest = new Map<string, Past>();

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
    return this.bounded && first ? first.modRevision - 1 : this.listRevision;
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
    const key = e.kv.key;
    const last = this.newest.get(key);
    const prevKv = e.prevKv;
    // The text kept for the event that made the version before, or made now.
    const prevText = !prevKv
      ? undefined
      : last && !last.deleted && last.modRevision === prevKv.modRevision
        ? last.text
        : JSON.stringify(prevKv.value);
    const deleted = e.type === 'DELETE';
    const past: Past = {
      time,
      deleted,
      created: e.created,
      key,
      modRevision: e.kv.modRevision,
      createRevision: e.kv.createRevision,
      version: e.kv.version,
      text: deleted && prevText !== undefined ? prevText : JSON.stringify(e.kv.value),
      prevText,
      prevModRevision: prevKv?.modRevision ?? 0,
      prevVersion: prevKv?.version ?? 0,
    };
    this.ring.push(past);
    this.newest.set(key, past);
  }

  /** The events after `after` under prefix, in order, rebuilt from their text. */
  *since(after: number, prefix: string): Generator<WatchEvent<V>> {
    for (let i = this.start; i < this.ring.length; i++) {
      const p = this.ring[i]!;
      if (p.modRevision > after && p.key.startsWith(prefix)) yield rebuild<V>(p);
    }
  }

  /**
   * The keys changed after `revision` mapped to their value then (undefined: absent then);
   * undefined when an event kept no previous value (a backend that gives none).
   */
  changedSince(revision: number): Map<string, KeyValue<V> | undefined> | undefined {
    const then = new Map<string, KeyValue<V> | undefined>();
    for (let i = this.ring.length - 1; i >= this.start && this.ring[i]!.modRevision > revision; i--) {
      const p = this.ring[i]!;
      if (p.created) then.set(p.key, undefined);
      else if (p.prevText === undefined) return undefined;
      else then.set(p.key, rebuild<V>(p).prevKv);
    }
    return then;
  }

  clear(): void {
    this.ring = [];
    this.start = 0;
    this.newest.clear();
  }

  /** upstream watchCache.resizeCacheLocked, before each event is added. */
  private resize(time: number): void {
    if (this.size < this.capacity) return;
    if (time - this.ring[this.start]!.time < EVENT_FRESH_MS) {
      this.capacity = Math.min(this.capacity * 2, UPPER_CAPACITY);
      return;
    }
    const quarterBack = this.ring[this.ring.length - Math.floor(this.capacity / 4)];
    if (quarterBack && time - quarterBack.time > EVENT_FRESH_MS) {
      this.capacity = Math.max(Math.floor(this.capacity / 2), LOWER_CAPACITY);
      // The ring keeps the newest events that fit (doCacheResizeLocked).
      if (this.size > this.capacity) this.evict(this.size - this.capacity);
    }
  }

  private evict(n: number): void {
    for (let i = 0; i < n; i++) {
      const p = this.ring[this.start]!;
      this.ring[this.start++] = undefined;
      if (this.newest.get(p.key) === p) this.newest.delete(p.key);
    }
    this.evicted = true;
    // Dropped in bulk, not per event: shifting a long array on every event is quadratic.
    if (this.start > 1024 && this.start * 2 > this.ring.length) {
      this.ring = this.ring.slice(this.start);
      this.start = 0;
    }
  }
}

function rebuild<V>(p: Past): WatchEvent<V> {
  const prevKv: KeyValue<V> | undefined =
    p.prevText === undefined
      ? undefined
      : {
          key: p.key,
          value: JSON.parse(p.prevText) as V,
          createRevision: p.createRevision,
          modRevision: p.prevModRevision,
          version: p.prevVersion,
        };
  const kv: KeyValue<V> = {
    key: p.key,
    value: p.deleted && prevKv ? prevKv.value : (JSON.parse(p.text) as V),
    createRevision: p.createRevision,
    modRevision: p.modRevision,
    version: p.version,
  };
  return { type: p.deleted ? 'DELETE' : 'PUT', kv, prevKv, created: p.created };
}

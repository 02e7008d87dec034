import { KeyValue, Store, WatchEvent } from '../store';

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
 * The API server's watch fan-out for one resource (upstream's watch cache, smaller): a
 * single store watch, a buffer of recent events for watches that start a little in the
 * past, and watchers indexed by the field value they pin (a kubelet watching the pods on
 * its node, or its own Node by name), so one event reaches only the watchers it concerns.
 */
export class WatchHub<V> {
  private readonly buffer: WatchEvent<V>[] = [];
  private readonly indexed = new Map<IndexedField, Map<string, Set<HubWatcher<V>>>>(
    INDEXED_FIELDS.map((f) => [f, new Map()]),
  );
  private readonly general = new Set<HubWatcher<V>>();
  /** Events up to this revision have been dispatched. */
  private revision: number;

  private constructor(
    revision: number,
    private readonly bufferSize: number,
  ) {
    this.revision = revision;
  }

  /** Set once the store ended the hub's watch: no watcher may join; the owner opens a new hub. */
  ended = false;

  /**
   * A hub fed by one store watch from the store's revision now. When the store ends that
   * watch (etcd cancelled its feed), every watcher ends, as upstream's cacher terminates all
   * its watchers before it lists again (Cacher.startCaching, terminateAllWatchers), and
   * onEnded lets the owner open a fresh hub from the store's state then.
   */
  static async open<V>(
    store: Store,
    prefix: string,
    onEnded: () => void = () => undefined,
    bufferSize = 10_000,
  ): Promise<WatchHub<V>> {
    const hub = new WatchHub<V>(store.revision(), bufferSize);
    await store.watch<V>(
      prefix,
      {
        afterRevision: hub.revision,
        onEnd: () => {
          hub.endAll();
          onEnded();
        },
      },
      (events) => hub.dispatch(events),
    );
    return hub;
  }

  private endAll(): void {
    this.ended = true;
    const all = [...this.general];
    for (const index of this.indexed.values()) for (const set of index.values()) all.push(...set);
    this.general.clear();
    for (const index of this.indexed.values()) index.clear();
    this.buffer.length = 0;
    for (const w of all) w.end();
  }

  /** The oldest revision a new watcher may start after and still be served from the buffer. */
  get oldestServable(): number {
    return this.buffer.length > 0 ? this.buffer[0].kv.modRevision - 1 : this.revision;
  }

  /** Registers a watcher, first replaying what it missed; undefined when its start is too old. */
  add(w: HubWatcher<V>): (() => void) | undefined {
    if (this.ended || w.after < this.oldestServable) return undefined;
    for (const e of this.buffer) if (e.kv.modRevision > w.after && e.kv.key.startsWith(w.prefix)) this.send(w, e);
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
      this.buffer.push(e);
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
    // Trimmed in halves, not per event: shifting a long array on every event is quadratic.
    if (this.buffer.length > 2 * this.bufferSize) this.buffer.splice(0, this.buffer.length - this.bufferSize);
  }
}

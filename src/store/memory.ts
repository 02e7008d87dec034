import { Quiescence } from '../clock';
import { Fanout } from './fanout';
import { KeyIndex } from './key-index';
import { KeyValue, RangeOptions, RangeResult, Store, StoreError, Watch, WatchEvent, WatchOptions } from './store';
import { checkWatchStart } from './revision-errors';

/**
 * The in-memory backend. Keeps the event history since the last compaction so watches
 * can start in the past. Events are delivered asynchronously (tracked by the
 * quiescence tracker) so a writer never runs a watcher's code inside its own call.
 */
export class MemoryStore implements Store {
  readonly backend = 'memory';
  private rev = 1;
  private compacted = 0;
  private readonly data = new Map<string, KeyValue>();
  private readonly index = new KeyIndex();
  private readonly history: { revision: number; event: WatchEvent }[] = [];
  private readonly fanout: Fanout;
  /** History kept for watches that start in the past; older entries are compacted away. */
  constructor(
    quiescence = new Quiescence(),
    private readonly historyLimit = 100_000,
  ) {
    this.fanout = new Fanout(quiescence);
  }

  revision(): number {
    return this.rev;
  }

  async progress(): Promise<number> {
    const revision = this.rev;
    await this.fanout.flushed();
    return revision;
  }

  async currentRevision(): Promise<number> {
    return this.rev;
  }

  async get<V>(key: string): Promise<KeyValue<V> | undefined> {
    return this.data.get(key) as KeyValue<V> | undefined;
  }

  async range<V>(prefix: string, options: RangeOptions = {}): Promise<RangeResult<V>> {
    let keys = this.index.range(prefix);
    const after = options.startAfter;
    if (after !== undefined) keys = keys.filter((k) => k > after);
    const more = options.limit !== undefined && options.limit > 0 && keys.length > options.limit;
    if (more) keys = keys.slice(0, options.limit);
    const items: KeyValue<V>[] = [];
    for (const key of keys) items.push(this.data.get(key) as KeyValue<V>);
    return { items, revision: this.rev, more };
  }

  async count(prefix: string): Promise<number> {
    return this.index.count(prefix);
  }

  async create<V>(key: string, value: V): Promise<KeyValue<V>> {
    if (this.data.has(key)) throw new StoreError('KeyExists', key, `key exists: ${key}`);
    const revision = ++this.rev;
    const kv: KeyValue<V> = { key, value, createRevision: revision, modRevision: revision, version: 1 };
    this.data.set(key, kv);
    this.index.add(key);
    this.emit({ type: 'PUT', kv, created: true });
    return kv;
  }

  async update<V>(key: string, value: V, expectedModRevision?: number): Promise<KeyValue<V>> {
    const prev = this.data.get(key);
    if (!prev) throw new StoreError('KeyNotFound', key, `key not found: ${key}`);
    if (expectedModRevision !== undefined && prev.modRevision !== expectedModRevision) {
      throw new StoreError(
        'RevisionMismatch',
        key,
        `key ${key} is at revision ${prev.modRevision}, not ${expectedModRevision}`,
      );
    }
    const revision = ++this.rev;
    const kv: KeyValue<V> = {
      key,
      value,
      createRevision: prev.createRevision,
      modRevision: revision,
      version: prev.version + 1,
    };
    this.data.set(key, kv);
    this.emit({ type: 'PUT', kv, prevKv: prev, created: false });
    return kv;
  }

  async delete<V>(key: string, expectedModRevision?: number): Promise<KeyValue<V>> {
    const prev = this.data.get(key);
    if (!prev) throw new StoreError('KeyNotFound', key, `key not found: ${key}`);
    if (expectedModRevision !== undefined && prev.modRevision !== expectedModRevision) {
      throw new StoreError(
        'RevisionMismatch',
        key,
        `key ${key} is at revision ${prev.modRevision}, not ${expectedModRevision}`,
      );
    }
    const revision = ++this.rev;
    this.data.delete(key);
    this.index.remove(key);
    const tombstone: KeyValue = { ...prev, modRevision: revision };
    this.emit({ type: 'DELETE', kv: tombstone, prevKv: prev, created: false });
    return prev as KeyValue<V>;
  }

  async watch<V>(prefix: string, options: WatchOptions, onEvent: (events: WatchEvent<V>[]) => void): Promise<Watch> {
    const after = options.afterRevision ?? this.rev;
    checkWatchStart(prefix, after, this.compacted, this.rev);
    const backlog = this.history.filter((h) => h.revision > after).map((h) => h.event);
    return this.fanout.add(prefix, backlog, onEvent);
  }

  async compact(revision: number): Promise<void> {
    if (revision > this.rev)
      throw new StoreError('FutureRevision', '', `cannot compact to future revision ${revision}`);
    if (revision <= this.compacted) return;
    this.compacted = revision;
    let drop = 0;
    while (drop < this.history.length && this.history[drop].revision <= revision) drop++;
    this.history.splice(0, drop);
  }

  compactedRevision(): number {
    return this.compacted;
  }

  async close(): Promise<void> {
    this.fanout.close();
  }

  private emit(event: WatchEvent): void {
    this.history.push({ revision: event.kv.modRevision, event });
    if (this.history.length > this.historyLimit) {
      const keep = Math.floor(this.historyLimit / 2);
      this.compacted = this.history[this.history.length - keep - 1].revision;
      this.history.splice(0, this.history.length - keep);
    }
    this.fanout.publish([event]);
  }
}

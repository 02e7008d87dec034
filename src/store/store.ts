/**
 * A versioned key-value store with etcd's semantics: one global revision, every write
 * creates a new revision, writes can be guarded by a key's mod revision, watches replay
 * from a revision, and compaction forgets history (older watches then fail with Gone).
 * Values are JSON-shaped objects; backends may serialize them.
 */
export interface KeyValue<V = unknown> {
  readonly key: string;
  readonly value: V;
  readonly createRevision: number;
  readonly modRevision: number;
  /** Writes to this key since its creation, starting at 1. */
  readonly version: number;
  /** See DERIVED. */
  [DERIVED]?: unknown;
}

/**
 * A slot on a KeyValue where its reader keeps what it made of it (the API server: the
 * decorated object of this stored version, ../apiserver/storage.ts), so that one stored
 * version has one derived object however many times it is read or watched, with no side
 * table: a WeakMap holding an entry for every stored version costs a hash table as large as
 * the store, and the garbage collector's ephemeron passes over it. Never part of the value;
 * set as a non-enumerable property, so that no spread copy of a KeyValue (a tombstone, a
 * value swapped in) carries it and no comparison of KeyValues sees it.
 */
export const DERIVED = Symbol('derived from this stored version');

export type WatchEventType = 'PUT' | 'DELETE';

export interface WatchEvent<V = unknown> {
  readonly type: WatchEventType;
  /** For DELETE: the last value, with modRevision set to the deletion's revision. */
  readonly kv: KeyValue<V>;
  readonly prevKv?: KeyValue<V>;
  /** True when the PUT created the key. */
  readonly created: boolean;
}

export interface RangeResult<V = unknown> {
  readonly items: KeyValue<V>[];
  /** The store's revision when the range was read. */
  readonly revision: number;
  /** True when a limit cut the range short: continue with startAfter = the last key. */
  readonly more?: boolean;
}

export interface RangeOptions {
  /** At most this many keys (0 or absent: all). */
  limit?: number;
  /** Only keys after this one (a continuation). */
  startAfter?: string;
}

export interface Watch {
  stop(): void;
}

export interface WatchOptions {
  /** Deliver events with revision > afterRevision. Defaults to the current revision. */
  afterRevision?: number;
  /**
   * The backend ended this watch and will deliver nothing more: its source lost the thread
   * of history (etcd cancelled the feed because the revision it had to resume from was
   * compacted away while it was disconnected). The watcher re-lists. Memory and sqlite,
   * which feed their watches from their own writer, never end one.
   */
  onEnd?: (error: StoreError) => void;
}

export type StoreErrorCode = 'KeyExists' | 'KeyNotFound' | 'RevisionMismatch' | 'Compacted' | 'FutureRevision';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    readonly key: string,
    message: string,
    readonly revision?: number,
  ) {
    super(message);
  }
}

/**
 * The one contract every backend keeps (memory, sqlite, etcd); test/store/contract.ts is its
 * suite. Everything that may touch a disk or a network returns a promise, including watch():
 * etcd decides whether a start revision is compacted only when asked, so the contract is
 * asynchronous once for all backends rather than synchronous for some and not for others.
 * Two reads stay synchronous because the API server needs them on hot paths and every
 * backend can answer them from what it has seen: revision() and compactedRevision().
 */
export interface Store {
  readonly backend: string;
  /**
   * The newest revision this store instance knows: its own writes and every event its feed
   * has received. Exact for the single-writer backends (memory, sqlite); with etcd another
   * API server may have written since (currentRevision() asks).
   */
  revision(): number;
  /** The backend's revision now (etcd: a round trip; the others: revision()). */
  currentRevision(): Promise<number>;
  /**
   * Resolves with the revision the store was at when called, once every event up to it has
   * been handed to every watcher (etcd's progress notification, as upstream's cacher asks
   * for before a consistent read from its cache). Absent on a backend that cannot promise
   * it: its readers read the store itself.
   */
  progress?(): Promise<number>;
  get<V>(key: string): Promise<KeyValue<V> | undefined>;
  /** Every key starting with prefix, in key order. */
  range<V>(prefix: string, options?: RangeOptions): Promise<RangeResult<V>>;
  count(prefix: string): Promise<number>;
  /** Creates the key; KeyExists when it is there. */
  create<V>(key: string, value: V): Promise<KeyValue<V>>;
  /** Replaces the value; when expectedModRevision is given the key must still be at it. */
  update<V>(key: string, value: V, expectedModRevision?: number): Promise<KeyValue<V>>;
  delete<V>(key: string, expectedModRevision?: number): Promise<KeyValue<V>>;
  /**
   * Events for keys under prefix, strictly after the given revision, in revision order, with
   * no gap and no duplicate. Rejects with Compacted when that history is gone and with
   * FutureRevision when the revision is newer than the store's.
   */
  watch<V>(prefix: string, options: WatchOptions, onEvent: (events: WatchEvent<V>[]) => void): Promise<Watch>;
  /** Forgets the history up to and including revision (the keys' current values stay). */
  compact(revision: number): Promise<void>;
  /** The newest compaction this instance knows of (0: none). */
  compactedRevision(): number;
  close(): Promise<void>;
}

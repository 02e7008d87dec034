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
}

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
}

export interface Watch {
  stop(): void;
}

export interface WatchOptions {
  /** Deliver events with revision > afterRevision. Defaults to the current revision. */
  afterRevision?: number;
}

export type StoreErrorCode = 'KeyExists' | 'KeyNotFound' | 'RevisionMismatch' | 'Compacted' | 'FutureRevision';

export class StoreError extends Error {
  constructor(readonly code: StoreErrorCode, readonly key: string, message: string, readonly revision?: number) {
    super(message);
  }
}

export interface Store {
  readonly backend: string;
  revision(): number;
  get<V>(key: string): Promise<KeyValue<V> | undefined>;
  /** Every key starting with prefix, in key order. */
  range<V>(prefix: string): Promise<RangeResult<V>>;
  count(prefix: string): Promise<number>;
  create<V>(key: string, value: V): Promise<KeyValue<V>>;
  /** Replaces the value; when expectedModRevision is given the key must still be at it. */
  update<V>(key: string, value: V, expectedModRevision?: number): Promise<KeyValue<V>>;
  delete<V>(key: string, expectedModRevision?: number): Promise<KeyValue<V>>;
  /** Events for keys under prefix, strictly after the given revision, in revision order. */
  watch<V>(prefix: string, options: WatchOptions, onEvent: (events: WatchEvent<V>[]) => void): Watch;
  compact(revision: number): Promise<void>;
  compactedRevision(): number;
  close(): Promise<void>;
}

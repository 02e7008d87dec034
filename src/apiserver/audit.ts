import { KeyValue, RangeOptions, RangeResult, Store, Watch, WatchEvent, WatchOptions } from '../store';

/** A caller's reads: gets, lists and watches it opened. */
export interface ReadCounts {
  get: number;
  list: number;
  watch: number;
}

export type ReadVerb = keyof ReadCounts;

/** The audit as a driver reports it (GET /kubespec/v1/audit over HTTP). */
export interface ApiAuditReport {
  writesByUser: Record<string, number>;
  /**
   * What each user wrote: "resource" or "resource/subresource" (as an audit event's objectRef
   * names it) → writes. Absent from a server that does not tell.
   */
  writesByUserResource?: Record<string, Record<string, number>>;
  /** Absent from a server that does not count reads. */
  readsByUser?: Record<string, ReadCounts>;
  apiServerStoreWrites: number;
  storeRevisionDelta: number;
}

/**
 * What the API server has done, for COMM-APISERVER-ONLY: writes it handled per user, and
 * the writes it made to storage through its own handle on the store. When the store's
 * revision moved by exactly that many writes, nobody else wrote to storage. And for
 * API-CACHE, the reads each caller made: a component that keeps list/watch caches reads
 * once (list + watch) and then only from its cache, so its count stands still while the
 * cluster runs.
 */
export class ApiAudit {
  readonly writesByUser = new Map<string, number>();
  readonly writesByUserResource = new Map<string, Map<string, number>>();
  readonly readsByUser = new Map<string, ReadCounts>();
  storeWrites = 0;

  recordRequest(username: string | undefined, resource: string, subresource?: string): void {
    const user = username ?? 'system:anonymous';
    this.writesByUser.set(user, (this.writesByUser.get(user) ?? 0) + 1);
    // As an audit event's objectRef: the resource without its group ("clusterroles").
    const plain = resource.split('.')[0];
    const what = subresource ? `${plain}/${subresource}` : plain;
    const byResource = this.writesByUserResource.get(user) ?? new Map<string, number>();
    byResource.set(what, (byResource.get(what) ?? 0) + 1);
    this.writesByUserResource.set(user, byResource);
  }

  /**
   * A read by a caller. The API server's own reads (an authorizer listing roles, a proxy
   * looking up a node) carry no caller and are not requests: they are not counted.
   */
  recordRead(username: string | undefined, verb: ReadVerb): void {
    if (username === undefined) return;
    const counts = this.readsByUser.get(username) ?? { get: 0, list: 0, watch: 0 };
    counts[verb]++;
    this.readsByUser.set(username, counts);
  }

  /** The API server's handle on the store: every successful write is counted. */
  audited(store: Store): Store {
    const counted = async <T>(p: Promise<T>): Promise<T> => {
      const r = await p;
      this.storeWrites++;
      return r;
    };
    return {
      get backend() {
        return store.backend;
      },
      revision: () => store.revision(),
      currentRevision: () => store.currentRevision(),
      progress: store.progress ? () => store.progress!() : undefined,
      get: <V>(key: string) => store.get<V>(key),
      range: <V>(prefix: string, o?: RangeOptions): Promise<RangeResult<V>> => store.range<V>(prefix, o),
      count: (prefix: string) => store.count(prefix),
      create: <V>(key: string, value: V): Promise<KeyValue<V>> => counted(store.create(key, value)),
      update: <V>(key: string, value: V, rev?: number): Promise<KeyValue<V>> => counted(store.update(key, value, rev)),
      delete: <V>(key: string, rev?: number): Promise<KeyValue<V>> => counted(store.delete<V>(key, rev)),
      watch: <V>(prefix: string, o: WatchOptions, cb: (events: WatchEvent<V>[]) => void): Promise<Watch> =>
        store.watch(prefix, o, cb),
      compact: (rev: number) => store.compact(rev),
      compactedRevision: () => store.compactedRevision(),
      close: () => store.close(),
    };
  }
}

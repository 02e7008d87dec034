import { KeyValue, RangeOptions, RangeResult, Store, Watch, WatchEvent, WatchOptions } from '../store';

/**
 * What the API server has done, for COMM-APISERVER-ONLY: writes it handled per user, and
 * the writes it made to storage through its own handle on the store. When the store's
 * revision moved by exactly that many writes, nobody else wrote to storage.
 */
export class ApiAudit {
  readonly writesByUser = new Map<string, number>();
  storeWrites = 0;

  recordRequest(username: string | undefined): void {
    const user = username ?? 'system:anonymous';
    this.writesByUser.set(user, (this.writesByUser.get(user) ?? 0) + 1);
  }

  /** The API server's handle on the store: every successful write is counted. */
  audited(store: Store): Store {
    const counted = async <T>(p: Promise<T>): Promise<T> => {
      const r = await p;
      this.storeWrites++;
      return r;
    };
    return {
      get backend() { return store.backend; },
      revision: () => store.revision(),
      currentRevision: () => store.currentRevision(),
      get: <V>(key: string) => store.get<V>(key),
      range: <V>(prefix: string, o?: RangeOptions): Promise<RangeResult<V>> => store.range<V>(prefix, o),
      count: (prefix: string) => store.count(prefix),
      create: <V>(key: string, value: V): Promise<KeyValue<V>> => counted(store.create(key, value)),
      update: <V>(key: string, value: V, rev?: number): Promise<KeyValue<V>> => counted(store.update(key, value, rev)),
      delete: <V>(key: string, rev?: number): Promise<KeyValue<V>> => counted(store.delete<V>(key, rev)),
      watch: <V>(prefix: string, o: WatchOptions, cb: (events: WatchEvent<V>[]) => void): Promise<Watch> => store.watch(prefix, o, cb),
      compact: (rev: number) => store.compact(rev),
      compactedRevision: () => store.compactedRevision(),
      close: () => store.close(),
    };
  }
}

import { Etcd3, IKeyValue } from 'etcd3';
import { KeyValue, StoreError, WatchEvent } from './store';

/**
 * How EtcdStore (etcd.ts) speaks etcd's API: its keys' range ends, the guards its write
 * transactions carry (as upstream's etcd3 storage guards them), the store error a refused
 * transaction becomes, etcd's key-values and watch events read as the store's (the key prefix
 * of this cluster taken off), and where etcd compacted to.
 */

/**
 * A watch that etcd would not cancel cleanly (its connection already gone, say) leaks nothing
 * on our side, but it is said, as a failed watch is: the store sits below the client's
 * background reporter, so it logs.
 */
export function logCancelFailure(what: string): (e: unknown) => void {
  return (e) => console.error(`etcd store: cancelling ${what} failed: ${e instanceof Error ? e.message : String(e)}`);
}

/** etcd's range end for a prefix: the prefix with its last byte incremented. */
export function rangeEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

export function guard(k: Buffer, expectedModRevision: number | undefined) {
  return expectedModRevision === undefined
    ? { key: k, target: 'Create' as const, result: 'Greater' as const, create_revision: 0 }
    : { key: k, target: 'Mod' as const, result: 'Equal' as const, mod_revision: expectedModRevision };
}

export function refused(key: string, expected: number | undefined, current: IKeyValue | undefined): never {
  if (!current) throw new StoreError('KeyNotFound', key, `key not found: ${key}`);
  throw new StoreError('RevisionMismatch', key, `key ${key} is at revision ${current.mod_revision}, not ${expected}`);
}

/** An etcd key-value as the store's, its key without the key prefix. */
export function toKv<V>(keyPrefix: string, kv: IKeyValue): KeyValue<V> {
  return {
    key: kv.key.toString().slice(keyPrefix.length),
    value: JSON.parse(kv.value.toString()) as V,
    createRevision: Number(kv.create_revision),
    modRevision: Number(kv.mod_revision),
    version: Number(kv.version),
  };
}

/** An event of an etcd watch (with its previous key-value) as the store's. */
export function toEvent(keyPrefix: string, type: string, kv: IKeyValue, prev: IKeyValue | undefined): WatchEvent {
  const prevKv = prev ? toKv(keyPrefix, prev) : undefined;
  if (type === 'Delete' || type === 'DELETE' || (type as unknown) === 1) {
    const key = kv.key.toString().slice(keyPrefix.length);
    // etcd's delete event has no value: the last one is the previous kv's.
    const last = prevKv ?? { key, value: null, createRevision: 0, modRevision: 0, version: 0 };
    return { type: 'DELETE', kv: { ...last, modRevision: Number(kv.mod_revision) }, prevKv, created: false };
  }
  const now = toKv(keyPrefix, kv);
  return { type: 'PUT', kv: now, prevKv, created: now.version === 1 };
}

/**
 * The oldest revision etcd still reads in [from, to]: etcd refuses a read below its compaction
 * without saying where that is, so it is searched for (binary search over read attempts).
 */
export async function oldestReadableRevision(
  client: Etcd3,
  keyPrefix: string,
  from: number,
  to: number,
): Promise<number> {
  let lo = from,
    hi = to;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    try {
      await client.kv.range({ key: Buffer.from(`${keyPrefix}/`), revision: mid, count_only: true });
      hi = mid;
    } catch {
      lo = mid + 1;
    }
  }
  return lo;
}

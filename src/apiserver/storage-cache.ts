import { errors } from '../api/errors';
import { KubeObject } from '../api/meta';
import { ApiWatchEvent } from '../api/request';
import { KeyValue, Store, StoreError, WatchEvent as StoreWatchEvent } from '../store';
import { ListPage, ListReadOptions, listPage, tooLarge } from './storage-list';
import { INDEXED_FIELDS, WatchHub } from './watch-hub';
import type { FieldSelector } from '../api/fields';

/** What the cache needs of the resource's REST storage. */
export interface CachedResource<T extends KubeObject> {
  /** The resource's key prefix (all namespaces). */
  prefix(namespace?: string): string;
  /** The shared frozen object of a stored version. */
  decorate(kv: KeyValue<T>): T;
  /** Whether keys hold a namespace (prefix/namespace/name) or not (prefix/name). */
  namespaced: boolean;
}

/** A filter on objects (the parsed selectors), and the field selector for the hub's index. */
export interface CacheFilter<T> {
  matches(obj: T): boolean;
  /** True when nothing is filtered out (remainingItemCount is given only then). */
  empty: boolean;
  fieldSelector?: FieldSelector;
}

/**
 * Reads served from the resource's watch cache (./watch-hub), as upstream's Cacher serves
 * them: LIST pages (./storage-list) and watches, the initial state of a watch from "now"
 * included, so one range of the store serves every reader after the first.
 */
export class ResourceCache<T extends KubeObject> {
  private watchHub?: Promise<WatchHub<T>>;

  constructor(
    private readonly store: Store,
    private readonly resource: CachedResource<T>,
    /** The store's revision when the API server started (its watch cache's first, upstream). */
    private readonly startRevision = 0,
    /** The API server's clock: the watch cache keeps 75 s of events by it (./event-window). */
    private readonly now: () => number = Date.now,
    /** The profile's watchCacheFromList (../profile/profile.ts). */
    private readonly fromList = true,
  ) {}

  async list(namespace: string | undefined, options: ListReadOptions, filter: CacheFilter<T>): Promise<ListPage<T>> {
    const hub = await this.hub();
    const prefix = this.resource.prefix(namespace);
    // A list pinned to one name (a kubelet's informer on its own Node) reads the keys that
    // start with it rather than every object: the filter still decides, the keys read are
    // few. Not for a paged list, whose continue token is relative to the resource's prefix.
    const name = filter.fieldSelector?.requiresExactMatch('metadata.name');
    const byName =
      name && !options.limit && !options.continue && (namespace || !this.resource.namespaced)
        ? `${prefix}${name}`
        : prefix;
    return listPage(hub, this.store, byName, options, filter.matches, filter.empty);
  }

  /**
   * Streams changes after a resourceVersion, filtered. "" starts from a consistent read,
   * "0" from what the cache has: the objects as ADDED, then the changes after them. An
   * object that stops (or starts) matching is reported DELETED (or ADDED), as upstream's
   * watch cache does.
   */
  async watch(
    namespace: string | undefined,
    resourceVersion: string | undefined,
    filter: CacheFilter<T>,
    onEvent: (e: ApiWatchEvent<T>) => void,
  ): Promise<{ stop(): void }> {
    const prefix = this.resource.prefix(namespace);
    const rv = resourceVersion;
    let hub = await this.hub();
    let after: number;
    const initial: T[] = [];
    if (!rv || rv === '0') {
      if (!rv && this.store.progress) hub.caughtUp(await this.store.progress());
      if (hub.ended) hub = await this.hub();
      after = hub.cachedRevision;
      hub.scan(prefix, prefix, (kv) => {
        if (filter.matches(kv.value)) initial.push(this.resource.decorate(kv));
        return true;
      });
    } else {
      after = Number(rv);
      if (!Number.isInteger(after) || after < 0) throw errors.badRequest(`invalid resource version: ${rv}`);
      // Newer than anything stored: upstream's watch cache waits up to 3 s for it, then
      // answers 504 "Too large resource version"; this store has no lag to wait for.
      // revision() is what this server has seen; another server on the same etcd may be ahead.
      const current = after > this.store.revision() ? await this.store.currentRevision() : after;
      if (after > current) throw tooLarge(after, current);
    }
    const pinned = INDEXED_FIELDS.map((field) => ({
      field,
      value: filter.fieldSelector?.requiresExactMatch(field),
    })).find((i) => i.value !== undefined);
    let stopped = false;
    const deliver = (e: StoreWatchEvent<T>) => {
      if (stopped) return;
      const out = this.translate(e, filter);
      if (out) onEvent(out);
    };
    // The store lost the thread of history under this watch: it ends with 410 Gone, as
    // upstream's etcd3 watcher ends a watch whose revision was compacted, and the client
    // lists again (client-go's reflector does on any 410).
    const end = () => {
      if (stopped) return;
      stopped = true;
      onEvent({
        type: 'ERROR',
        object: errors.gone(`too old resource version: ${after} (the storage's watch was cancelled: list again)`)
          .status as unknown as T,
      });
    };
    // Delivered before any change (the initial state and add() in the same turn: no gap).
    for (const obj of initial) onEvent({ type: 'ADDED', object: obj });
    const remove = hub.add({
      prefix,
      after,
      index: pinned ? { field: pinned.field, value: pinned.value! } : undefined,
      deliver,
      end,
    });
    if (remove)
      return {
        stop: () => {
          stopped = true;
          remove();
        },
      };
    // Older than the API server's start: upstream's watch cache lists at start and answers
    // 410 below that (k8s.io/apiserver cacher watchCache.getAllEventsSinceLocked, "too old
    // resource version"); found on upstream v1.32.13 after a SIGKILL restart. Older than the
    // events its window still keeps (75 s at least, ./event-window; v1.12: its first event):
    // 410 too, whatever the store has; the cacher never reads etcd's history for a watch.
    if (after < this.startRevision || hub.bounded)
      throw errors.gone(`too old resource version: ${after} (${Math.max(this.startRevision, hub.oldestServable)})`);
    // Older than the hub's window, which begins when it is made, on the first read (upstream's
    // caches are made at start), when the store's history did not reach the API server's
    // start then: the store's own history, or 410 Gone.
    try {
      const w = await this.store.watch<T>(prefix, { afterRevision: after, onEnd: end }, (events) =>
        events.forEach(deliver),
      );
      return {
        stop: () => {
          stopped = true;
          w.stop();
        },
      };
    } catch (e) {
      if (e instanceof StoreError && e.code === 'Compacted')
        throw errors.gone(`too old resource version: ${after} (${e.revision})`);
      if (e instanceof StoreError && e.code === 'FutureRevision')
        throw errors.timeout(`Too large resource version: ${after}, current: ${this.store.revision()}`);
      throw e;
    }
  }

  /** The shared cache for this resource, made on the first read (made again if that failed or its store watch ended). */
  private hub(): Promise<WatchHub<T>> {
    if (!this.watchHub) {
      const opening = WatchHub.open<T>(
        this.store,
        this.resource.prefix(),
        () => {
          if (this.watchHub === opening) this.watchHub = undefined;
        },
        this.now,
        this.startRevision,
        this.fromList,
      );
      this.watchHub = opening;
      opening.catch(() => {
        if (this.watchHub === opening) this.watchHub = undefined;
      });
    }
    return this.watchHub;
  }

  private translate(e: StoreWatchEvent<T>, filter: CacheFilter<T>): ApiWatchEvent<T> | undefined {
    const decorate = (kv: KeyValue<T>) => this.resource.decorate(kv);
    const nowMatches = filter.matches(e.kv.value);
    const before = e.prevKv ? filter.matches(e.prevKv.value) : false;
    if (e.type === 'DELETE') return before ? { type: 'DELETED', object: decorate(e.kv) } : undefined;
    if (e.created) return nowMatches ? { type: 'ADDED', object: decorate(e.kv) } : undefined;
    if (nowMatches && before) return { type: 'MODIFIED', object: decorate(e.kv) };
    if (nowMatches) return { type: 'ADDED', object: decorate(e.kv) };
    if (before) return { type: 'DELETED', object: decorate(e.kv) };
    return undefined;
  }
}

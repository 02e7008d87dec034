import { KubeObject, objectKey } from '../api/meta';
import { intern } from '../api/shared-subtrees';
import { isStatusError } from '../api/errors';
import { Client, ResourceRef, Watch } from './client';
import { ListOptions } from '../api/request';
import { ErrorSink, handleError } from './background';
import { ExponentialBackoff } from './backoff';
import { Clock, TimerHandle } from '../clock';

export interface EventHandler<T extends KubeObject> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
}

export type IndexFunc<T> = (obj: T) => string[];

/**
 * What addEventHandler returns (client-go's ResourceEventHandlerRegistration): the handle
 * that takes the handler off again with removeEventHandler. Once removed, the handler hears
 * nothing more, not even the rest of a delivery already under way.
 */
export interface HandlerRegistration {
  readonly active: boolean;
}

class Registration<T extends KubeObject> implements HandlerRegistration {
  active = true;
  constructor(readonly handler: EventHandler<T>) {}
}

/**
 * List + watch into a local cache, as client-go's shared informer: components read the
 * cache and react to changes instead of polling the API server (API-CACHE).
 */
export class Informer<T extends KubeObject = KubeObject> {
  private readonly cache = new Map<string, T>();
  /** Replaced, never changed in place: a delivery under way goes through the list it began with. */
  private handlers: readonly Registration<T>[] = [];
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  private watch?: Watch;
  private synced = false;
  private stopped = false;
  private lastResourceVersion = '';
  private readonly backoff = new ExponentialBackoff();
  private retry?: TimerHandle;

  /**
   * clock: where a failed relist waits before it tries again (client-go's reflector retries
   * ListAndWatch through its backoff manager); without one a failed relist is reported and
   * the informer stays on its last cache.
   */
  constructor(
    private readonly client: Client,
    readonly ref: ResourceRef,
    private readonly options: ListOptions = {},
    private readonly clock?: Clock,
    /** Where failures nobody waits for go (a relist, a closed watch, a handler): the owner's reporter. */
    private readonly report: ErrorSink = handleError,
  ) {}

  addEventHandler(handler: EventHandler<T>): HandlerRegistration {
    const registration = new Registration(handler);
    this.handlers = [...this.handlers, registration];
    if (this.synced)
      for (const obj of this.cache.values())
        if (registration.active) guarded(this.report, obj, () => handler.onAdd?.(obj));
    return registration;
  }

  /** RemoveEventHandler: the handler hears nothing more from this informer. */
  removeEventHandler(registration: HandlerRegistration): void {
    if (!(registration instanceof Registration)) return;
    registration.active = false;
    this.handlers = this.handlers.filter((r) => r !== registration);
  }

  addIndexer(name: string, fn: IndexFunc<T>): void {
    if (this.indexers.has(name)) return;
    this.indexers.set(name, fn);
    const index = new Map<string, Set<string>>();
    this.indices.set(name, index);
    for (const [key, obj] of this.cache) this.indexAdd(name, fn, key, obj);
  }

  get hasSynced(): boolean {
    return this.synced;
  }

  get(key: string): T | undefined {
    return this.cache.get(key);
  }

  getByName(name: string, namespace?: string): T | undefined {
    return this.cache.get(namespace ? `${namespace}/${name}` : name);
  }

  list(): T[] {
    return [...this.cache.values()];
  }

  keys(): string[] {
    return [...this.cache.keys()];
  }

  get size(): number {
    return this.cache.size;
  }

  /** The values an index currently holds (each with at least one object). */
  indexValues(name: string): IterableIterator<string> {
    return (this.indices.get(name) ?? new Map<string, Set<string>>()).keys();
  }

  byIndex(name: string, value: string): T[] {
    const keys = this.indices.get(name)?.get(value);
    if (!keys) return [];
    const out: T[] = [];
    for (const k of keys) {
      const o = this.cache.get(k);
      if (o) out.push(o);
    }
    return out;
  }

  async run(): Promise<void> {
    this.stopped = false;
    await this.listAndWatch();
  }

  stop(): void {
    this.stopped = true;
    this.watch?.stop();
    this.watch = undefined;
    if (this.retry) this.clock?.clear(this.retry);
    this.retry = undefined;
  }

  /**
   * List and watch again (the watch's history is gone, HTTP 410); a failure is reported
   * (HandleError) and retried after the reflector's backoff (800 ms, doubling, at most 30 s),
   * never given up.
   */
  private relist(): void {
    this.listAndWatch().catch((e) => {
      this.report(`informer (${this.ref.resource})`, e);
      this.retryAfterBackoff(() => this.relist());
    });
  }

  private retryAfterBackoff(retry: () => void): void {
    if (this.stopped || !this.clock) return;
    const clock = this.clock;
    this.retry = clock.setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) retry();
    }, this.backoff.delay(clock.now()));
  }

  private async listAndWatch(): Promise<void> {
    const list = await this.client.list<T>(this.ref, this.options);
    if (this.stopped) return;
    const seen = new Set<string>();
    for (const obj of list.items) {
      const key = objectKey(obj);
      seen.add(key);
      this.upsert(key, obj);
    }
    for (const [key, obj] of [...this.cache]) if (!seen.has(key)) this.remove(key, obj);
    this.synced = true;
    this.lastResourceVersion = list.metadata.resourceVersion ?? '';
    await this.startWatch();
  }

  /**
   * Watches from the last resourceVersion seen (client-go's Reflector.watch). When the watch
   * closes: at 410 the history is gone and only a list can resync the cache; otherwise the
   * next watch resumes where this one ended — at once after a watch that delivered events,
   * after the reflector's backoff after one that failed or closed at once with nothing
   * (upstream's "very short watch"), so a server that refuses every watch is not asked in a
   * tight loop.
   */
  private async startWatch(): Promise<void> {
    let delivered = false;
    const started = this.clock?.now();
    this.watch = await this.client.watch<T>(
      this.ref,
      { ...this.options, resourceVersion: this.lastResourceVersion },
      {
        onEvent: (e) => {
          delivered = true;
          const key = objectKey(e.object);
          this.lastResourceVersion = e.object.metadata.resourceVersion ?? this.lastResourceVersion;
          if (e.type === 'ADDED' || e.type === 'MODIFIED') this.upsert(key, e.object);
          else if (e.type === 'DELETED') {
            const old = this.cache.get(key);
            if (old) this.remove(key, e.object);
          }
        },
        onClose: (error) => {
          if (this.stopped) return;
          this.watch = undefined;
          if (isGone(error)) return this.relist();
          const lastedAWhile = started !== undefined && this.clock!.now() - started >= 1000;
          if (error === undefined && (delivered || lastedAWhile)) return this.rewatch();
          if (error !== undefined) this.report(`informer (${this.ref.resource}): watch closed`, error);
          this.retryAfterBackoff(() => this.rewatch());
        },
      },
    );
  }

  private rewatch(): void {
    this.startWatch().catch((e) => {
      if (isGone(e)) return this.relist();
      this.report(`informer (${this.ref.resource})`, e);
      this.retryAfterBackoff(() => this.rewatch());
    });
  }

  private upsert(key: string, obj: T): void {
    const old = this.cache.get(key);
    if (old && old.metadata.resourceVersion === obj.metadata.resourceVersion) return;
    // A key this cache keeps is the pooled one: every informer of a resource keeps one per
    // object, each made from the object's namespace and name (issue 31: 5 per pod).
    if (!old) key = intern(key);
    this.cache.set(key, obj);
    for (const [name, fn] of this.indexers) {
      if (!old) {
        this.indexAdd(name, fn, key, obj);
        continue;
      }
      // Most updates (a heartbeat, a status) leave the indexed values as they were: nothing to move.
      const before = guarded(this.report, old, () => fn(old)) ?? [];
      const after = guarded(this.report, obj, () => fn(obj)) ?? [];
      if (sameValues(before, after)) continue;
      this.indexValuesRemove(name, key, before);
      this.indexValuesAdd(name, intern(key), after);
    }
    for (const r of this.handlers) {
      if (r.active) guarded(this.report, obj, () => (old ? r.handler.onUpdate?.(old, obj) : r.handler.onAdd?.(obj)));
    }
  }

  private remove(key: string, obj: T): void {
    const old = this.cache.get(key);
    this.cache.delete(key);
    if (old) for (const [name, fn] of this.indexers) this.indexRemove(name, fn, key, old);
    for (const r of this.handlers) if (r.active) guarded(this.report, obj, () => r.handler.onDelete?.(obj));
  }

  private indexAdd(name: string, fn: IndexFunc<T>, key: string, obj: T): void {
    this.indexValuesAdd(name, key, guarded(this.report, obj, () => fn(obj)) ?? []);
  }

  private indexRemove(name: string, fn: IndexFunc<T>, key: string, obj: T): void {
    this.indexValuesRemove(name, key, guarded(this.report, obj, () => fn(obj)) ?? []);
  }

  private indexValuesAdd(name: string, key: string, values: string[]): void {
    const index = this.indices.get(name)!;
    for (const v of values) {
      let set = index.get(v);
      if (!set) index.set(v, (set = new Set()));
      set.add(key);
    }
  }

  private indexValuesRemove(name: string, key: string, values: string[]): void {
    const index = this.indices.get(name)!;
    for (const v of values) {
      const set = index.get(v);
      set?.delete(key);
      if (set && set.size === 0) index.delete(v);
    }
  }
}

/** One informer per resource and selector, shared by every component that asks. */
export class InformerFactory {
  private readonly informers = new Map<string, Informer>();

  constructor(
    private readonly client: Client,
    private readonly clock?: Clock,
    private readonly report: ErrorSink = handleError,
  ) {}

  informer<T extends KubeObject>(ref: ResourceRef, options: ListOptions = {}): Informer<T> {
    const key = JSON.stringify([
      ref.resource,
      ref.namespace ?? '',
      options.labelSelector ?? '',
      options.fieldSelector ?? '',
    ]);
    let inf = this.informers.get(key);
    if (!inf) {
      inf = new Informer(this.client, ref, options, this.clock, this.report);
      this.informers.set(key, inf);
    }
    return inf as unknown as Informer<T>;
  }

  /** Starts every informer not yet running and waits for their initial lists. */
  async start(): Promise<void> {
    await Promise.all([...this.informers.values()].filter((i) => !i.hasSynced).map((i) => i.run()));
  }

  stop(): void {
    for (const i of this.informers.values()) i.stop();
  }
}

/** HTTP 410 (reason Expired or Gone): the resourceVersion asked for is older than the history kept. */
function isGone(e: unknown): boolean {
  return isStatusError(e) && e.status.code === 410;
}

function sameValues(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Counts handler failures on one object (the fuzz test reads it); each goes to the informer's sink. */
export const informerErrors = {
  count: 0,
  report: (obj: KubeObject, e: unknown, sink: ErrorSink = handleError): void => {
    const name = `${obj?.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj?.metadata?.name}`;
    sink(`informer: skipped ${obj?.kind ?? 'object'} ${name}`, e);
  },
};

/**
 * Runs one handler or index function on one object: an object the code cannot handle is
 * skipped and reported, never allowed to stop the informer (or its component).
 */
function guarded<R>(sink: ErrorSink, obj: KubeObject, run: () => R): R | undefined {
  try {
    const r = run();
    if (r instanceof Promise)
      r.catch((e) => {
        informerErrors.count++;
        informerErrors.report(obj, e, sink);
      });
    return r;
  } catch (e) {
    informerErrors.count++;
    informerErrors.report(obj, e, sink);
    return undefined;
  }
}

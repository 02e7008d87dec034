import { randomUUID } from 'node:crypto';
import { Clock, isoTime } from '../clock';
import { errors } from '../api/errors';
import { clone, deepFreeze, jsonEqual, KubeList, KubeObject } from '../api/meta';
import { apiVersionOf, ResourceType } from '../api/registry';
import { Selector } from '../api/labels/selector';
import { FieldSelector } from '../api/fields';
import { KeyValue, Store, StoreError, WatchEvent as StoreWatchEvent } from '../store';
import { nameErrors } from '../api/validation/field';
import { ApiWatchEvent, DeleteOptions } from '../api/request';
import { randomSuffix } from '../api/names';
import { retryOnRevisionMismatch } from './storage-retry';
import { decodeTyped, pruneUnknownFields } from '../api/resources/schema';
import { decodeObjectMeta, validateObjectMeta } from '../api/validation/objectmeta';
import { INDEXED_FIELDS, WatchHub } from './watch-hub';

/** A list's selectors, parsed (the wire form, strings, is api/request's ListOptions). */
export interface StorageListOptions {
  labelSelector?: Selector;
  fieldSelector?: FieldSelector;
}

export interface StorageWatchOptions extends StorageListOptions {
  /** Start after this resourceVersion; "" or "0" means: current state as ADDED, then changes. */
  resourceVersion?: string;
}

/** Result of a delete: the object as it was removed, or as it now waits (Terminating). */
export interface DeleteResult<T extends KubeObject = KubeObject> {
  object: T;
  /** False when the object stays, marked for deletion (grace period or finalizers). */
  deleted: boolean;
}

/** The decorated (resourceVersion-carrying, frozen) object of each stored version seen. */
const decorated = new WeakMap<KeyValue, KubeObject>();

/**
 * REST storage for one resource over the versioned store: keys, resourceVersions,
 * optimistic concurrency, defaults and validation, graceful deletion and finalizers.
 * Admission and authorization are the API server's; this layer only keeps objects right.
 */
export class ResourceStorage<T extends KubeObject = KubeObject> {
  constructor(
    readonly type: ResourceType<T>,
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  key(namespace: string | undefined, name: string): string {
    return this.type.namespaced
      ? `/registry/${this.type.storagePrefix}/${namespace}/${name}`
      : `/registry/${this.type.storagePrefix}/${name}`;
  }

  prefix(namespace?: string): string {
    return this.type.namespaced && namespace
      ? `/registry/${this.type.storagePrefix}/${namespace}/`
      : `/registry/${this.type.storagePrefix}/`;
  }

  private target(name?: string) {
    return { kind: this.type.resource, group: this.type.group, name };
  }

  /**
   * The stored object with its resourceVersion, frozen (callers copy before changing). One
   * copy per stored version, shared by every reader and watcher: a KeyValue never changes, so
   * its decorated object is made once (the backends that keep their KeyValues, as the memory
   * store does, hand the same one to every get, range and watch event).
   */
  private decorate(kv: KeyValue<T>): T {
    const cached = decorated.get(kv);
    if (cached) return cached as T;
    const metadata = Object.freeze({ ...kv.value.metadata, resourceVersion: String(kv.modRevision) });
    const obj = Object.freeze({ ...kv.value, metadata }) as T;
    decorated.set(kv, obj);
    return obj;
  }

  /** Decodes a request body into a private copy with kind and apiVersion checked. */
  normalize(body: unknown, namespace: string | undefined): T {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw errors.badRequest(
        `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`,
      );
    }
    const obj = clone(body) as T;
    const apiVersion = apiVersionOf(this.type);
    if (obj.kind !== undefined && obj.kind !== this.type.kind) {
      throw errors.badRequest(
        `${this.type.kind} in version "${this.type.version}" cannot be handled as a ${this.type.kind}: kind "${obj.kind}" does not match`,
      );
    }
    if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersion) {
      throw errors.badRequest(
        `the API version in the data (${obj.apiVersion}) does not match the expected API version (${apiVersion})`,
      );
    }
    obj.kind = this.type.kind;
    obj.apiVersion = apiVersion;
    obj.metadata = obj.metadata ?? {};
    if (obj.metadata === null || typeof obj.metadata !== 'object' || Array.isArray(obj.metadata)) {
      throw errors.badRequest(
        `${this.type.kind} in version "${this.type.version}" cannot be handled as a ${this.type.kind}: json: cannot unmarshal ${Array.isArray(obj.metadata) ? 'array' : typeof obj.metadata} into Go struct field ${this.type.kind}.metadata of type v1.ObjectMeta`,
      );
    }
    decodeObjectMeta(obj.metadata as Record<string, unknown>, this.type.kind, this.type.version);
    decodeTyped(obj as unknown as Record<string, unknown>, this.type.kind, this.type.version);
    pruneUnknownFields(this.type.kind, obj as unknown as Record<string, unknown>);
    if (this.type.namespaced) {
      if (obj.metadata.namespace && namespace && obj.metadata.namespace !== namespace) {
        throw errors.badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      obj.metadata.namespace = namespace ?? obj.metadata.namespace;
    } else {
      delete obj.metadata.namespace;
    }
    return obj;
  }

  private validate(obj: T, old?: T): void {
    const name = obj.metadata.name ?? '';
    const causes = [
      ...(old ? [] : nameErrors('metadata.name', name, this.type.nameRule)),
      ...validateObjectMeta(obj.metadata),
      ...(this.type.validate?.(obj) ?? []),
      ...(old && this.type.validateUpdate ? this.type.validateUpdate(obj, old) : []),
    ];
    if (!name && !old)
      causes.unshift({
        reason: 'FieldValueRequired',
        field: 'metadata.name',
        message: 'Required value: name or generateName is required',
      });
    if (causes.length > 0) throw errors.invalid(this.type.kind, name, causes, this.type.group || undefined);
  }

  /** Fills server-set fields of a new object; called before admission. */
  prepareCreate(obj: T): void {
    const m = obj.metadata;
    if (!m.name && m.generateName) {
      m.name = `${m.generateName}${randomSuffix()}`;
    }
    m.uid = randomUUID();
    m.creationTimestamp = isoTime(this.clock.now());
    delete m.resourceVersion;
    delete m.deletionTimestamp;
    delete m.deletionGracePeriodSeconds;
    if (this.type.tracksGeneration) m.generation = 1;
    this.type.defaults?.(obj);
    this.type.prepareForCreate?.(obj);
  }

  async create(obj: T, dryRun = false): Promise<T> {
    this.validate(obj);
    const value = deepFreeze(withoutResourceVersion(obj));
    if (dryRun) {
      if (await this.store.get(this.key(obj.metadata.namespace, obj.metadata.name!)))
        throw errors.alreadyExists(this.target(obj.metadata.name));
      return value;
    }
    try {
      return this.decorate(await this.store.create(this.key(obj.metadata.namespace, obj.metadata.name!), value));
    } catch (e) {
      if (e instanceof StoreError && e.code === 'KeyExists') throw errors.alreadyExists(this.target(obj.metadata.name));
      throw e;
    }
  }

  async getKV(namespace: string | undefined, name: string): Promise<KeyValue<T>> {
    const kv = await this.store.get<T>(this.key(namespace, name));
    if (!kv) throw errors.notFound(this.target(name));
    return kv;
  }

  async get(namespace: string | undefined, name: string): Promise<T> {
    return this.decorate(await this.getKV(namespace, name));
  }

  async list(namespace: string | undefined, options: StorageListOptions = {}): Promise<KubeList<T>> {
    const { items, revision } = await this.store.range<T>(this.prefix(namespace));
    const out: T[] = [];
    for (const kv of items) {
      if (this.matches(kv.value, options)) out.push(this.decorate(kv));
    }
    return {
      apiVersion: apiVersionOf(this.type),
      kind: this.type.listKind,
      metadata: { resourceVersion: String(revision) },
      items: out,
    };
  }

  matches(obj: T, options: StorageListOptions): boolean {
    if (options.labelSelector && !options.labelSelector.empty() && !options.labelSelector.matches(obj.metadata.labels))
      return false;
    if (options.fieldSelector && !options.fieldSelector.empty() && !options.fieldSelector.matches(this.fieldsOf(obj)))
      return false;
    return true;
  }

  /** The field labels a field selector may use on this resource. */
  supportedFields(): Set<string> {
    this.fieldLabels ??= new Set(Object.keys(this.fieldsOf({ metadata: {}, spec: {}, status: {} } as unknown as T)));
    return this.fieldLabels;
  }

  private fieldLabels?: Set<string>;

  fieldsOf(obj: T): Record<string, string> {
    const fields: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '' };
    if (this.type.namespaced) fields['metadata.namespace'] = obj.metadata.namespace ?? '';
    return { ...fields, ...(this.type.fields?.(obj) ?? {}) };
  }

  /**
   * Writes a new version computed from the current one. `mutate` receives a private copy
   * of the stored object and returns the object to store (or throws). Retries when the
   * store moved underneath, unless the caller pinned a resourceVersion.
   */
  async guaranteedUpdate(
    namespace: string | undefined,
    name: string,
    mutate: (current: T) => T | Promise<T>,
    options: { dryRun?: boolean; expectedResourceVersion?: string } = {},
  ): Promise<T> {
    return retryOnRevisionMismatch(async (guard) => {
      const kv = await this.getKV(namespace, name);
      const current = this.decorate(kv);
      if (options.expectedResourceVersion && options.expectedResourceVersion !== current.metadata.resourceVersion) {
        throw errors.conflict(
          this.target(name),
          'the object has been modified; please apply your changes to the latest version and try again',
        );
      }
      const next = await mutate(clone(current));
      next.metadata.resourceVersion = current.metadata.resourceVersion;
      this.type.prepareForUpdate?.(next, current);
      this.validate(next, current);
      if (sameObject(next, current)) return current; // no-op writes keep the resourceVersion
      if (this.type.tracksGeneration && specChanged(next, current))
        next.metadata.generation = (current.metadata.generation ?? 0) + 1;
      const value = deepFreeze(withoutResourceVersion(next));
      if (options.dryRun) return value;
      if (shouldDeleteDuringUpdate(value)) {
        const deleted = await guard(() => this.store.delete<T>(kv.key, kv.modRevision));
        return this.decorate({ ...deleted, value } as KeyValue<T>);
      }
      // A pinned resourceVersion is not retried: the caller's object is stale, a 409.
      const write = () => this.store.update(kv.key, value, kv.modRevision);
      try {
        return this.decorate(await (options.expectedResourceVersion ? write() : guard(write)));
      } catch (e) {
        if (e instanceof StoreError && e.code === 'KeyNotFound') throw errors.notFound(this.target(name));
        if (e instanceof StoreError && e.code === 'RevisionMismatch') {
          throw errors.conflict(
            this.target(name),
            'the object has been modified; please apply your changes to the latest version and try again',
          );
        }
        throw e;
      }
    });
  }

  /**
   * Deletes now, or marks for deletion when a grace period or finalizers hold the object
   * (upstream's BeforeDelete + graceful deletion).
   */
  async delete(
    namespace: string | undefined,
    name: string,
    options: DeleteOptions = {},
    dryRun = false,
  ): Promise<DeleteResult<T>> {
    return retryOnRevisionMismatch(async (guard) => {
      const kv = await this.getKV(namespace, name);
      const current = this.decorate(kv);
      const pre = options.preconditions;
      if (pre?.uid && pre.uid !== current.metadata.uid) {
        throw errors.conflict(
          this.target(name),
          `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.metadata.uid}`,
        );
      }
      if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
        throw errors.conflict(
          this.target(name),
          `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion}`,
        );
      }
      const requested = options.gracePeriodSeconds;
      if (requested !== undefined && requested < 0) throw errors.badRequest('gracePeriodSeconds must be non-negative');
      const grace = this.type.gracePeriod ? this.type.gracePeriod(current, requested) : 0;
      const finalizers = withPropagationFinalizers(
        current.metadata.finalizers ?? [],
        options,
        this.type.defaultGarbageCollectionPolicy,
      );
      const alreadyDeleting = current.metadata.deletionTimestamp !== undefined;
      const hold = this.type.deletionHold;
      if (hold && alreadyDeleting && hold.held(current)) {
        if (hold.refusal !== undefined) throw errors.conflict(this.target(name), hold.refusal);
        return { object: current, deleted: false };
      }
      if (hold && !alreadyDeleting) {
        const marked = clone(current) as T;
        marked.metadata.deletionTimestamp = isoTime(this.clock.now());
        if (finalizers.length > 0) marked.metadata.finalizers = finalizers;
        hold.markDeleting(marked);
        if (dryRun) return { object: marked, deleted: false };
        return {
          object: this.decorate(
            await guard(() => this.store.update(kv.key, deepFreeze(withoutResourceVersion(marked)), kv.modRevision)),
          ),
          deleted: false,
        };
      }
      const currentGrace = current.metadata.deletionGracePeriodSeconds;
      const shortens = alreadyDeleting && currentGrace !== undefined && grace < currentGrace;
      if (finalizers.length === 0 && grace === 0) {
        if (dryRun) return { object: current, deleted: true };
        await guard(() => this.store.delete(kv.key, kv.modRevision));
        return { object: current, deleted: true };
      }
      if (alreadyDeleting && !shortens && sameList(finalizers, current.metadata.finalizers ?? [])) {
        return { object: current, deleted: false };
      }
      const next = clone(current) as T;
      const now = this.clock.now();
      if (!alreadyDeleting || shortens) {
        next.metadata.deletionTimestamp = isoTime(now + grace * 1000);
        next.metadata.deletionGracePeriodSeconds = grace;
      }
      next.metadata.finalizers = finalizers;
      if (next.metadata.finalizers.length === 0) delete next.metadata.finalizers;
      if (dryRun) return { object: next, deleted: false };
      return {
        object: this.decorate(
          await guard(() => this.store.update(kv.key, deepFreeze(withoutResourceVersion(next)), kv.modRevision)),
        ),
        deleted: false,
      };
    });
  }

  /**
   * Streams changes after a resourceVersion, filtered by the selectors. An object that
   * stops (or starts) matching is reported DELETED (or ADDED), as upstream's watch cache does.
   */
  async watch(
    namespace: string | undefined,
    options: StorageWatchOptions,
    onEvent: (e: ApiWatchEvent<T>) => void,
  ): Promise<{ stop(): void }> {
    let after: number;
    const rv = options.resourceVersion;
    if (!rv || rv === '0') {
      const initial = await this.store.range<T>(this.prefix(namespace));
      after = initial.revision;
      const added = initial.items.filter((kv) => this.matches(kv.value, options)).map((kv) => this.decorate(kv));
      // Delivered before any change: the store delivers changes asynchronously.
      for (const obj of added) onEvent({ type: 'ADDED', object: obj });
    } else {
      after = Number(rv);
      if (!Number.isInteger(after) || after < 0) throw errors.badRequest(`invalid resource version: ${rv}`);
      // Newer than anything stored: upstream's watch cache waits up to 3 s for it, then
      // answers 504 "Too large resource version"; this store has no lag to wait for.
      // revision() is what this server has seen; another server on the same etcd may be ahead.
      const current = after > this.store.revision() ? await this.store.currentRevision() : after;
      if (after > current) {
        const e = errors.timeout(`Too large resource version: ${after}, current: ${current}`);
        e.status.details = {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        };
        throw e;
      }
    }
    const prefix = this.prefix(namespace);
    const pinned = INDEXED_FIELDS.map((field) => ({
      field,
      value: options.fieldSelector?.requiresExactMatch(field),
    })).find((i) => i.value !== undefined);
    let stopped = false;
    const deliver = (e: StoreWatchEvent<T>) => {
      if (stopped) return;
      const out = this.translate(e, options);
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
    const remove = (await this.hub()).add({
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
    // Older than the hub remembers: the store's own history, or 410 Gone.
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

  private watchHub?: Promise<WatchHub<T>>;

  /** The shared fan-out for this resource, made on the first watch (made again if that failed or its store watch ended). */
  private hub(): Promise<WatchHub<T>> {
    if (!this.watchHub) {
      const opening = WatchHub.open<T>(this.store, this.prefix(), () => {
        if (this.watchHub === opening) this.watchHub = undefined;
      });
      this.watchHub = opening;
      opening.catch(() => {
        if (this.watchHub === opening) this.watchHub = undefined;
      });
    }
    return this.watchHub;
  }

  private translate(e: StoreWatchEvent<T>, options: StorageListOptions): ApiWatchEvent<T> | undefined {
    const nowMatches = this.matches(e.kv.value, options);
    const before = e.prevKv ? this.matches(e.prevKv.value, options) : false;
    if (e.type === 'DELETE') return before ? { type: 'DELETED', object: this.decorate(e.kv) } : undefined;
    if (e.created) return nowMatches ? { type: 'ADDED', object: this.decorate(e.kv) } : undefined;
    if (nowMatches && before) return { type: 'MODIFIED', object: this.decorate(e.kv) };
    if (nowMatches) return { type: 'ADDED', object: this.decorate(e.kv) };
    if (before) return { type: 'DELETED', object: this.decorate(e.kv) };
    return undefined;
  }
}

function withoutResourceVersion<T extends KubeObject>(obj: T): T {
  if (obj.metadata.resourceVersion === undefined) return obj;
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function sameObject(a: KubeObject, b: KubeObject): boolean {
  return jsonEqual(a, b);
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

const METADATA_AND_STATUS = ['metadata', 'status'];

function specChanged(a: KubeObject, b: KubeObject): boolean {
  return !jsonEqual(a, b, METADATA_AND_STATUS);
}

function shouldDeleteDuringUpdate(obj: KubeObject): boolean {
  const m = obj.metadata;
  return m.deletionTimestamp !== undefined && (m.finalizers ?? []).length === 0 && m.deletionGracePeriodSeconds === 0;
}

function withPropagationFinalizers(
  finalizers: readonly string[],
  options: DeleteOptions,
  defaultPolicy?: 'orphan',
): string[] {
  const out = [...finalizers];
  let policy =
    options.propagationPolicy ??
    (options.orphanDependents === true ? 'Orphan' : options.orphanDependents === false ? 'Background' : undefined);
  // Upstream shouldOrphanDependents: an explicit option wins, then a finalizer already set, then the type's default.
  if (!policy && defaultPolicy === 'orphan' && !out.includes('foregroundDeletion')) policy = 'Orphan';
  const add = (f: string) => {
    if (!out.includes(f)) out.push(f);
  };
  const drop = (f: string) => {
    const i = out.indexOf(f);
    if (i >= 0) out.splice(i, 1);
  };
  if (policy === 'Orphan') {
    add('orphan');
    drop('foregroundDeletion');
  }
  if (policy === 'Foreground') {
    add('foregroundDeletion');
    drop('orphan');
  }
  if (policy === 'Background') {
    drop('orphan');
    drop('foregroundDeletion');
  }
  return out;
}

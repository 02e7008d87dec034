import { randomUUID } from 'node:crypto';
import { Clock, isoTime } from '../clock';
import { errors } from '../api/errors';
import { clone, KubeList, KubeObject, reuseFrozen } from '../api/meta';
import { walkUpdate } from '../api/update-walk';
import { apiVersionOf, ResourceType } from '../api/registry';
import { Selector } from '../api/labels/selector';
import { FieldSelector } from '../api/fields';
import { DERIVED, KeyValue, Store, StoreError } from '../store';
import { nameErrors } from '../api/validation/field';
import { ApiWatchEvent, DeleteOptions } from '../api/request';
import { randomSuffix } from '../api/names';
import { retryOnRevisionMismatch } from './storage-retry';
import { decodeTyped, pruneUnknownFields } from '../api/resources/schema';
import { decodeObjectMeta, validateObjectMeta } from '../api/validation/objectmeta';
import { CacheFilter, ResourceCache } from './storage-cache';
import { ListReadOptions } from './storage-list';
import { share } from './serialized';
import { withPropagationFinalizers } from './deletion-policy';
import { flatString } from '../util/flat-string';
import { shareSubtrees } from '../api/shared-subtrees';

/** A list's selectors, parsed (the wire form, strings, is api/request's ListOptions), and its read options. */
export interface StorageListOptions extends ListReadOptions {
  labelSelector?: Selector;
  fieldSelector?: FieldSelector;
}

export interface StorageWatchOptions extends StorageListOptions {
  /** Start after this resourceVersion; "" (a consistent read) or "0" (the cache's): current state as ADDED, then changes. */
  resourceVersion?: string;
}

/** Result of a delete: the object as it was removed, or as it now waits (Terminating). */
export interface DeleteResult<T extends KubeObject = KubeObject> {
  object: T;
  /** False when the object stays, marked for deletion (grace period or finalizers). */
  deleted: boolean;
}

/**
 * REST storage for one resource over the versioned store: keys, resourceVersions,
 * optimistic concurrency, defaults and validation, graceful deletion and finalizers.
 * Admission and authorization are the API server's; this layer only keeps objects right.
 */
export class ResourceStorage<T extends KubeObject = KubeObject> {
  private readonly cache: ResourceCache<T>;

  constructor(
    readonly type: ResourceType<T>,
    private readonly store: Store,
    private readonly clock: Clock,
    startRevision = 0,
    watchCacheFromList = true,
  ) {
    this.cache = new ResourceCache(
      store,
      {
        prefix: (ns) => this.prefix(ns),
        decorate: (kv) => this.decorate(kv),
        namespaced: type.namespaced,
      },
      startRevision,
      () => clock.now(),
      watchCacheFromList,
    );
  }

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
   * its decorated object is made once and kept in the KeyValue's DERIVED slot (the backends
   * that keep their KeyValues, as the memory store does, hand the same one to every get,
   * range and watch event). `keep` false: a copy for one caller only, not kept with the version.
   */
  decorate(kv: KeyValue<T>, keep = true): T {
    const cached = kv[DERIVED];
    if (cached !== undefined) return cached as T;
    const metadata = Object.freeze({ ...kv.value.metadata, resourceVersion: String(kv.modRevision) });
    const obj = Object.freeze(share({ ...kv.value, metadata })) as T;
    // Not enumerable: no spread copy of the KeyValue carries it, no comparison of KeyValues sees it.
    // (A KeyValue a backend froze is decorated on each read.)
    if (keep && Object.isExtensible(kv)) Object.defineProperty(kv, DERIVED, { value: obj });
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

  private validate(obj: T, old?: T, registryWrite = false): void {
    const name = obj.metadata.name ?? '';
    const causes = [
      ...(old ? [] : nameErrors('metadata.name', name, this.type.nameRule)),
      ...validateObjectMeta(obj.metadata),
      ...(this.type.validate?.(obj) ?? []),
      ...(old && !registryWrite && this.type.validateUpdate ? this.type.validateUpdate(obj, old) : []),
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
    // Kept as long as the object: one piece (../util/flat-string; isoTime's string is already).
    m.uid = flatString(randomUUID());
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
    const value = shareSubtrees(withoutResourceVersion(obj));
    if (dryRun) {
      if (await this.store.get(this.key(obj.metadata.namespace, obj.metadata.name!)))
        throw errors.alreadyExists(this.target(obj.metadata.name));
      return value;
    }
    try {
      // The creator's copy is not kept with the version: most Events are never read again, and
      // a kept copy was a second top object and metadata for each of them (issue 31). A later
      // reader or watcher decorates the version once, for all.
      return this.decorate(await this.store.create(this.key(obj.metadata.namespace, obj.metadata.name!), value), false);
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

  /** A list (or one page of it) from the watch cache, with upstream's resourceVersion semantics (./storage-list). */
  async list(namespace: string | undefined, options: StorageListOptions = {}): Promise<KubeList<T>> {
    const page = await this.cache.list(namespace, options, this.filter(options));
    const metadata: KubeList<T>['metadata'] = { resourceVersion: String(page.revision) };
    if (page.continue !== undefined) metadata.continue = page.continue;
    if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount;
    return {
      apiVersion: apiVersionOf(this.type),
      kind: this.type.listKind,
      metadata,
      items: page.items.map((kv) => this.decorate(kv)),
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

  /**
   * The field labels of an object. One event reaches every filtered watcher of the resource in
   * turn, each matching the same stored value: the fields of the last frozen object asked for
   * are kept (a frozen object's fields cannot change), so they are made once per event.
   */
  fieldsOf(obj: T): Record<string, string> {
    if (obj === this.lastFields?.obj) return this.lastFields.fields;
    const fields = this.makeFields(obj);
    if (Object.isFrozen(obj)) this.lastFields = { obj, fields: Object.freeze(fields) };
    return fields;
  }

  private lastFields?: { obj: T; fields: Record<string, string> };

  private makeFields(obj: T): Record<string, string> {
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
    options: {
      dryRun?: boolean;
      expectedResourceVersion?: string;
      /**
       * A registry's own write of what its update rules forbid clients to change (BindingREST
       * sets spec.nodeName through the raw storage, without the pod strategy's ValidateUpdate).
       */
      registryWrite?: boolean;
      /**
       * Upstream's updateValidation (validating admission): called on the fully formed object,
       * after the resourceVersion check and the strategy's PrepareForUpdate and validation.
       */
      validateUpdate?: (next: T, current: T) => Promise<void>;
    } = {},
  ): Promise<T> {
    return retryOnRevisionMismatch(async (guard) => {
      const kv = await this.getKV(namespace, name);
      const current = this.decorate(kv);
      // As upstream's Store.Update: the new object first (objInfo.UpdatedObject: the request's
      // object or patch, then mutating admission), and only then the optimistic-concurrency
      // check, so a stale write a mutating plugin refuses (NodeRestriction) is its 403, not 409.
      const next = await mutate(clone(current));
      if (options.expectedResourceVersion && options.expectedResourceVersion !== current.metadata.resourceVersion) {
        throw errors.conflict(
          this.target(name),
          'the object has been modified; please apply your changes to the latest version and try again',
        );
      }
      next.metadata.resourceVersion = current.metadata.resourceVersion;
      this.type.prepareForUpdate?.(next, current);
      this.validate(next, current, options.registryWrite);
      await options.validateUpdate?.(next, current);
      // One walk (../api/update-walk): is it a no-op, did the spec change, and the parts this
      // write left as they were become the stored version's (frozen, shared).
      const walk = walkUpdate(next, current);
      if (walk.same) return current; // no-op writes keep the resourceVersion
      if (this.type.tracksGeneration && !walk.specSame) {
        // The walk may have given next the stored metadata (frozen) when only the spec changed.
        if (Object.isFrozen(next.metadata)) next.metadata = { ...next.metadata };
        next.metadata.generation = (current.metadata.generation ?? 0) + 1;
      }
      const value = shareSubtrees(withoutResourceVersion(next, current, kv.value));
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
            await guard(() =>
              this.store.update(
                kv.key,
                shareSubtrees(reuseFrozen(withoutResourceVersion(marked), current)),
                kv.modRevision,
              ),
            ),
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
          await guard(() =>
            this.store.update(
              kv.key,
              shareSubtrees(reuseFrozen(withoutResourceVersion(next), current)),
              kv.modRevision,
            ),
          ),
        ),
        deleted: false,
      };
    });
  }

  /** Streams changes after a resourceVersion, filtered by the selectors (from the watch cache: ./storage-cache). */
  watch(
    namespace: string | undefined,
    options: StorageWatchOptions,
    onEvent: (e: ApiWatchEvent<T>) => void,
  ): Promise<{ stop(): void }> {
    return this.cache.watch(namespace, options.resourceVersion, this.filter(options), onEvent);
  }

  private filter(options: StorageListOptions): CacheFilter<T> {
    const label = options.labelSelector && !options.labelSelector.empty() ? options.labelSelector : undefined;
    const field = options.fieldSelector && !options.fieldSelector.empty() ? options.fieldSelector : undefined;
    return {
      matches: (obj) => this.matches(obj, options),
      empty: !label && !field,
      fieldSelector: field,
    };
  }
}

/**
 * The object as stored: without its resourceVersion (the store's revision is the version).
 * When the update walk gave `obj` the current version's metadata (nothing in it changed), the
 * stored version's own metadata is that same metadata without the resourceVersion (decorate
 * made the one from the other): kept rather than copied, so an update that changes only the
 * spec (a Lease renewal) stores no metadata of its own.
 */
function withoutResourceVersion<T extends KubeObject>(obj: T, current?: T, stored?: T): T {
  if (obj.metadata.resourceVersion === undefined) return obj;
  if (current && stored && obj.metadata === current.metadata && stored.metadata.resourceVersion === undefined)
    return { ...obj, metadata: stored.metadata };
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function shouldDeleteDuringUpdate(obj: KubeObject): boolean {
  const m = obj.metadata;
  return m.deletionTimestamp !== undefined && (m.finalizers ?? []).length === 0 && m.deletionGracePeriodSeconds === 0;
}

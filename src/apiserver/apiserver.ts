import { Clock } from '../clock';
import { errors } from '../api/errors';
import { KubeList, KubeObject, Status } from '../api/meta';
import { apiVersionOf, ResourceRegistry, ResourceType } from '../api/registry';
import { parseSelector } from '../api/labels/parser';
import { SelectorParseError } from '../api/labels/selector';
import { parseFieldSelector, FieldSelectorParseError } from '../api/fields';
import { applyJsonPatch } from '../api/patch/json';
import { applyMergePatch } from '../api/patch/merge';
import { applyStrategicMergePatch } from '../api/patch/strategic';
import { PatchError } from '../api/patch/document';
import { Store } from '../store';
import { ApiAudit } from './audit';
import { AdmissionChain, AdmissionAttributes, Operation } from './admission';
import {
  ApiWatchEvent,
  DeleteOptions,
  ListOptions,
  PatchType,
  RequestTarget,
  UserInfo,
  WatchOptions,
} from '../api/request';
import { ResourceStorage, StorageListOptions } from './storage';

export interface RequestContext {
  user?: UserInfo;
  dryRun?: boolean;
}

/**
 * Something a resource's REST storage reserves for a new object before it is stored (a
 * service's cluster IP): reserve() may change the object and returns the undo that runs
 * (and is waited for) if the create then fails.
 */
export type Undo = () => void | Promise<void>;
export interface CreateHook {
  readonly resource: string;
  reserve(obj: KubeObject, dryRun: boolean): Undo | Promise<Undo>;
  /**
   * An update's reservations (a Service that now needs a cluster IP or other node ports):
   * `undo` gives back what this attempt took, `commit` (after the write) what the old object
   * held and the new one no longer does.
   */
  reserveUpdate?(obj: KubeObject, old: KubeObject, dryRun: boolean): Promise<{ undo: Undo; commit: Undo }>;
}

/** A subresource with behaviour of its own (binding, eviction, scale, finalize), registered by handleSubresource. */
export interface SubresourceHandler {
  create?(api: ApiServer, target: RequestTarget, body: unknown, ctx: RequestContext): Promise<KubeObject | Status>;
  get?(api: ApiServer, target: RequestTarget, ctx: RequestContext): Promise<KubeObject>;
  update?(api: ApiServer, target: RequestTarget, body: unknown, ctx: RequestContext): Promise<KubeObject>;
}

export interface WatchHandle {
  stop(): void;
}

/**
 * The API server: the only component that touches the store. Resolves the resource,
 * runs admission, validation and the REST storage, and answers with objects or throws
 * a StatusError. Transports (in-process client, HTTP) are thin layers over these calls.
 * Kept in one class: every verb walks the same resolve → admit → validate → store path.
 */
export class ApiServer {
  readonly admission = new AdmissionChain();
  private readonly storages = new Map<ResourceType, ResourceStorage>();
  private readonly subresources = new Map<string, SubresourceHandler>();
  private readonly createHooks: CreateHook[] = [];

  /** Writes handled per user, writes made to storage (COMM-APISERVER-ONLY), reads per caller (API-CACHE). */
  readonly audit = new ApiAudit();
  /** The store, through a handle that counts the API server's writes. */
  readonly store: Store;

  constructor(
    readonly registry: ResourceRegistry,
    store: Store,
    readonly clock: Clock,
    /** The profile's watchCacheFromList (../profile/profile.ts). */
    private readonly watchCacheFromList = true,
  ) {
    this.store = this.audit.audited(store);
    this.startRevision = store.revision();
  }

  /**
   * The store's revision when this API server started: upstream's watch caches begin there
   * (each Cacher lists at start), so a watch from an older version answers 410 (see ResourceCache).
   */
  private readonly startRevision: number;

  resolve(target: Pick<RequestTarget, 'resource' | 'group'>): ResourceType {
    const rt = this.registry.get(target.resource, target.group);
    if (!rt) throw errors.notFound({ kind: 'resources', name: target.resource });
    return rt;
  }

  storage<T extends KubeObject = KubeObject>(
    target: Pick<RequestTarget, 'resource' | 'group'> | ResourceType,
  ): ResourceStorage<T> {
    const rt = 'kind' in target ? target : this.resolve(target);
    let s = this.storages.get(rt);
    if (!s) {
      s = new ResourceStorage(rt, this.store, this.clock, this.startRevision, this.watchCacheFromList);
      this.storages.set(rt, s);
    }
    return s as unknown as ResourceStorage<T>;
  }

  addCreateHook(hook: CreateHook): void {
    this.createHooks.push(hook);
  }

  /** Serves resource/subresource (e.g. "pods/binding") with a handler of its own. */
  handleSubresource(resource: string, subresource: string, handler: SubresourceHandler): void {
    this.subresources.set(`${resource}/${subresource}`, handler);
  }

  private subresourceHandler(rt: ResourceType, sub: string): SubresourceHandler {
    const h = this.subresources.get(`${rt.resource}/${sub}`);
    if (!h) throw errors.notFound({ kind: `${rt.resource}/${sub}`, group: rt.group, name: sub });
    return h;
  }

  private namespaceOf(rt: ResourceType, target: RequestTarget): string | undefined {
    if (!rt.namespaced) return undefined;
    return target.namespace;
  }

  /**
   * A body whose fields have types the resource's code does not expect (a string where a
   * list goes) fails inside defaulting, validation or admission with a TypeError: that is
   * the client's malformed object, answered 400 as upstream's typed decoding would.
   */
  private async decoded<R>(target: RequestTarget, run: () => Promise<R>): Promise<R> {
    try {
      return await run();
    } catch (e) {
      if (e instanceof TypeError || e instanceof RangeError) {
        const rt = this.registry.get(target.resource, target.group);
        const kind = rt?.kind ?? target.resource;
        throw errors.badRequest(
          `${kind} in version "${rt?.version ?? ''}" cannot be handled as a ${kind}: ${e.message}`,
        );
      }
      throw e;
    }
  }

  create(target: RequestTarget, body: unknown, ctx: RequestContext = {}): Promise<KubeObject | Status> {
    return this.decoded(target, () => this.doCreate(target, body, ctx));
  }

  update(target: RequestTarget, body: unknown, ctx: RequestContext = {}): Promise<KubeObject> {
    return this.decoded(target, () => this.doUpdate(target, body, ctx));
  }

  patch(target: RequestTarget, type: PatchType, patch: unknown, ctx: RequestContext = {}): Promise<KubeObject> {
    return this.decoded(target, () => this.doPatch(target, type, patch, ctx));
  }

  private async doCreate(target: RequestTarget, body: unknown, ctx: RequestContext = {}): Promise<KubeObject | Status> {
    this.audit.recordRequest(ctx.user?.username, target.resource, target.subresource);
    const rt = this.resolve(target);
    if (target.subresource) {
      return this.subresourceHandler(rt, target.subresource).create!(
        this,
        { ...target, namespace: this.namespaceOf(rt, target) },
        body,
        ctx,
      );
    }
    const storage = this.storage(rt);
    const namespace = this.namespaceOf(rt, target);
    if (rt.namespaced && !namespace && !(body as KubeObject)?.metadata?.namespace) {
      throw errors.badRequest('the server could not find the requested resource: a namespace is required');
    }
    const obj = storage.normalize(body, namespace);
    storage.prepareCreate(obj);
    const attrs = this.attributes('CREATE', rt, obj, undefined, ctx);
    await this.admission.admit(attrs);
    await this.admission.validate(attrs);
    const undo: Undo[] = [];
    try {
      for (const h of this.createHooks)
        if (h.resource === rt.resource) undo.push(await h.reserve(obj, ctx.dryRun ?? false));
      return await storage.create(obj, ctx.dryRun);
    } catch (e) {
      for (const u of undo) await u();
      throw e;
    }
  }

  async get(target: RequestTarget, ctx: RequestContext = {}): Promise<KubeObject> {
    this.audit.recordRead(ctx.user?.username, 'get');
    const rt = this.resolve(target);
    if (target.subresource && target.subresource !== 'status') {
      return this.subresourceHandler(rt, target.subresource).get!(this, target, ctx);
    }
    return this.storage(rt).get(this.namespaceOf(rt, target), this.nameOf(target));
  }

  async list(target: RequestTarget, query: ListOptions = {}, ctx: RequestContext = {}): Promise<KubeList> {
    this.audit.recordRead(ctx.user?.username, 'list');
    const rt = this.resolve(target);
    return this.storage(rt).list(this.namespaceOf(rt, target), {
      ...this.listOptions(query, rt),
      resourceVersion: query.resourceVersion,
      resourceVersionMatch: query.resourceVersionMatch,
      limit: query.limit,
      continue: query.continue,
    });
  }

  private async doUpdate(target: RequestTarget, body: unknown, ctx: RequestContext = {}): Promise<KubeObject> {
    this.audit.recordRequest(ctx.user?.username, target.resource, target.subresource);
    const rt = this.resolve(target);
    const name = this.nameOf(target);
    if (target.subresource && target.subresource !== 'status') {
      return this.subresourceHandler(rt, target.subresource).update!(this, target, body, ctx);
    }
    const storage = this.storage(rt);
    const namespace = this.namespaceOf(rt, target);
    const incoming = storage.normalize(body, namespace);
    if (incoming.metadata.name !== undefined && incoming.metadata.name !== name) {
      throw errors.badRequest(
        `the name of the object (${incoming.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    incoming.metadata.name = name;
    const phases = this.updatePhases(rt, target, ctx);
    return phases.held.around(
      storage.guaranteedUpdate(namespace, name, (current) => phases.updated(incoming, current), {
        dryRun: ctx.dryRun,
        expectedResourceVersion: incoming.metadata.resourceVersion,
        validateUpdate: phases.validate,
      }),
    );
  }

  /**
   * An update's two admission phases, as upstream's Store.Update calls them on each attempt:
   * `updated` is objInfo.UpdatedObject (the object the request makes of the current one,
   * through mutating admission); the store then checks the resourceVersion and the strategy,
   * and `validate` is updateValidation (validating admission on the formed object, then the
   * attempt's reservations).
   */
  private updatePhases(rt: ResourceType, target: RequestTarget, ctx: RequestContext) {
    const held = this.updateReservations(rt, target, ctx);
    let attempt: AdmissionAttributes | undefined;
    return {
      held,
      updated: async (incoming: KubeObject, current: KubeObject): Promise<KubeObject> => {
        const next = mergeForUpdate(rt, target.subresource, incoming, current);
        attempt = this.attributes('UPDATE', rt, next, current, ctx, target.subresource);
        if (target.subresource) attempt.sent = incoming;
        await this.admission.admit(attempt);
        return next;
      },
      validate: async (next: KubeObject, current: KubeObject): Promise<void> => {
        if (attempt?.object !== next) throw new Error(`update of ${next.metadata.name} validated before it was formed`);
        await this.admission.validate(attempt);
        await held.reserve(next, current);
      },
    };
  }

  /**
   * The create hooks' update reservations around one guaranteedUpdate: an attempt the store
   * retries gives back what the previous attempt took; a failed update gives back all; a
   * successful one releases what the old object held and the new one does not.
   */
  private updateReservations(rt: ResourceType, target: RequestTarget, ctx: RequestContext) {
    const hooks = target.subresource
      ? []
      : this.createHooks.filter((h) => h.resource === rt.resource && h.reserveUpdate);
    let taken: { undo: Undo; commit: Undo }[] = [];
    const giveBack = async () => {
      const was = taken;
      taken = [];
      for (const t of was) await t.undo();
    };
    return {
      reserve: async (next: KubeObject, current: KubeObject) => {
        await giveBack();
        for (const h of hooks) taken.push(await h.reserveUpdate!(next, current, ctx.dryRun ?? false));
      },
      around: async (update: Promise<KubeObject>): Promise<KubeObject> => {
        let done: KubeObject;
        try {
          done = await update;
        } catch (e) {
          await giveBack();
          throw e;
        }
        for (const t of taken) await t.commit();
        return done;
      },
    };
  }

  private async doPatch(
    target: RequestTarget,
    type: PatchType,
    patch: unknown,
    ctx: RequestContext = {},
  ): Promise<KubeObject> {
    this.audit.recordRequest(ctx.user?.username, target.resource, target.subresource);
    const rt = this.resolve(target);
    const name = this.nameOf(target);
    const storage = this.storage(rt);
    const namespace = this.namespaceOf(rt, target);
    if (target.subresource && target.subresource !== 'status') {
      // A subresource that can be read and replaced (scale) is patched as read → patch → replace.
      const handler = this.subresourceHandler(rt, target.subresource);
      if (!handler.get || !handler.update)
        throw errors.methodNotSupported({ kind: `${rt.resource}/${target.subresource}`, group: rt.group }, 'patch');
      const current = await handler.get(this, target, ctx);
      let patched: KubeObject;
      try {
        patched = applyPatch(type, current, patch, current.kind ?? rt.kind);
      } catch (e) {
        if (e instanceof PatchError)
          throw errors.invalid(current.kind ?? rt.kind, name, [
            { reason: 'FieldValueInvalid', message: (e as Error).message },
          ]);
        throw e;
      }
      return handler.update(this, target, patched, ctx);
    }
    // A resourceVersion inside the patch is a precondition, as upstream treats it.
    const pinned = type !== 'json' ? (patch as KubeObject)?.metadata?.resourceVersion : undefined;
    const phases = this.updatePhases(rt, target, ctx);
    return phases.held.around(
      storage.guaranteedUpdate(
        namespace,
        name,
        async (current) => {
          let patched: KubeObject;
          try {
            patched = applyPatch(type, current, patch, rt.kind);
          } catch (e) {
            if (e instanceof PatchError)
              throw errors.invalid(
                rt.kind,
                name,
                [{ reason: 'FieldValueInvalid', message: (e as Error).message }],
                rt.group || undefined,
              );
            throw e;
          }
          const incoming = storage.normalize(patched, namespace);
          if (incoming.metadata.name !== name)
            throw errors.badRequest(
              `the name of the object (${incoming.metadata.name}) does not match the name on the URL (${name})`,
            );
          return phases.updated(incoming, current);
        },
        { dryRun: ctx.dryRun, expectedResourceVersion: pinned, validateUpdate: phases.validate },
      ),
    );
  }

  async delete(
    target: RequestTarget,
    options: DeleteOptions = {},
    ctx: RequestContext = {},
  ): Promise<{ object: KubeObject; deleted: boolean }> {
    this.audit.recordRequest(ctx.user?.username, target.resource, target.subresource);
    deleteDryRun(options); // a bad dryRun is refused before anything is looked up
    const rt = this.resolve(target);
    const name = this.nameOf(target);
    const storage = this.storage(rt);
    const namespace = this.namespaceOf(rt, target);
    const current = await storage.get(namespace, name);
    const attrs = this.attributes('DELETE', rt, undefined, current, ctx);
    attrs.name = name;
    attrs.namespace = namespace;
    await this.admission.admit(attrs);
    await this.admission.validate(attrs);
    return storage.delete(namespace, name, options, ctx.dryRun || deleteDryRun(options));
  }

  async deleteCollection(
    target: RequestTarget,
    query: ListOptions = {},
    options: DeleteOptions = {},
    ctx: RequestContext = {},
  ): Promise<KubeList> {
    const list = await this.list(target, query);
    const gone: KubeObject[] = [];
    for (const item of list.items) {
      try {
        const r = await this.delete(
          { ...target, namespace: item.metadata.namespace, name: item.metadata.name },
          options,
          ctx,
        );
        gone.push(r.object);
      } catch (e) {
        if (!(e instanceof Error && 'status' in e && (e as { status: Status }).status.code === 404)) throw e;
      }
    }
    return { ...list, items: gone };
  }

  async watch(
    target: RequestTarget,
    query: WatchOptions,
    onEvent: (e: ApiWatchEvent) => void,
    ctx: RequestContext = {},
  ): Promise<WatchHandle> {
    this.audit.recordRead(ctx.user?.username, 'watch');
    const rt = this.resolve(target);
    return this.storage(rt).watch(
      this.namespaceOf(rt, target),
      { ...this.listOptions(query, rt), resourceVersion: query.resourceVersion },
      onEvent,
    );
  }

  private nameOf(target: RequestTarget): string {
    if (!target.name) throw errors.badRequest('resource name may not be empty');
    return target.name;
  }

  /** Parsed selectors; a field selector may name only the fields the resource supports (400 otherwise, as upstream's field label conversion). */
  listOptions(query: ListOptions, rt?: ResourceType): StorageListOptions {
    try {
      const options = {
        labelSelector: query.labelSelector ? parseSelector(query.labelSelector) : undefined,
        fieldSelector: query.fieldSelector ? parseFieldSelector(query.fieldSelector) : undefined,
      };
      if (rt && options.fieldSelector) {
        const supported = this.storage(rt).supportedFields();
        for (const r of options.fieldSelector.requirements()) {
          if (!supported.has(r.field))
            throw errors.badRequest(
              `Unable to find "${apiVersionOf(rt)}, Resource=${rt.resource}" that match label selector "", field selector "${query.fieldSelector}": field label not supported: ${r.field}`,
            );
        }
      }
      return options;
    } catch (e) {
      if (e instanceof SelectorParseError || e instanceof FieldSelectorParseError) {
        throw errors.badRequest(`unable to parse requirement: ${e.message}`);
      }
      throw e;
    }
  }

  private attributes(
    op: Operation,
    rt: ResourceType,
    obj: KubeObject | undefined,
    old: KubeObject | undefined,
    ctx: RequestContext,
    subresource?: string,
  ): AdmissionAttributes {
    const ref = obj ?? old;
    return {
      operation: op,
      resource: rt,
      subresource,
      namespace: ref?.metadata.namespace,
      name: ref?.metadata.name,
      object: obj,
      oldObject: old,
      user: ctx.user,
      dryRun: ctx.dryRun ?? false,
    };
  }
}

/**
 * What an update may change: the main endpoint keeps the stored status, the status
 * subresource keeps everything but status (upstream's PrepareForUpdate + ResetObjectMetaForStatus).
 */
function mergeForUpdate(
  rt: ResourceType,
  subresource: string | undefined,
  incoming: KubeObject,
  current: KubeObject,
): KubeObject {
  // current is already a private copy (guaranteedUpdate hands one to its mutator).
  const cur = current as KubeObject & { status?: unknown };
  const inc = incoming as KubeObject & { status?: unknown };
  const serverMeta = {
    uid: cur.metadata.uid,
    creationTimestamp: cur.metadata.creationTimestamp,
    deletionTimestamp: cur.metadata.deletionTimestamp,
    deletionGracePeriodSeconds: cur.metadata.deletionGracePeriodSeconds,
    generation: cur.metadata.generation,
    namespace: cur.metadata.namespace,
  };
  if (subresource === 'status') {
    const next = { ...cur, status: inc.status };
    next.metadata.resourceVersion = inc.metadata.resourceVersion;
    return next;
  }
  const next = { ...inc, metadata: { ...inc.metadata, ...dropUndefined(serverMeta) } } as KubeObject & {
    status?: unknown;
  };
  // Only DELETE marks an object for deletion: a client's deletionTimestamp or grace period
  // is ignored on update and patch (upstream's ResetObjectMetaForUpdate / BeforeUpdate).
  if (cur.metadata.deletionTimestamp === undefined) delete next.metadata.deletionTimestamp;
  if (cur.metadata.deletionGracePeriodSeconds === undefined) delete next.metadata.deletionGracePeriodSeconds;
  if (rt.hasStatus) {
    if (cur.status === undefined) delete next.status;
    else next.status = cur.status;
  }
  return next;
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  // A loop, not entries/filter/fromEntries: this runs on every update (three arrays a call).
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    const v = (o as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out as Partial<T>;
}

function applyPatch(type: PatchType, current: KubeObject, patch: unknown, kind: string): KubeObject {
  switch (type) {
    case 'merge':
      return applyMergePatch(current as never, patch as never) as unknown as KubeObject;
    case 'json':
      return applyJsonPatch(current as never, patch as never) as unknown as KubeObject;
    case 'strategic':
      return applyStrategicMergePatch(current as never, patch as never, kind) as unknown as KubeObject;
  }
}

/**
 * DeleteOptions.dryRun, wherever the DeleteOptions came from (a DELETE's body, a
 * deletecollection's, an Eviction's deleteOptions): ["All"] deletes nothing, as the
 * ?dryRun=All query does; any other value is refused (ValidateDeleteOptions → ValidateDryRun,
 * apimachinery's meta/v1 validation: only "All" is supported).
 */
export function deleteDryRun(options: DeleteOptions): boolean {
  const dryRun = (options as { dryRun?: unknown }).dryRun;
  if (dryRun === undefined || dryRun === null) return false;
  if (!Array.isArray(dryRun) || dryRun.some((v) => v !== 'All'))
    throw errors.invalid(
      'DeleteOptions',
      '',
      [{ field: 'dryRun', message: `Unsupported value: ${JSON.stringify(dryRun)}: supported values: "All"` }],
      'meta.k8s.io',
    );
  return dryRun.length > 0;
}

import { KubeObject } from './meta';
import { FieldErrors } from './validation/field';
import { NameRule } from './validation/names';

/** What the API server needs to know about one resource: naming, scope, rules. */
export interface ResourceType<T extends KubeObject = KubeObject> {
  group: string;
  version: string;
  /** Plural, lower case, as in URLs: "nodes". */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Key prefix under /registry, as upstream lays it out (nodes are "minions"). */
  storagePrefix: string;
  /** Subresources served besides the object itself, e.g. "status", "binding". */
  subresources: string[];
  /** True when the object has a status the main endpoint must not change. */
  hasStatus: boolean;
  /** Increment metadata.generation when spec changes. */
  tracksGeneration: boolean;
  nameRule: NameRule;
  /** Fills defaults in place on a private copy. */
  defaults?(obj: T): void;
  /** Resets what a client may not set on create (e.g. a pod's status). */
  prepareForCreate?(obj: T): void;
  /** Resets on update what only the server may change (e.g. a DaemonSet's template generation), from the stored object. */
  prepareForUpdate?(obj: T, old: T): void;
  validate?(obj: T): FieldErrors;
  validateUpdate?(obj: T, old: T): FieldErrors;
  /** Field values for field selectors (metadata.name and metadata.namespace are added). */
  fields?(obj: T): Record<string, string>;
  /** Whether DELETE is graceful (pods): returns the grace seconds to apply, 0 = now. */
  gracePeriod?(obj: T, requested: number | undefined): number;
  /**
   * What a DELETE without a propagation policy does to dependents (upstream's
   * DefaultGarbageCollectionPolicy): core/v1 ReplicationControllers and batch/v1 Jobs orphan
   * them for backward compatibility; unset means background deletion.
   */
  defaultGarbageCollectionPolicy?: 'orphan';
  /**
   * A deletion the object's own spec holds (a namespace's spec.finalizers): the first DELETE
   * marks the object (markDeleting); later ones, while held(obj), are refused with `refusal`
   * (409, v1.12's namespace REST.Delete) or, without one, answered with the object as it is
   * (200, v1.32's).
   */
  deletionHold?: { held(obj: T): boolean; markDeleting(obj: T): void; refusal?: string };
}

export function apiVersionOf(rt: Pick<ResourceType, 'group' | 'version'>): string {
  return rt.group ? `${rt.group}/${rt.version}` : rt.version;
}

export type ResourceDefinition<T extends KubeObject> = Omit<
  ResourceType<T>,
  'listKind' | 'storagePrefix' | 'subresources' | 'hasStatus' | 'tracksGeneration' | 'nameRule' | 'singular'
> &
  Partial<
    Pick<
      ResourceType<T>,
      'listKind' | 'storagePrefix' | 'subresources' | 'hasStatus' | 'tracksGeneration' | 'nameRule' | 'singular'
    >
  >;

export function defineResource<T extends KubeObject>(def: ResourceDefinition<T>): ResourceType<T> {
  return {
    listKind: `${def.kind}List`,
    storagePrefix: def.resource,
    subresources: [],
    hasStatus: false,
    tracksGeneration: false,
    nameRule: 'subdomain',
    singular: def.kind.toLowerCase(),
    ...def,
  };
}

/**
 * A resource also served at an older group/version (v1.12's apps/v1beta1, apps/v1beta2,
 * extensions/v1beta1): the same objects as the storage version's, with that version's
 * apiVersion on the wire and that version's defaults applied first on writes.
 */
export interface ServedVersion {
  group: string;
  version: string;
  storage: ResourceType;
  /** The version's own defaults (SetDefaults_* of that version), before the storage version's. */
  defaults?(obj: KubeObject): void;
}

/** All resources the API server serves, looked up by plural name, kind or short name. */
export class ResourceRegistry {
  private readonly byKey = new Map<string, ResourceType>();
  private readonly list: ResourceType[] = [];
  private readonly served = new Map<string, ServedVersion>();

  /** Serves a registered resource at another group/version too. */
  serveAlso(group: string, version: string, resource: string, defaults?: (obj: KubeObject) => void): this {
    const storage = this.all().find(
      (r) => r.resource === resource && (r.group === group || (group === 'extensions' && r.group === 'apps')),
    );
    if (!storage) throw new Error(`cannot serve ${resource} at ${group}/${version}: no such resource`);
    this.served.set(`${group}/${version}/${resource}`, { group, version, storage, defaults });
    return this;
  }

  /** The resource served at group/version under this name: a storage version's, or an older version's alias. */
  servedAt(
    group: string,
    version: string,
    resource: string,
  ): { type: ResourceType; alias?: ServedVersion } | undefined {
    const rt = this.get(resource, group);
    if (rt && rt.version === version) return { type: rt };
    const alias = this.served.get(`${group}/${version}/${resource}`);
    return alias ? { type: alias.storage, alias } : undefined;
  }

  /** Every older version a resource is also served at. */
  aliases(): readonly ServedVersion[] {
    return [...this.served.values()];
  }

  register<T extends KubeObject>(rt: ResourceType<T>): this {
    const key = `${rt.resource}.${rt.group}`;
    if (this.byKey.has(key)) throw new Error(`resource ${key} registered twice`);
    this.byKey.set(key, rt as unknown as ResourceType);
    this.list.push(rt as unknown as ResourceType);
    return this;
  }

  all(): readonly ResourceType[] {
    return this.list;
  }

  /** By plural name, optionally group-qualified ("leases.coordination.k8s.io"). */
  get(resource: string, group?: string): ResourceType | undefined {
    if (group !== undefined) return this.byKey.get(`${resource}.${group}`);
    const exact = this.byKey.get(`${resource}.`);
    if (exact) return exact;
    const dot = resource.indexOf('.');
    if (dot > 0) return this.byKey.get(resource);
    return this.list.find((r) => r.resource === resource);
  }

  /** Like get(), but also by kind, singular and short name (what kubectl users type). */
  find(name: string): ResourceType | undefined {
    const lower = name.toLowerCase();
    return (
      this.get(lower) ??
      this.list.find((r) => r.singular === lower || r.kind.toLowerCase() === lower || r.shortNames?.includes(lower))
    );
  }

  byKind(kind: string, group?: string): ResourceType | undefined {
    return this.list.find((r) => r.kind === kind && (group === undefined || r.group === group));
  }
}

import { randomBytes } from 'node:crypto';
import { Event } from '../api/core';
import { StatusError } from '../api/errors';
import { KubeList, KubeObject } from '../api/meta';
import { coreRegistry } from '../api/resources';
import { Client, ResourceRef, WatchHandlers } from '../client/client';
import { WatchOptions } from '../api/request';
import { Flags } from '../profile/profile';
import { Capabilities, ClusterDriver, KubeletSpec } from './driver';

/**
 * Scenarios on a long-lived, shared cluster. Every name a scenario states ("n1", "z1",
 * "default", "team-a") becomes a name of its own on the cluster ("n1-k3x9q2"), so runs and
 * parallel scenarios never collide, while steps and reports keep the feature's names: this
 * wrapper is the one place names are mapped, out (requests) and back (answers, errors).
 *
 * Out: the names of cluster-scoped objects, namespaces (except the system ones), node
 * leases, and the fields that name a node, zone or namespace (nodeName, topology and
 * hostname label values, selectors on them). Back: the scenario's suffix is removed from
 * every string. Lists and watches show only the scenario's own nodes and namespaces, so
 * objects of other runs never change a verdict. Everything the scenario makes carries the
 * run labels; stop() deletes it, and objects a killed run left behind expire (LABEL_EXPIRES)
 * and are swept by the next run or by `kubespec clean`.
 * Kept in one file: the mapping out and the mapping back must stay each other's inverse.
 */

export const LABEL_RUN = 'kubespec.io/run';
export const LABEL_SCENARIO = 'kubespec.io/scenario';
/** Wall-clock time (unix seconds) after which a later run may remove the object. */
export const LABEL_EXPIRES = 'kubespec.io/expires';

const SYSTEM_NAMESPACES = new Set(['kube-system', 'kube-public', 'kube-node-lease']);
/** Label keys whose values name a node, zone or region (scoped like names). */
const SCOPED_LABEL_KEYS = new Set([
  'kubernetes.io/hostname',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
]);
/** Field selectors whose values name something scoped. */
const SCOPED_FIELDS = new Set([
  'spec.nodeName',
  'metadata.namespace',
  'involvedObject.name',
  'involvedObject.namespace',
]);

const registry = coreRegistry();
const RUN_ID = randomBytes(4).toString('hex');

function clusterScoped(resource: string): boolean {
  const rt = registry.get(resource);
  return rt ? !rt.namespaced : false;
}

/** One scenario's names on the cluster. */
export class Names {
  readonly suffix: string;

  constructor(readonly token: string = randomToken()) {
    this.suffix = `-${token}`;
  }

  name(n: string): string {
    return n.endsWith(this.suffix) ? n : `${n}${this.suffix}`;
  }

  namespace(ns: string | undefined): string | undefined {
    return ns === undefined || ns === '' || SYSTEM_NAMESPACES.has(ns) ? ns : this.name(ns);
  }

  /** The name an object of this resource has on the cluster. */
  objectName(ref: ResourceRef, n: string): string {
    if (ref.resource === 'namespaces') return this.namespace(n)!;
    if (clusterScoped(ref.resource)) return this.name(n);
    if (ref.resource.startsWith('leases') && ref.namespace === 'kube-node-lease') return this.name(n);
    return n;
  }

  ref(ref: ResourceRef): ResourceRef {
    return ref.namespace === undefined ? ref : { ...ref, namespace: this.namespace(ref.namespace) };
  }

  labels(labels: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(labels)) out[k] = SCOPED_LABEL_KEYS.has(k) && v !== '' ? this.name(v) : v;
    return out;
  }

  /** Requests: the fields of any object, patch or pod template that name a node, zone or namespace. */
  fields<T>(value: T): T {
    const walk = (v: unknown, key?: string): unknown => {
      if (Array.isArray(v)) {
        if (key === 'namespaces') return v.map((x) => (typeof x === 'string' ? this.namespace(x) : walk(x)));
        return v.map((x) => walk(x));
      }
      if (!v || typeof v !== 'object') return v;
      const o = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(o)) {
        if (k === 'nodeName' && typeof x === 'string' && x) out[k] = this.name(x);
        else if (k === 'namespace' && typeof x === 'string') out[k] = this.namespace(x);
        else if (
          (k === 'labels' || k === 'nodeSelector' || k === 'matchLabels') &&
          x &&
          typeof x === 'object' &&
          !Array.isArray(x)
        )
          out[k] = this.labels(x as Record<string, string>);
        else out[k] = walk(x, k);
      }
      // A selector requirement on a scoped label or on the node's name.
      if (
        typeof o.key === 'string' &&
        Array.isArray(o.values) &&
        (SCOPED_LABEL_KEYS.has(o.key) || o.key === 'metadata.name')
      ) {
        out.values = (o.values as unknown[]).map((x) => (typeof x === 'string' ? this.name(x) : x));
      }
      // An owner or involved object that is a node.
      if (o.kind === 'Node' && typeof o.name === 'string' && ('uid' in o || 'apiVersion' in o) && !('metadata' in o))
        out.name = this.name(o.name);
      return out;
    };
    return walk(value) as T;
  }

  /** A JSON patch: values at paths that name something scoped. */
  jsonPatch(ops: { op: string; path: string; value?: unknown }[]): unknown {
    return ops.map((op) => {
      if (typeof op.value === 'string') {
        const last = op.path.split('/').pop()!.replace(/~1/g, '/').replace(/~0/g, '~');
        if (last === 'nodeName' || SCOPED_LABEL_KEYS.has(last)) return { ...op, value: this.name(op.value) };
        if (last === 'namespace') return { ...op, value: this.namespace(op.value) };
        return op;
      }
      return { ...op, value: this.fields(op.value) };
    });
  }

  fieldSelector(s: string | undefined): string | undefined {
    if (!s) return s;
    return s
      .split(',')
      .map((term) => {
        const m = /^([^!=]+)(!=|==|=)(.*)$/.exec(term.trim());
        if (!m || !SCOPED_FIELDS.has(m[1])) return term;
        return `${m[1]}${m[2]}${m[1].endsWith('namespace') ? this.namespace(m[3]) : this.name(m[3])}`;
      })
      .join(',');
  }

  labelSelector(s: string | undefined): string | undefined {
    if (!s) return s;
    let out = s.replace(
      /([A-Za-z0-9./-]+)\s*(!=|==|=)\s*([A-Za-z0-9._-]+)/g,
      (all, k: string, op: string, v: string) => (SCOPED_LABEL_KEYS.has(k) ? `${k}${op}${this.name(v)}` : all),
    );
    out = out.replace(/([A-Za-z0-9./-]+)\s+(in|notin)\s+\(([^)]*)\)/g, (all, k: string, op: string, vs: string) =>
      SCOPED_LABEL_KEYS.has(k)
        ? `${k} ${op} (${vs
            .split(',')
            .map((v) => this.name(v.trim()))
            .join(',')})`
        : all,
    );
    return out;
  }

  /** Answers: the scenario's suffix removed from every string. */
  back<T>(value: T): T {
    const strip = (s: string) => (s.includes(this.suffix) ? s.split(this.suffix).join('') : s);
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return strip(v);
      if (Array.isArray(v)) return v.map(walk);
      if (!v || typeof v !== 'object') return v;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[strip(k)] = walk(x);
      return out;
    };
    return walk(value) as T;
  }

  error(e: unknown): unknown {
    if (e instanceof StatusError) return new StatusError(this.back(e.status));
    if (e instanceof Error && e.message.includes(this.suffix)) {
      const copy = new Error(this.back(e.message));
      copy.stack = e.stack;
      return Object.assign(copy, { cause: e });
    }
    return e;
  }

  /** Whether an object of a list or watch belongs to this scenario (or to the system). */
  owns(ref: ResourceRef, obj: KubeObject): boolean {
    const has = (s: string | undefined) => !!s && s.includes(this.suffix);
    if (ref.resource === 'namespaces') return SYSTEM_NAMESPACES.has(obj.metadata.name!) || has(obj.metadata.name);
    if (ref.resource === 'nodes') return has(obj.metadata.name);
    if (clusterScoped(ref.resource)) return true;
    if (ref.namespace !== undefined) return true;
    const ns = obj.metadata.namespace;
    if (has(ns) || has(obj.metadata.name)) return true;
    const involved = (obj as unknown as Event).involvedObject;
    if (involved && (has(involved.name) || has(involved.namespace))) return true;
    // Objects in system namespaces that are not about another scenario's node or namespace.
    return !!ns && SYSTEM_NAMESPACES.has(ns) && !/-[a-z0-9]{8}$/.test(obj.metadata.name ?? '');
  }
}

function randomToken(): string {
  // 8 characters [a-z0-9], starting with a letter: valid in every DNS label.
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(8);
  let s = alphabet[bytes[0] % 26];
  for (let i = 1; i < 8; i++) s += alphabet[bytes[i] % alphabet.length];
  return s;
}

/** The labels every object a scenario creates carries. */
export function runLabels(names: Names, ttlMs: number): Record<string, string> {
  return {
    [LABEL_RUN]: RUN_ID,
    [LABEL_SCENARIO]: names.token,
    [LABEL_EXPIRES]: String(Math.ceil((Date.now() + ttlMs) / 1000)),
  };
}

/** A Client that maps names out and back and shows only the scenario's own objects. */
export function scopedClient(inner: () => Client, names: Names, labels: () => Record<string, string>): Client {
  const call = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return names.back(await f());
    } catch (e) {
      throw names.error(e);
    }
  };
  const body = <T extends KubeObject>(ref: ResourceRef, obj: T, label: boolean): T => {
    const o = names.fields(obj);
    const meta = { ...o.metadata };
    if (meta.name)
      meta.name = names.objectName({ ...ref, namespace: ref.namespace ?? obj.metadata?.namespace }, meta.name);
    if (label && (clusterScoped(ref.resource) || ref.resource === 'namespaces'))
      meta.labels = { ...meta.labels, ...labels() };
    return { ...o, metadata: meta };
  };
  return {
    create: (ref, obj, o) => call(() => inner().create(names.ref(ref), body(ref, obj, true), o)),
    get: (ref, name, o) => call(() => inner().get(names.ref(ref), names.objectName(ref, name), o)),
    list: <T extends KubeObject>(ref: ResourceRef, o: { labelSelector?: string; fieldSelector?: string } = {}) =>
      call(async () => {
        const list = await inner().list<T>(names.ref(ref), {
          labelSelector: names.labelSelector(o.labelSelector),
          fieldSelector: names.fieldSelector(o.fieldSelector),
        });
        return { ...list, items: list.items.filter((x) => names.owns(ref, x)) } as KubeList<T>;
      }),
    update: (ref, obj, o) => call(() => inner().update(names.ref(ref), body(ref, obj, false), o)),
    patch: (ref, name, type, patch, o) =>
      call(() =>
        inner().patch(
          names.ref(ref),
          names.objectName(ref, name),
          type,
          type === 'json' && Array.isArray(patch) ? names.jsonPatch(patch) : names.fields(patch),
          o,
        ),
      ),
    delete: (ref, name, o) => call(() => inner().delete(names.ref(ref), names.objectName(ref, name), o)),
    createSubresource: (ref, name, sub, b) =>
      call(() => inner().createSubresource(names.ref(ref), names.objectName(ref, name), sub, names.fields(b))),
    watch: <T extends KubeObject>(ref: ResourceRef, o: WatchOptions, h: WatchHandlers<T>) =>
      call(() =>
        inner().watch<T>(
          names.ref(ref),
          {
            ...o,
            labelSelector: names.labelSelector(o.labelSelector),
            fieldSelector: names.fieldSelector(o.fieldSelector),
          },
          {
            onEvent: (ev) => {
              if (names.owns(ref, ev.object)) h.onEvent(names.back(ev));
            },
            onClose: (err) => h.onClose?.(err ? (names.error(err) as Error) : undefined),
          },
        ),
      ),
  };
}

/** What a shared target's driver offers beyond ClusterDriver: removing everything it made. */
export interface SharedClusterHooks {
  /** stop() also deletes what carries these labels (and the hollow kubelets behind such nodes). */
  removeAlsoLabelled(selector: string): void;
  /** Removes what runs that were killed left behind (their labels expired). */
  sweepExpired(): Promise<void>;
}

/**
 * A driver for one scenario on a shared cluster: the inner driver (the kube target) with
 * every name mapped through Names, in a namespace of its own ("default" is the scenario's),
 * and the capability dedicatedCluster off, so scenarios whose verdict depends on the whole
 * cluster are not applicable here.
 */
export class ScopedDriver implements ClusterDriver {
  readonly names = new Names();
  readonly client: Client;
  private swept = false;

  constructor(
    private readonly inner: ClusterDriver & SharedClusterHooks,
    private readonly ttlMs: number,
  ) {
    this.client = scopedClient(
      () => inner.client,
      this.names,
      () => this.labels(),
    );
    inner.removeAlsoLabelled(`${LABEL_SCENARIO}=${this.names.token}`);
  }

  private labels(): Record<string, string> {
    return runLabels(this.names, this.ttlMs);
  }

  get target(): string {
    return this.inner.target;
  }
  get profile() {
    return this.inner.profile;
  }
  get capabilities(): Capabilities {
    return { ...this.inner.capabilities, dedicatedCluster: false };
  }
  get http() {
    return this.inner.http;
  }

  configure(flags: Flags): void {
    this.inner.configure(flags);
  }

  private async mapped<T>(f: () => Promise<T>): Promise<T> {
    try {
      return this.names.back(await f());
    } catch (e) {
      throw this.names.error(e);
    }
  }

  async start(): Promise<void> {
    await this.inner.start();
    if (!ScopedDriver.sweptInProcess && !this.swept) {
      this.swept = true;
      ScopedDriver.sweptInProcess = true;
      await this.inner.sweepExpired();
    }
    // The scenario's "default" namespace, with its default service account before any pod.
    const ns = 'default';
    try {
      await this.client.create(
        { resource: 'namespaces' },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
      );
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 409)) throw e;
    }
    await this.inner.waitFor(
      "the scenario namespace's default service account",
      async () => {
        try {
          await this.client.get({ resource: 'serviceaccounts', namespace: ns }, 'default');
          return true;
        } catch (e) {
          if (e instanceof StatusError && e.code === 404) return false;
          throw e;
        }
      },
      60_000,
    );
  }

  private static sweptInProcess = false;

  async stop(): Promise<void> {
    await this.inner.stop();
  }

  now(): number {
    return this.inner.now();
  }
  advance(ms: number): Promise<void> {
    return this.inner.advance(ms);
  }
  timeMoves(): number {
    return this.inner.timeMoves();
  }
  waitFor(description: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    return this.mapped(() => this.inner.waitFor(description, check, timeoutMs));
  }

  addKubelet(spec: KubeletSpec): Promise<void> {
    const labels = { ...this.names.labels(spec.labels ?? {}), ...this.labels() };
    return this.mapped(() =>
      this.inner.addKubelet({
        ...spec,
        name: this.names.name(spec.name),
        labels,
        ...(spec.hostnameOverride ? { hostnameOverride: this.names.name(spec.hostnameOverride) } : {}),
      }),
    );
  }

  stopKubelet(name: string): Promise<number> {
    return this.mapped(() => this.inner.stopKubelet(this.names.name(name)));
  }
  startKubelet(name: string): Promise<void> {
    return this.mapped(() => this.inner.startKubelet(this.names.name(name)));
  }
  deleteMachine(name: string): Promise<void> {
    return this.mapped(() => this.inner.deleteMachine(this.names.name(name)));
  }

  events(filter: { involvedName?: string; reason?: string; namespace?: string } = {}): Promise<Event[]> {
    // Node events live in the cluster's own "default"; the scenario's are found by name.
    return this.mapped(async () => {
      const all = await this.inner.events({ reason: filter.reason });
      return all.filter((e) => {
        const involved = e.involvedObject.name ?? '';
        const mine = involved.endsWith(this.names.suffix) || (e.metadata.namespace ?? '').endsWith(this.names.suffix);
        if (!mine) return false;
        if (
          filter.involvedName &&
          involved !== this.names.name(filter.involvedName) &&
          involved !== filter.involvedName
        )
          return false;
        if (
          filter.namespace &&
          e.metadata.namespace !== this.names.namespace(filter.namespace) &&
          !(filter.namespace === 'default' && e.involvedObject.kind === 'Node')
        )
          return false;
        return true;
      });
    });
  }

  async schedulerDecisions(pod: string) {
    if (!this.inner.schedulerDecisions) return [];
    const [ns, name] = pod.split('/');
    return this.mapped(() => this.inner.schedulerDecisions!(`${this.names.namespace(ns)}/${name}`));
  }

  route(node: string, clusterIP: string, port: number) {
    return this.mapped(() => this.inner.route(this.names.name(node), clusterIP, port));
  }

  async loadBalancers() {
    const all = await this.inner.loadBalancers();
    return this.names.back(
      all.filter((lb) => lb.service.includes(this.names.suffix) || lb.nodes.some((n) => n.endsWith(this.names.suffix))),
    );
  }

  authenticate(token: string) {
    return this.mapped(() => this.inner.authenticate(token));
  }

  get apiAudit() {
    const inner = this.inner.apiAudit;
    return inner ? () => this.mapped(() => inner.call(this.inner)) : undefined;
  }

  get compactStorage() {
    const inner = this.inner.compactStorage;
    return inner ? () => inner.call(this.inner) : undefined;
  }
}

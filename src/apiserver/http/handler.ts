import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from '../../api/errors';
import { KubeObject, Status } from '../../api/meta';
import { apiVersionOf, ResourceType, ServedVersion } from '../../api/registry';
import { Clock, Quiescence } from '../../clock';
import { ApiServer, RequestContext } from '../apiserver';
import { RequestTarget, UserInfo, AuthorizationAttributes } from '../../api/request';
import { RequestAuthenticator } from '../auth/authenticator';
import { alwaysAllow, Authorizer, forbiddenMessage } from '../auth/authorizer';
import { asksImpersonation, impersonate } from '../auth/impersonation';
import { parseFieldSelector } from '../../api/fields';
import { requestInfo, RequestInfo } from './request-info';
import { methodNotAllowed, pageNotFound, writeError, writeJSON } from './respond';
import { InflightLimit } from './inflight';
import { serveNonResource } from './non-resource';
import { IncludeObject, toTable, wantsTable } from './table';
import { serverSideApply } from './apply';
import { KubeletClient } from './kubelet-client';
import {
  decodeBody,
  deleteOptions,
  fieldValidation,
  hasBody,
  intParam,
  mediaType,
  parseBody,
  PATCH_TYPES,
  readLimited,
  resourceVersionParam,
} from './decode';
import { serveWatch } from './watch';
import { podLog, proxyToKubelet } from './kubelet-subresources';
import { ApiStreaming, writeUpgradeError } from './streaming';
import type { Duplex } from 'node:stream';

/**
 * The Kubernetes REST API over HTTP, a thin layer over ApiServer: authentication,
 * authorization, URL routing, discovery, OpenAPI, content negotiation (JSON answers to
 * every Accept; Tables for kubectl get), watch streams, patches, and the subresources that
 * reach kubelets (log, proxy). Upstream: k8s.io/apiserver/pkg/endpoints.
 */

/** A request that is not a Kubernetes resource (kubespec's own endpoints). */
export interface NonResourceRoute {
  /** Path prefix, e.g. "/kubespec/v1/". */
  prefix: string;
  /** Not counted as work in flight (endpoints that themselves wait for the cluster to settle). */
  untracked?: boolean;
  /** `user` is who the request runs as: authenticated, and impersonated when it asked to be. */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    body: () => Promise<Buffer>,
    user: UserInfo,
  ): Promise<void>;
}

export interface HttpHandlerOptions {
  api: ApiServer;
  clock: Clock;
  quiescence: Quiescence;
  gitVersion: string;
  /** Undefined: no authentication or authorization (the insecure port), as upstream's system:unsecured. */
  authenticator?: RequestAuthenticator;
  authorizer?: Authorizer;
  kubelets?: KubeletClient;
  routes?: NonResourceRoute[];
  /** "host:port" clients dial, for /api's serverAddressByClientCIDRs. */
  serverAddress?: () => string;
  /** --max-requests-inflight (default 400; 0 = no limit): reads answered at once. */
  maxRequestsInflight?: number;
  /** --max-mutating-requests-inflight (default 200; 0 = no limit): writes answered at once. */
  maxMutatingRequestsInflight?: number;
  /** Real time a request body may take to arrive (default 60 s, kube-apiserver's request timeout): 504 past it. */
  bodyDeadlineMs?: number;
}

const UNSECURED: UserInfo = { username: 'system:unsecured', groups: ['system:masters', 'system:authenticated'] };

export class ApiHttpHandler {
  private readonly inflight: InflightLimit;
  /** Path prefixes of the routes not counted as work in flight. */
  private readonly untrackedPrefixes: string[];

  constructor(readonly options: HttpHandlerOptions) {
    this.inflight = new InflightLimit(options.maxRequestsInflight ?? 400, options.maxMutatingRequestsInflight ?? 200);
    this.untrackedPrefixes = (options.routes ?? []).filter((r) => r.untracked).map((r) => r.prefix);
  }

  /** Requests refused with 429 (for tests and figures). */
  get refused(): number {
    return this.inflight.refused;
  }

  /** The request listener for node's http/https servers. */
  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    // Tracked so the virtual clock settles only when no HTTP request is being answered;
    // a watch (or a followed log) stops counting once it streams.
    // A request with a body counts only once the body has arrived: a client that sends half
    // a body and stalls must not hold virtual time still.
    const untracked =
      this.untrackedPrefixes.length > 0 && this.untrackedPrefixes.some((p) => (req.url ?? '').startsWith(p));
    const q = this.options.quiescence;
    let tracked = false;
    let done = false;
    const track = () => {
      if (!untracked && !tracked && !done) {
        tracked = true;
        q.begin();
      }
    };
    const release = () => {
      done = true;
      if (tracked) {
        tracked = false;
        q.end();
      }
    };
    if (!hasBody(req)) track();
    void this.serve(req, res, release, track)
      .catch((e) => {
        if (
          e instanceof Error &&
          'status' in e &&
          (e as { status: { code: number } }).status.code === 429 &&
          !res.headersSent
        )
          res.setHeader('Retry-After', '1');
        writeError(res, e);
      })
      .finally(release);
  };

  /** The 'upgrade' listener: exec, attach and port-forward (./streaming), after authentication and authorization. */
  readonly upgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy()); // a client gone mid-stream is not the server's error
    void this.serveUpgrade(req, socket, head).catch((e) => writeUpgradeError(socket, e));
  };

  private async serveUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const info = requestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
    const user = await this.user(req);
    await this.authorize(user, info, url.searchParams);
    if (!info.isResourceRequest || !info.name || !ApiStreaming.handles(info.resource, info.subresource))
      throw errors.badRequest(`${url.pathname} cannot be upgraded`);
    this.resolve(info);
    const streaming = new ApiStreaming(this.options.api, () => this.kubelets());
    await streaming.upgrade(req, socket, head, info.namespace ?? '', info.name, info.subresource!, url.searchParams);
  }

  /** The body, read once, within the size limit (413 past it). */
  private readBody(req: IncomingMessage, received: () => void): () => Promise<Buffer> {
    let p: Promise<Buffer> | undefined;
    return () =>
      (p ??= readLimited(req, undefined, this.options.bodyDeadlineMs).then((b) => {
        received();
        return b;
      }));
  }

  private async serve(
    req: IncomingMessage,
    res: ServerResponse,
    release: () => void,
    received: () => void,
  ): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const body = this.readBody(req, received);
    let info: RequestInfo;
    try {
      info = requestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
    } catch (e) {
      if (e instanceof URIError) throw errors.badRequest(`invalid URL escape in path "${url.pathname}"`);
      throw e;
    }
    const user = await this.user(req);
    await this.authorize(user, info, url.searchParams);
    for (const r of this.options.routes ?? []) {
      if (url.pathname.startsWith(r.prefix)) return r.handle(req, res, url.pathname, body, user);
    }
    if (!info.isResourceRequest)
      return serveNonResource(
        req,
        res,
        info,
        url,
        this.options.api.registry,
        this.options.gitVersion,
        this.options.serverAddress,
      );
    const slot = this.inflight.admit(user, info, url.searchParams);
    try {
      return await this.resource(req, res, info, url.searchParams, user, body, () => {
        slot?.();
        release();
      });
    } finally {
      slot?.();
    }
  }

  /**
   * Who the request runs as: the authenticated caller, or the user it impersonates once the
   * caller may (./auth/impersonation). The insecure port authenticates nobody and, as
   * upstream's insecure handler chain, impersonates nobody either.
   */
  private async user(req: IncomingMessage): Promise<UserInfo> {
    const { authenticator, authorizer } = this.options;
    if (!authenticator) return UNSECURED;
    const caller = await authenticator.authenticate(req);
    if (!asksImpersonation(req.headers)) return caller;
    return impersonate(req.headersDistinct, caller, authorizer ?? alwaysAllow);
  }

  private async authorize(user: UserInfo, info: RequestInfo, query: URLSearchParams): Promise<void> {
    const authorizer = this.options.authenticator ? this.options.authorizer : undefined;
    if (!authorizer) return;
    const selected = info.isResourceRequest ? selectorAttributes(info, query) : {};
    const attrs: AuthorizationAttributes = {
      user,
      verb: info.isResourceRequest ? info.verb : info.verb === 'head' ? 'get' : info.verb,
      isResourceRequest: info.isResourceRequest,
      path: info.path,
      apiGroup: info.group,
      resource: info.resource ?? '',
      subresource: info.subresource ?? '',
      namespace: info.namespace ?? '',
      name: info.name ?? selected.name ?? '',
      ...(selected.fieldRequirements ? { fieldRequirements: selected.fieldRequirements } : {}),
    };
    const decision = await authorizer.authorize(attrs);
    if (decision.allowed) return;
    const t = info.isResourceRequest
      ? { kind: info.resource!, group: info.group || undefined, name: info.name }
      : undefined;
    throw errors.forbiddenMessage(forbiddenMessage(attrs, decision.reason), t);
  }

  private resolve(info: RequestInfo): ResourceType {
    return this.served(info).type;
  }

  /** The resource at the request's group/version: its storage version, or an older version a profile serves too. */
  private served(info: RequestInfo): { type: ResourceType; alias?: ServedVersion } {
    const served = this.options.api.registry.servedAt(info.group, info.version, info.resource!);
    if (!served) throw pageNotFound();
    const rt = served.type;
    // Cluster-scoped resources are installed only at /{prefix}/{resource}: under
    // /namespaces/{ns}/ there is no route (upstream's APIInstaller registers them once,
    // without the namespace parameter), so a namespace's RoleBinding never reaches them.
    if (info.namespacedPath && !rt.namespaced) throw pageNotFound();
    if (info.subresource && !rt.subresources.includes(info.subresource)) throw pageNotFound();
    // Verbs a path does not serve are 405, as upstream's routes: POST only to collections
    // (and the create-only subresources), no DELETE or POST on status, scale or finalize.
    const verbs = info.subresource
      ? SUBRESOURCE_VERBS[info.subresource]
      : info.name
        ? OBJECT_VERBS
        : (COLLECTION_VERBS[rt.resource] ?? undefined);
    if (verbs && !verbs.includes(info.verb)) throw methodNotAllowed();
    return served;
  }

  private async resource(
    req: IncomingMessage,
    res: ServerResponse,
    info: RequestInfo,
    q: URLSearchParams,
    user: UserInfo,
    body: () => Promise<Buffer>,
    release: () => void,
  ): Promise<void> {
    const { api } = this.options;
    const { type: rt, alias } = this.served(info);
    // An older version (v1.12's extensions/v1beta1…): objects go in with its apiVersion and
    // its defaults and come out with its apiVersion; the stored objects are the storage version's.
    const storageVersion = apiVersionOf(rt);
    const aliasVersion = alias ? `${alias.group}/${alias.version}` : storageVersion;
    const out = <T>(x: T): T => (alias ? asVersion(x, storageVersion, aliasVersion) : x);
    const into = (x: unknown): unknown => {
      if (!alias || !x || typeof x !== 'object' || Array.isArray(x)) return x;
      const obj = { ...(x as KubeObject) };
      if (obj.apiVersion === aliasVersion) obj.apiVersion = storageVersion;
      alias.defaults?.(obj);
      return obj;
    };
    const target: RequestTarget = {
      resource: rt.resource,
      group: rt.group,
      namespace: rt.namespaced ? info.namespace : undefined,
      name: info.name,
      subresource: info.subresource,
    };
    const dryRun = q.getAll('dryRun');
    const ctx: RequestContext = { user, dryRun: dryRun.includes('All') };
    const dryRunValue = dryRun.find((v) => v !== 'All');
    if (dryRunValue !== undefined) throw errors.badRequest(`Invalid dry run value: ${dryRunValue}`);
    if (info.subresource === 'log') return podLog(api, () => this.kubelets(), res, rt, target, q, release);
    if (info.subresource === 'proxy')
      return proxyToKubelet(api, () => this.kubelets(), req, res, rt, target, info, q, body);
    if (ApiStreaming.handles(rt.resource, info.subresource)) throw errors.badRequest('Upgrade request required');
    const table = wantsTable(req.headers.accept);
    const include = (q.get('includeObject') ?? 'Metadata') as IncludeObject;
    switch (info.verb) {
      case 'get': {
        // A named GET answers the object, ?watch or not: upstream's item route is GetResource,
        // which reads no watch parameter, and RBAC authorized only `get` (a watch of one
        // object is a list-watch with fieldSelector metadata.name, authorized as `watch`).
        const obj = await api.get(target, ctx);
        if (table && !target.subresource)
          return writeJSON(
            res,
            200,
            toTable(rt, [obj], this.options.clock.now(), { resourceVersion: obj.metadata.resourceVersion, include }),
          );
        return writeJSON(res, 200, out(obj));
      }
      case 'list': {
        intParam(q, 'timeoutSeconds', 0);
        const list = await api.list(
          target,
          {
            labelSelector: q.get('labelSelector') ?? undefined,
            fieldSelector: q.get('fieldSelector') ?? undefined,
            resourceVersion: resourceVersionParam(q),
            resourceVersionMatch: q.get('resourceVersionMatch') ?? undefined,
            limit: intParam(q, 'limit'),
            continue: q.get('continue') ?? undefined,
          },
          ctx,
        );
        if (table)
          return writeJSON(
            res,
            200,
            toTable(rt, list.items, this.options.clock.now(), {
              resourceVersion: list.metadata.resourceVersion,
              include,
            }),
          );
        return writeJSON(res, 200, out(list));
      }
      case 'watch':
        return serveWatch(api, this.options.clock, req, res, rt, target, q, table, release, ctx, undefined, out);
      case 'create': {
        const obj = into(fieldValidation(rt, q, res, await decodeBody(req, await body())));
        const created = await api.create(target, obj, ctx);
        const code = (created as Status).kind === 'Status' ? (created as Status).code || 201 : 201;
        return writeJSON(res, code, out(created));
      }
      case 'update':
        return writeJSON(
          res,
          200,
          out(await api.update(target, into(fieldValidation(rt, q, res, await decodeBody(req, await body()))), ctx)),
        );
      case 'patch': {
        const type = PATCH_TYPES[mediaType(req.headers['content-type'])];
        if (!type) {
          throw errors.unsupportedMediaType(
            `the body of the request was in an unknown format - accepted media types include: ${Object.keys(PATCH_TYPES).join(', ')}`,
          );
        }
        const raw = (await body()).toString('utf8');
        const patch = parseBody(raw, type === 'apply');
        if (type === 'apply') {
          const r = await serverSideApply(api, target, into(patch), ctx, q.get('fieldManager') ?? undefined, () =>
            this.authorize(user, { ...info, verb: 'create' }, q),
          );
          return writeJSON(res, r.code, out(r.object));
        }
        return writeJSON(res, 200, out(await api.patch(target, type, patch, ctx)));
      }
      case 'delete': {
        const options = await deleteOptions(req, await body(), q);
        const { object } = await api.delete(target, options, ctx);
        return writeJSON(res, 200, out(object));
      }
      case 'deletecollection': {
        const options = await deleteOptions(req, await body(), q);
        const list = await api.deleteCollection(
          target,
          { labelSelector: q.get('labelSelector') ?? undefined, fieldSelector: q.get('fieldSelector') ?? undefined },
          options,
          ctx,
        );
        return writeJSON(res, 200, out(list));
      }
      default:
        throw errors.methodNotSupported({ kind: rt.resource, group: rt.group || undefined }, info.verb);
    }
  }

  private kubelets(): KubeletClient {
    if (!this.options.kubelets) throw errors.serviceUnavailable('this API server has no connection to kubelets');
    return this.options.kubelets;
  }
}

/** The verbs served on a named object and on each subresource (upstream's installed routes). */
const OBJECT_VERBS = ['get', 'update', 'patch', 'delete', 'watch'];
const SUBRESOURCE_VERBS: Record<string, string[]> = {
  status: ['get', 'update', 'patch'],
  scale: ['get', 'update', 'patch'],
  finalize: ['update'],
  binding: ['create'],
  eviction: ['create'],
  log: ['get'],
};

/**
 * Collections that do not serve every collection verb: namespaces have no deletecollection
 * (upstream's namespace REST is no rest.CollectionDeleter — one request must not delete
 * every namespace a selector matches).
 */
const COLLECTION_VERBS: Record<string, string[]> = {
  namespaces: ['list', 'watch', 'create'],
};

/** An object, or a list of them, as an older version shows it: the storage apiVersion replaced by that version's. */
function asVersion<T>(x: T, storageVersion: string, aliasVersion: string): T {
  if (!x || typeof x !== 'object') return x;
  const obj = x as unknown as KubeObject & { items?: unknown[] };
  const copy: KubeObject & { items?: unknown[] } = { ...obj };
  if (copy.apiVersion === storageVersion) copy.apiVersion = aliasVersion;
  if (Array.isArray(copy.items)) copy.items = copy.items.map((i) => asVersion(i, storageVersion, aliasVersion));
  return copy as unknown as T;
}

/**
 * What a collection request's field selector tells the authorizer, as upstream's
 * GetAuthorizerAttributes and RequestInfoFactory do: the selector's requirements for list,
 * watch and deletecollection (AuthorizeWithSelectors), and, for a list or watch pinning
 * `metadata.name` to a valid name, that name (so a rule with resourceNames, or the Node
 * authorizer's own-object rules, can allow it). A selector that does not parse gives
 * nothing: the handler refuses it with 400 later, and an authorizer sees no requirement.
 */
function selectorAttributes(
  info: RequestInfo,
  query: URLSearchParams,
): { name?: string; fieldRequirements?: AuthorizationAttributes['fieldRequirements'] } {
  if (info.name || !['list', 'watch', 'deletecollection'].includes(info.verb)) return {};
  const text = query.get('fieldSelector');
  if (!text) return {};
  let selector: ReturnType<typeof parseFieldSelector>;
  try {
    selector = parseFieldSelector(text);
  } catch {
    return {};
  }
  const name = info.verb === 'deletecollection' ? undefined : selector.requiresExactMatch('metadata.name');
  const validName = name !== undefined && name !== '' && name !== '.' && name !== '..' && !/[/%]/.test(name);
  return { fieldRequirements: selector.requirements(), ...(validName ? { name } : {}) };
}

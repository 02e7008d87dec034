import * as http from 'node:http';
import * as https from 'node:https';
import { KubeConfig, Watch as KubeWatch } from '@kubernetes/client-node';
import { KubeList, KubeObject, Status } from '../api/meta';
import { StatusError } from '../api/errors';
import { ResourceRegistry } from '../api/registry';
import { Client, ResourceRef, Watch, WatchHandlers } from './client';
import { DeleteOptions, ListOptions, PatchType, WatchOptions } from '../api/request';

const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

/**
 * @kubernetes/client-node refuses an http:// server unless the cluster says skipTLSVerify
 * (its agent choice keys on that flag), although kubectl reaches such a server (the insecure
 * port, `kubectl proxy`) happily. For plain-HTTP servers only, skipTLSVerify is set: there is
 * no TLS to verify, so it weakens nothing; https:// clusters keep what the file says.
 */
export function allowPlainHttp(kc: KubeConfig): KubeConfig {
  if (!kc.clusters.some((c) => c.server.startsWith('http:') && !c.skipTLSVerify)) return kc;
  const out = new KubeConfig();
  out.loadFromOptions({
    clusters: kc.clusters.map((c) => (c.server.startsWith('http:') ? { ...c, skipTLSVerify: true } : c)),
    users: kc.users,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
  });
  return out;
}

/** The agent client-node chose (an Agent, or a function of the URL). */
function agentFor(given: unknown, url: URL): http.Agent | undefined {
  const agent = typeof given === 'function' ? (given as (u: URL) => unknown)(url) : given;
  return agent instanceof http.Agent ? agent : undefined;
}

/** The TLS settings of an agent client-node made: two agents with the same ones are interchangeable. */
const TLS_OPTIONS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const;

/**
 * client-node builds a new agent for every request, so each request would open a new
 * connection and do a TLS handshake (with a client certificate: most of a request's cost).
 * Clients keep their connections (client-go's transport does): a plain http/https agent is
 * replaced by one kept-alive agent per distinct TLS settings; proxy agents are used as given.
 */
/** Equal settings: the same value, or buffers (certificates, keys) with the same bytes. */
function same(a: unknown, b: unknown): boolean {
  return a === b || (Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b));
}

class KeptAgents {
  private kept?: { secure: boolean; settings: unknown[]; agent: http.Agent };

  /** At most this many connections at once (requests beyond wait for one); unbounded when not given. */
  constructor(private readonly maxConnections?: number) {}

  for(agent: http.Agent | undefined): http.Agent | undefined {
    if (!agent || (agent.constructor !== https.Agent && agent.constructor !== http.Agent)) return agent;
    const options = (agent as http.Agent & { options: Record<string, unknown> }).options;
    const secure = agent instanceof https.Agent;
    const settings = TLS_OPTIONS.map((k) => options[k]);
    agent.destroy();
    if (this.kept && this.kept.secure === secure && this.kept.settings.every((v, i) => same(v, settings[i])))
      return this.kept.agent;
    // A rotated credential (an exec plugin's new certificate) makes a new agent; the old one's sockets close.
    this.kept?.agent.destroy();
    // Idle connections are closed after a minute (the servers' keep-alive lasts longer).
    const keep = {
      ...options,
      keepAlive: true,
      timeout: (options.timeout as number | undefined) ?? 60_000,
      ...(this.maxConnections ? { maxSockets: this.maxConnections } : {}),
    };
    this.kept = { secure, settings, agent: secure ? new https.Agent(keep) : new http.Agent(keep) };
    return this.kept.agent;
  }
}

export interface ClientOptions {
  /**
   * At most this many connections to the server at once, requests beyond waiting for one
   * (watches have their own). Unbounded when not given, as client-go's HTTP/1.1 transport is.
   */
  maxConnections?: number;
}

/** Methods Go's net/http may send again (Request.isReplayable): they change nothing. */
const REPLAYABLE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * One HTTP(S) exchange with node's own client. The agent is the one client-node builds from
 * the kubeconfig (CA, client certificate, skip-verify, proxy); an https agent is not offered
 * to a plain-HTTP server.
 *
 * A kept connection may be closed by the server just as a request goes out on it ("socket
 * hang up", ECONNRESET before any answer). client-go's transport (Go's net/http,
 * persistConn.shouldRetryRequest) then sends a replayable request again on another
 * connection, and so does this: only when the connection was a reused one, so a server that
 * refuses a fresh connection still fails the request.
 */
async function send(exchange: Exchange): Promise<Answer> {
  for (;;) {
    try {
      return await sendOnce(exchange);
    } catch (e) {
      const { reusedSocket, code } = e as { reusedSocket?: boolean; code?: string };
      if (!(reusedSocket && REPLAYABLE.has(exchange.method) && (code === 'ECONNRESET' || code === 'EPIPE'))) throw e;
    }
  }
}

interface Exchange {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  agent: http.Agent | undefined;
}

interface Answer {
  status: number;
  statusText: string;
  text: string;
}

function sendOnce({ url, method, headers, body, agent }: Exchange): Promise<Answer> {
  const secure = url.protocol === 'https:';
  const request = secure ? https.request : http.request;
  const usable = secure || !(agent instanceof https.Agent) ? agent : undefined;
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = request(url, { method, headers: { ...headers, ...length }, agent: usable }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', (e) => reject(Object.assign(e, { reusedSocket: req.reusedSocket })));
    req.end(body);
  });
}

/**
 * The Client over HTTP(S) to any API server named by a kubeconfig, with
 * @kubernetes/client-node doing what a kubeconfig asks (certificates, tokens, exec
 * plugins, proxies) and its Watch doing the watch framing. Paths come from the resource
 * registry, so every resource the suite speaks of reaches its Kubernetes URL.
 */
export class KubeconfigClient implements Client {
  private readonly watcher: KubeWatch;
  private readonly kept: KeptAgents;

  readonly kubeConfig: KubeConfig;

  constructor(
    kubeConfig: KubeConfig,
    private readonly registry: ResourceRegistry,
    options: ClientOptions = {},
  ) {
    this.kubeConfig = allowPlainHttp(kubeConfig);
    this.watcher = new KubeWatch(kubeConfig);
    this.kept = new KeptAgents(options.maxConnections);
  }

  static fromFile(
    file: string,
    registry: ResourceRegistry,
    context?: string,
    options: ClientOptions = {},
  ): KubeconfigClient {
    const kc = new KubeConfig();
    kc.loadFromFile(file);
    if (context) {
      if (!kc.getContextObject(context))
        throw new Error(
          `kubeconfig ${file} has no context "${context}" (it has: ${
            kc
              .getContexts()
              .map((c) => c.name)
              .join(', ') || 'none'
          })`,
        );
      kc.setCurrentContext(context);
    }
    return new KubeconfigClient(allowPlainHttp(kc), registry, options);
  }

  get server(): string {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('the kubeconfig has no current cluster');
    return cluster.server.replace(/\/$/, '');
  }

  /** The URL path of a resource, object or subresource. */
  path(ref: ResourceRef, name?: string, subresource?: string): string {
    const rt = this.registry.get(ref.resource);
    if (!rt) throw new Error(`unknown resource "${ref.resource}"`);
    const base = rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`;
    const ns = rt.namespaced && ref.namespace ? `/namespaces/${encodeURIComponent(ref.namespace)}` : '';
    return `${base}${ns}/${rt.resource}${name ? `/${encodeURIComponent(name)}` : ''}${subresource ? `/${subresource}` : ''}`;
  }

  /** One request; a non-2xx answer becomes the StatusError the server sent (or one made from it). */
  async request<T>(
    method: string,
    path: string,
    options: { query?: Record<string, string | undefined>; body?: unknown; contentType?: string } = {},
  ): Promise<T> {
    const url = new URL(this.server + path);
    for (const [k, v] of Object.entries(options.query ?? {}))
      if (v !== undefined && v !== '') url.searchParams.set(k, v);
    const init = await this.kubeConfig.applyToFetchOptions({});
    // client-node gives a Headers object (bearer tokens, exec plugins' tokens): spreading it
    // would drop them, so its entries are copied.
    const headers: Record<string, string> = {};
    const given = init.headers as unknown;
    if (given && typeof (given as { forEach?: unknown }).forEach === 'function' && !Array.isArray(given))
      (given as { forEach(cb: (v: string, k: string) => void): void }).forEach((v, k) => {
        headers[k] = v;
      });
    else Object.assign(headers, given ?? {});
    headers.accept = 'application/json';
    if (options.body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const res = await send({
      url,
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      agent: this.kept.for(agentFor(init.agent, url)),
    });
    const text = res.text;
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.status < 200 || res.status > 299) {
      const status = parsed as Status | undefined;
      if (status?.kind === 'Status') throw new StatusError(status);
      throw new StatusError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        code: res.status,
        reason: res.statusText,
        message: text.slice(0, 500) || res.statusText,
      });
    }
    return parsed as T;
  }

  create<T extends KubeObject>(ref: ResourceRef, obj: T, options: { dryRun?: boolean } = {}): Promise<T> {
    const namespace = ref.namespace ?? obj.metadata?.namespace;
    return this.request('POST', this.path({ ...ref, namespace }), {
      body: obj,
      query: { dryRun: options.dryRun ? 'All' : undefined },
    });
  }

  get<T extends KubeObject>(ref: ResourceRef, name: string, options: { subresource?: string } = {}): Promise<T> {
    return this.request('GET', this.path(ref, name, options.subresource));
  }

  list<T extends KubeObject>(ref: ResourceRef, options: ListOptions = {}): Promise<KubeList<T>> {
    return this.request('GET', this.path(ref), {
      query: {
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        resourceVersion: options.resourceVersion,
        resourceVersionMatch: options.resourceVersionMatch,
        limit: options.limit === undefined ? undefined : String(options.limit),
        continue: options.continue,
      },
    });
  }

  update<T extends KubeObject>(ref: ResourceRef, obj: T, options: { subresource?: string } = {}): Promise<T> {
    const namespace = ref.namespace ?? obj.metadata.namespace;
    return this.request('PUT', this.path({ ...ref, namespace }, obj.metadata.name, options.subresource), { body: obj });
  }

  patch<T extends KubeObject>(
    ref: ResourceRef,
    name: string,
    type: PatchType,
    patch: unknown,
    options: { subresource?: 'status' } = {},
  ): Promise<T> {
    return this.request('PATCH', this.path(ref, name, options.subresource), {
      body: patch,
      contentType: PATCH_CONTENT_TYPES[type],
    });
  }

  delete<T extends KubeObject>(ref: ResourceRef, name: string, options: DeleteOptions = {}): Promise<T | Status> {
    return this.request('DELETE', this.path(ref, name), {
      body: { apiVersion: 'v1', kind: 'DeleteOptions', ...options },
    });
  }

  deleteCollection<T extends KubeObject>(
    ref: ResourceRef,
    options: DeleteOptions = {},
    listOptions: ListOptions = {},
  ): Promise<KubeList<T>> {
    return this.request('DELETE', this.path(ref), {
      body: { apiVersion: 'v1', kind: 'DeleteOptions', ...options },
      query: { labelSelector: listOptions.labelSelector, fieldSelector: listOptions.fieldSelector },
    });
  }

  createSubresource<R>(ref: ResourceRef, name: string, subresource: string, body: unknown): Promise<R> {
    return this.request('POST', this.path(ref, name, subresource), { body });
  }

  async watch<T extends KubeObject>(
    ref: ResourceRef,
    options: WatchOptions,
    handlers: WatchHandlers<T>,
  ): Promise<Watch> {
    let stopped = false;
    const controller = await this.watcher.watch(
      this.path(ref),
      {
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        resourceVersion: options.resourceVersion,
        allowWatchBookmarks: false,
      },
      (phase: string, obj: T) => {
        if (phase === 'ERROR') {
          const status = obj as unknown as Status;
          if (!stopped) handlers.onClose?.(new StatusError(status));
          stopped = true;
          return;
        }
        if (phase === 'ADDED' || phase === 'MODIFIED' || phase === 'DELETED')
          handlers.onEvent({ type: phase, object: obj });
      },
      (err: unknown) => {
        if (stopped) return;
        stopped = true;
        // A watch the server refuses outright (HTTP 410 for a compacted or too old version, as
        // kubespec serve answers) is the same Status as one it ends with an ERROR event (the
        // cacher's form): client-node gives only the status line and code, so make it one.
        const code = (err as { statusCode?: unknown } | undefined)?.statusCode;
        if (err instanceof Error && typeof code === 'number' && code >= 400) {
          handlers.onClose?.(
            new StatusError({
              apiVersion: 'v1',
              kind: 'Status',
              metadata: {},
              status: 'Failure',
              code,
              reason: code === 410 ? 'Expired' : err.message,
              message: err.message,
            }),
          );
          return;
        }
        handlers.onClose?.(err ? (err instanceof Error ? err : new Error(String(err))) : undefined);
      },
    );
    return {
      stop: () => {
        stopped = true;
        controller.abort();
      },
    };
  }
}

import * as http from 'node:http';
import * as https from 'node:https';
import { StatusError, errors } from '../api/errors';
import { KubeList, KubeObject, Status } from '../api/meta';
import { ResourceRegistry, ResourceType } from '../api/registry';
import { coreRegistry } from '../api/resources';
import { ApiWatchEvent, DeleteOptions, PatchType } from './client';
import { Client, ListOptions, ResourceRef, Watch, WatchHandlers, WatchOptions } from './client';

/**
 * The Client interface over HTTP(S): the same components (kubelets, controllers,
 * informers) run against a served API server — ours or any other. Errors come back as the
 * server's Status (StatusError); watches read the chunked JSON-lines stream.
 */
export interface HttpClientOptions {
  server: string;
  ca?: string;
  cert?: string;
  key?: string;
  token?: string;
  /** Skip server certificate verification (never for anything but tests). */
  insecureSkipTLSVerify?: boolean;
  registry?: ResourceRegistry;
}

const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

export class HttpClient implements Client {
  private readonly registry: ResourceRegistry;
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(private readonly options: HttpClientOptions) {
    this.registry = options.registry ?? coreRegistry();
    this.base = new URL(options.server);
    this.agent = this.base.protocol === 'https:'
      ? new https.Agent({ keepAlive: true, ca: options.ca, cert: options.cert, key: options.key, rejectUnauthorized: !options.insecureSkipTLSVerify })
      : new http.Agent({ keepAlive: true });
  }

  close(): void {
    this.agent.destroy();
  }

  private type(ref: ResourceRef): ResourceType {
    const rt = this.registry.get(ref.resource);
    if (!rt) throw errors.notFound({ kind: 'resources', name: ref.resource });
    return rt;
  }

  /** /api/v1[/namespaces/ns]/resource[/name[/sub]] or /apis/g/v/… */
  path(ref: ResourceRef, name?: string, subresource?: string, namespace = ref.namespace): string {
    const rt = this.type(ref);
    const root = rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`;
    const ns = rt.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
    return `${root}${ns}/${rt.resource}${name ? `/${encodeURIComponent(name)}` : ''}${subresource ? `/${subresource}` : ''}`;
  }

  private request(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; res: http.IncomingMessage }> {
    const mod = this.base.protocol === 'https:' ? https : http;
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (data) { headers['Content-Type'] = contentType; headers['Content-Length'] = String(data.length); }
    if (this.options.token) headers.Authorization = `Bearer ${this.options.token}`;
    return new Promise((resolve, reject) => {
      const req = mod.request({ host: this.base.hostname, port: this.base.port, method, path, headers, agent: this.agent }, (res) => resolve({ status: res.statusCode ?? 0, res }));
      req.on('error', reject);
      req.end(data);
    });
  }

  /** Any request (non-resource endpoints such as /kubespec/v1/clock): the status code and the parsed JSON body. */
  async send(method: string, path: string, body?: unknown): Promise<{ code: number; body: unknown }> {
    const { status, res } = await this.request(method, path, body);
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    try { return { code: status, body: JSON.parse(text) }; } catch { return { code: status, body: text }; }
  }

  private async json<T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> {
    const { status, res } = await this.request(method, path, body, contentType);
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let parsed: unknown;
    try { parsed = JSON.parse(text); } catch { parsed = undefined; }
    if (status >= 400) {
      if ((parsed as Status | undefined)?.kind === 'Status') throw new StatusError(parsed as Status);
      throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: text || `HTTP ${status}`, code: status });
    }
    return parsed as T;
  }

  private query(options: ListOptions & { resourceVersion?: string; watch?: boolean; dryRun?: boolean }): string {
    const q = new URLSearchParams();
    if (options.labelSelector) q.set('labelSelector', options.labelSelector);
    if (options.fieldSelector) q.set('fieldSelector', options.fieldSelector);
    if (options.resourceVersion !== undefined) q.set('resourceVersion', options.resourceVersion);
    if (options.watch) q.set('watch', 'true');
    if (options.dryRun) q.set('dryRun', 'All');
    const s = q.toString();
    return s ? `?${s}` : '';
  }

  create<T extends KubeObject>(ref: ResourceRef, obj: T, options: { dryRun?: boolean } = {}): Promise<T> {
    return this.json('POST', this.path(ref, undefined, undefined, ref.namespace ?? obj.metadata?.namespace) + this.query(options), obj);
  }

  get<T extends KubeObject>(ref: ResourceRef, name: string): Promise<T> {
    return this.json('GET', this.path(ref, name));
  }

  list<T extends KubeObject>(ref: ResourceRef, options: ListOptions = {}): Promise<KubeList<T>> {
    return this.json('GET', this.path(ref) + this.query(options));
  }

  update<T extends KubeObject>(ref: ResourceRef, obj: T, options: { subresource?: 'status' } = {}): Promise<T> {
    return this.json('PUT', this.path(ref, obj.metadata.name, options.subresource, ref.namespace ?? obj.metadata.namespace), obj);
  }

  patch<T extends KubeObject>(ref: ResourceRef, name: string, type: PatchType, patch: unknown, options: { subresource?: 'status' } = {}): Promise<T> {
    return this.json('PATCH', this.path(ref, name, options.subresource), patch, PATCH_CONTENT_TYPES[type]);
  }

  delete<T extends KubeObject>(ref: ResourceRef, name: string, options: DeleteOptions = {}): Promise<T | Status> {
    return this.json('DELETE', this.path(ref, name), options);
  }

  createSubresource<R>(ref: ResourceRef, name: string, subresource: string, body: unknown): Promise<R> {
    return this.json('POST', this.path(ref, name, subresource), body);
  }

  async watch<T extends KubeObject>(ref: ResourceRef, options: WatchOptions, handlers: WatchHandlers<T>): Promise<Watch> {
    const { status, res } = await this.request('GET', this.path(ref) + this.query({ ...options, watch: true }));
    if (status !== 200) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      try { throw new StatusError(JSON.parse(text) as Status); } catch (e) {
        if (e instanceof StatusError) throw e;
        throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: text, code: status });
      }
    }
    let buffered = '';
    let closed = false;
    const close = (error?: Error) => { if (!closed) { closed = true; handlers.onClose?.(error); } };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (!line.trim()) continue;
        const event = JSON.parse(line) as ApiWatchEvent<T>;
        if (event.type === 'ERROR') { close(new StatusError(event.object as unknown as Status)); res.destroy(); return; }
        handlers.onEvent(event);
      }
    });
    res.on('end', () => close());
    res.on('error', (e) => close(e));
    return { stop: () => { res.destroy(); close(); } };
  }
}

import * as fs from 'node:fs';
import * as https from 'node:https';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CertificateAuthority, CertificateRequest, KeyPair, securePkiDir } from '../apiserver/auth/pki';
import { BasicAuthFile, RequestAuthenticator } from '../apiserver/auth/authenticator';
import { Authorizer } from '../apiserver/auth/authorizer';
import { authorizerFor } from '../apiserver/auth/modes';
import { reviewToken, selfSubjectAccessReview, subjectAccessReview, tokenReview } from '../apiserver/auth/reviews';
import { ApiHttpServer, Listening } from '../apiserver/http/server';
import { KubeletClient, NodeDialer } from '../apiserver/http/kubelet-client';
import { NonResourceRoute } from '../apiserver/http/handler';
import { writeJSON } from '../apiserver/http/respond';
import { decodeProtobuf, PROTOBUF } from '../apiserver/http/protobuf';
import { errors, StatusError } from '../api/errors';
import { HollowKubelet } from '../kubelet/kubelet';
import { KubeletServer } from '../kubelet/server';
import { parseTaints } from '../api/taints';
import type { Cluster } from './cluster';
import { auditRoutes, cloudRoute, proxyRoute, RevisionTimes, schedulerRoute, settleRoute } from './observation-routes';
import type { KubeletSpec } from './config';

/**
 * Serves a Cluster over HTTP(S): the API server's ports with their PKI, authentication and
 * authorization; each hollow kubelet's HTTPS API; and kubespec's own endpoints for virtual
 * time and hollow kubelets (/kubespec/v1/clock, /kubespec/v1/kubelets). The PKI is made
 * on first start in `dir` and reused after; a kubeconfig for the admin (client certificate,
 * CN kubernetes-admin, O system:masters) is written there.
 */
export interface ServeSettings {
  /** Where the PKI and the kubeconfig live. */
  dir: string;
  /** The PKI elsewhere (shared by many clusters in tests); default dir/pki. */
  pkiDir?: string;
  /** Ports that are on listen on any free port (tests); which ports are on is the flags'. */
  anyFreePort?: boolean;
  /** Issue every certificate with one shared key pair (fast; for tests). */
  fastKeys?: boolean;
}

export interface ServedEndpoints extends Listening {
  kubeconfig: string;
  /** The URL clients use: the secure port when on, else the insecure one. */
  server: string;
  caFile: string;
  kubeletCAFile: string;
}

function loadOrCreateCA(dir: string, name: string, commonName: string, fast: boolean): CertificateAuthority {
  const crt = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  if (fs.existsSync(crt) && fs.existsSync(key))
    return CertificateAuthority.load(
      { certPem: fs.readFileSync(crt, 'utf8'), keyPem: fs.readFileSync(key, 'utf8') },
      { reuseLeafKey: fast },
    );
  const ca = CertificateAuthority.create(commonName, { reuseLeafKey: fast });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(crt, ca.keyPair.certPem, { mode: 0o600 });
  fs.writeFileSync(key, ca.keyPair.keyPem, { mode: 0o600 });
  return ca;
}

function writePair(dir: string, name: string, pair: KeyPair): void {
  // Whole files only (write, then rename): another server starting on the same directory may read them.
  for (const [file, text] of [
    [`${name}.crt`, pair.certPem],
    [`${name}.key`, pair.keyPem],
  ]) {
    const tmp = path.join(dir, `.${file}.${process.pid}`);
    fs.writeFileSync(tmp, text, { mode: 0o600 });
    fs.renameSync(tmp, path.join(dir, file));
  }
}

/** The pair dir/name.{crt,key} when the CA issued it for this request (see issued()), else a new one written there. */
function loadOrIssue(ca: CertificateAuthority, dir: string, name: string, req: CertificateRequest): KeyPair {
  try {
    const kept = {
      certPem: fs.readFileSync(path.join(dir, `${name}.crt`), 'utf8'),
      keyPem: fs.readFileSync(path.join(dir, `${name}.key`), 'utf8'),
    };
    if (ca.issued(kept, req)) return kept;
  } catch {
    /* none kept yet */
  }
  const pair = ca.issue(req);
  writePair(dir, name, pair);
  return pair;
}

/**
 * kube-apiserver's --authorization-mode when none is stated (BuiltInAuthorizationOptions, v1.12
 * as v1.32). `kubespec serve` itself defaults to RBAC; the serve target states this instead.
 */
export const DEFAULT_AUTHORIZATION_MODE = 'AlwaysAllow';

const b64 = (s: string) => Buffer.from(s).toString('base64');

export function kubeconfigYaml(
  server: string,
  user: string,
  credentials: Record<string, string>,
  caPem?: string,
): string {
  return yaml.dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'kubespec', cluster: { server, ...(caPem ? { 'certificate-authority-data': b64(caPem) } : {}) } },
    ],
    users: [{ name: user, user: credentials }],
    contexts: [{ name: `${user}@kubespec`, context: { cluster: 'kubespec', user } }],
    'current-context': `${user}@kubespec`,
  });
}

/** A kubeconfig whose user authenticates with a client certificate the CA issues (CN = user, O = groups), or the one kept from an earlier start. */
export function clientCertKubeconfig(
  ca: CertificateAuthority,
  server: string,
  user: string,
  groups: string[],
  kept?: KeyPair,
): string {
  if (!server.startsWith('https:')) return kubeconfigYaml(server, user, {});
  const cert = kept ?? ca.issue({ commonName: user, organizations: groups, usage: 'client' });
  return kubeconfigYaml(
    server,
    user,
    { 'client-certificate-data': b64(cert.certPem), 'client-key-data': b64(cert.keyPem) },
    ca.keyPair.certPem,
  );
}

/** A kubeconfig with a bearer token, or with no credentials at all (anonymous). */
export function tokenKubeconfig(caPem: string, server: string, token: string | undefined): string {
  // No credentials: a user name without password (kubectl prompts for one when a kubeconfig
  // user is empty); the Basic header it then sends authenticates nobody, so the request is
  // anonymous, as on an upstream server since basic auth was removed (v1.19).
  const user: Record<string, string> = token ? { token } : { username: 'anonymous' };
  return kubeconfigYaml(
    server,
    token ? 'token-user' : 'anonymous',
    user,
    server.startsWith('https:') ? caPem : undefined,
  );
}

/** A kubeconfig whose user authenticates with HTTP basic auth (kube-apiserver --basic-auth-file, before v1.19). */
export function basicAuthKubeconfig(caPem: string, server: string, username: string, password: string): string {
  return kubeconfigYaml(server, username, { username, password }, server.startsWith('https:') ? caPem : undefined);
}

/** Who calls a kubelet directly: a client certificate's user and groups, a bearer token, or nobody. */
export type KubeletCaller =
  | { user: string; groups: string[]; untrustedCA?: boolean }
  | { token: string }
  | { anonymous: true };

/** Hollow nodes all listen on loopback; this maps each node to its kubelet's real port. */
class HollowNetwork implements NodeDialer {
  readonly servers = new Map<string, { kubelet: HollowKubelet; server: KubeletServer }>();

  dial(nodeName: string): { host: string; port: number } | undefined {
    const s = this.servers.get(nodeName);
    if (!s?.kubelet.isRunning) return undefined; // a stopped kubelet is a machine that does not answer
    return { host: '127.0.0.1', port: s.server.port };
  }
}

export class ClusterServer {
  private http?: ApiHttpServer;
  private readonly network = new HollowNetwork();
  private kubeletCA?: CertificateAuthority;
  private ca?: CertificateAuthority;
  readonly authenticator: RequestAuthenticator;
  private authorizer?: Authorizer;
  endpoints?: ServedEndpoints;

  constructor(
    private readonly cluster: Cluster,
    private readonly settings: ServeSettings,
  ) {
    const f = cluster.config.flags['kube-apiserver'];
    // AlwaysAllow turns anonymous requests off, whatever --anonymous-auth says (upstream's
    // ApplyAuthorization, pkg/kubeapiserver/options/authentication.go; found on v1.32.13).
    const alwaysAllow = (f['authorization-mode'] ?? DEFAULT_AUTHORIZATION_MODE).split(',').includes('AlwaysAllow');
    // --basic-auth-file exists only in releases before v1.19: a later kube-apiserver does not
    // know the flag and refuses to start (pflag's "unknown flag").
    if (f['basic-auth-file'] && !cluster.config.profile.features.basicAuth)
      throw new Error('unknown flag: --basic-auth-file');
    const basicAuth = f['basic-auth-file'] ? BasicAuthFile.load(f['basic-auth-file']) : undefined;
    this.authenticator = new RequestAuthenticator({
      tokenAuthenticators: cluster.tokenAuthenticators,
      basicAuth,
      anonymous: (f['anonymous-auth'] ?? true) && !alwaysAllow,
    });
    this.revisionTimes = new RevisionTimes(cluster);
  }

  private readonly revisionTimes: RevisionTimes;

  get pkiDir(): string {
    return this.settings.pkiDir ?? path.join(this.settings.dir, 'pki');
  }

  async start(): Promise<ServedEndpoints> {
    const f = this.cluster.config.flags['kube-apiserver'];
    const fast = this.settings.fastKeys ?? false;
    const pki = this.pkiDir;
    securePkiDir(pki);
    const ca = (this.ca = loadOrCreateCA(pki, 'ca', 'kubernetes', fast));
    this.kubeletCA = loadOrCreateCA(pki, 'kubelet-ca', 'kubelet-ca', fast);
    const bindAddress = f['bind-address'] ?? '0.0.0.0';
    const ips = ['127.0.0.1', '10.96.0.1', ...(bindAddress !== '0.0.0.0' && bindAddress !== '::' ? [bindAddress] : [])];
    // Each pair is kept in the PKI directory and reused by the next start while it still fits.
    const serving = loadOrIssue(ca, pki, 'apiserver', {
      commonName: 'kube-apiserver',
      dnsNames: [
        'localhost',
        'kubernetes',
        'kubernetes.default',
        'kubernetes.default.svc',
        'kubernetes.default.svc.cluster.local',
      ],
      ipAddresses: ips,
      usage: 'server',
    });
    const kubeletCAPath = f['kubelet-certificate-authority'];
    // The API server's identity at kubelets (--kubelet-client-certificate/--kubelet-client-key);
    // without the flags, one from the cluster CA as kubeadm makes it (CN
    // kube-apiserver-kubelet-client, O system:masters), so kubelets that authenticate and
    // authorize through the API server let it in.
    const clientCertificate =
      f['kubelet-client-certificate'] && f['kubelet-client-key']
        ? {
            certPem: fs.readFileSync(f['kubelet-client-certificate'], 'utf8'),
            keyPem: fs.readFileSync(f['kubelet-client-key'], 'utf8'),
          }
        : loadOrIssue(ca, pki, 'apiserver-kubelet-client', {
            commonName: 'kube-apiserver-kubelet-client',
            organizations: ['system:masters'],
            usage: 'client',
          });
    const kubelets = new KubeletClient({
      dialer: this.network,
      certificateAuthority: kubeletCAPath ? fs.readFileSync(kubeletCAPath, 'utf8') : undefined,
      clientCertificate,
    });
    this.authorizer = authorizerFor(f['authorization-mode'] ?? DEFAULT_AUTHORIZATION_MODE, this.cluster.api);
    this.http = new ApiHttpServer(
      {
        api: this.cluster.api,
        clock: this.cluster.clock,
        quiescence: this.cluster.quiescence,
        gitVersion: this.cluster.config.profile.kubernetesVersion,
        authenticator: this.authenticator,
        authorizer: this.authorizer,
        kubelets,
        routes: [
          this.locksRoute(),
          settleRoute(this.cluster),
          this.clockRoute(),
          this.kubeletsRoute(),
          schedulerRoute(this.cluster),
          cloudRoute(this.cluster),
          proxyRoute(this.cluster),
          ...auditRoutes(this.cluster),
          this.revisionTimes.route(),
          ...this.reviewsRoute(),
        ],
        maxRequestsInflight: f['max-requests-inflight'],
        maxMutatingRequestsInflight: f['max-mutating-requests-inflight'],
      },
      {
        securePort: f['secure-port'] ?? 6443,
        bindAddress,
        insecurePort: f['insecure-port'] ?? 0,
        anyFreePort: this.settings.anyFreePort,
        insecureBindAddress: f['insecure-bind-address'] ?? '127.0.0.1',
        serving,
        clientCA: ca.keyPair.certPem,
      },
    );
    await this.revisionTimes.start();
    const listening = await this.http.start();
    for (const k of this.cluster.kubelets.values()) await this.serveKubelet(k);
    this.cluster.kubeletHooks.push((k) => this.serveKubelet(k));
    const host = (h: string) => (h === '0.0.0.0' || h === '::' ? '127.0.0.1' : h.includes(':') ? `[${h}]` : h);
    const server = listening.secure
      ? `https://${host(listening.secure.host)}:${listening.secure.port}`
      : listening.insecure
        ? `http://${host(listening.insecure.host)}:${listening.insecure.port}`
        : '';
    const kubeconfig = path.join(this.settings.dir, 'admin.kubeconfig');
    const admin = listening.secure
      ? loadOrIssue(ca, pki, 'admin', {
          commonName: 'kubernetes-admin',
          organizations: ['system:masters'],
          usage: 'client',
        })
      : undefined;
    fs.writeFileSync(kubeconfig, clientCertKubeconfig(ca, server, 'kubernetes-admin', ['system:masters'], admin), {
      mode: 0o600,
    });
    this.endpoints = {
      ...listening,
      kubeconfig,
      server,
      caFile: path.join(pki, 'ca.crt'),
      kubeletCAFile: path.join(pki, 'kubelet-ca.crt'),
    };
    return this.endpoints;
  }

  /** A kubeconfig whose user authenticates with a client certificate (CN = user, O = groups). */
  kubeconfigFor(server: string, user: string, groups: string[]): string {
    return clientCertKubeconfig(this.ca!, server, user, groups);
  }

  /** A kubeconfig with a bearer token, or with no credentials at all (anonymous). */
  kubeconfigWithToken(server: string, token: string | undefined): string {
    return tokenKubeconfig(this.ca!.keyPair.certPem, server, token);
  }

  kubeconfigWithBasicAuth(server: string, username: string, password: string): string {
    return basicAuthKubeconfig(this.ca!.keyPair.certPem, server, username, password);
  }

  async stop(): Promise<void> {
    this.revisionTimes.stop();
    await this.http?.stop();
    for (const { server } of this.network.servers.values()) await server.stop();
    this.network.servers.clear();
  }

  /**
   * One request straight to a hollow kubelet's HTTPS API, as a client on the node network
   * would send it: with a client certificate of the cluster CA, a bearer token, or nothing.
   * For scenarios about the kubelet API's own guard (the API server is not involved).
   */
  async kubeletRequest(
    nodeName: string,
    caller: KubeletCaller,
    method: string,
    pathAndQuery: string,
  ): Promise<{ status: number; body: string }> {
    const entry = this.network.servers.get(nodeName);
    if (!entry) throw errors.notFound({ kind: 'kubelets', name: nodeName });
    if (!entry.kubelet.isRunning) throw errors.serviceUnavailable(`the kubelet on ${nodeName} does not answer`);
    const cert =
      'user' in caller
        ? (caller.untrustedCA ? CertificateAuthority.create('unrelated-ca', { reuseLeafKey: true }) : this.ca!).issue({
            commonName: caller.user,
            organizations: caller.groups,
            usage: 'client',
          })
        : undefined;
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          host: '127.0.0.1',
          port: entry.server.port,
          method,
          path: pathAndQuery,
          rejectUnauthorized: false,
          ...(cert ? { cert: cert.certPem, key: cert.keyPem } : {}),
          headers: 'token' in caller ? { Authorization: `Bearer ${caller.token}` } : {},
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', (e) => reject(errors.internal(`kubelet request: ${e.message}`)));
      req.end();
    });
  }

  private async serveKubelet(kubelet: HollowKubelet): Promise<void> {
    if (this.network.servers.has(kubelet.name)) return;
    const cfg = kubelet.config;
    const tls = this.kubeletCA!.issue({
      commonName: `${cfg.nodeName}@kubelet`,
      dnsNames: [cfg.hostnameOverride ?? cfg.nodeName],
      ipAddresses: [cfg.nodeIP, cfg.externalIP, cfg.hostnameOverride ?? cfg.nodeName].filter((x): x is string => !!x),
      usage: 'server',
    });
    const server = new KubeletServer(kubelet, this.cluster.clock, {
      ...tls,
      clientCA: this.ca!.keyPair.certPem,
      // Webhook mode: the kubelet asks the API server, which answers as its TokenReview and
      // SubjectAccessReview endpoints do (same code: src/apiserver/auth/reviews.ts).
      reviews: {
        reviewToken: (token) => reviewToken(this.authenticator.tokens, token),
        review: async (attrs) => (await this.authorizer!.authorize(attrs)).allowed,
      },
    });
    await server.start();
    this.network.servers.set(kubelet.name, { kubelet, server });
  }

  private clockLock?: { holder: string; expires: number };

  /**
   * POST /kubespec/v1/locks/clock {holder, ttlSeconds} → 200 when the caller holds the
   * virtual clock (free, expired, or already its own: renewed), 409 while another holds it;
   * DELETE /kubespec/v1/locks/clock/{holder} releases it. Scenarios sharing one server on a
   * virtual clock take turns with it: time another scenario moved would break their timing.
   * The ttl is wall-clock time, so a killed run's lock runs out.
   */
  private locksRoute(): NonResourceRoute {
    return {
      prefix: '/kubespec/v1/locks',
      untracked: true,
      handle: async (req, res, p, body) => {
        const now = Date.now();
        const held = this.clockLock && this.clockLock.expires > now ? this.clockLock : undefined;
        if (p === '/kubespec/v1/locks/clock' && req.method === 'GET')
          return writeJSON(
            res,
            200,
            held ? { holder: held.holder, expires: new Date(held.expires).toISOString() } : {},
          );
        if (p === '/kubespec/v1/locks/clock' && req.method === 'POST') {
          const input = parseJSON(await body()) as { holder?: unknown; ttlSeconds?: unknown };
          if (typeof input.holder !== 'string' || !input.holder || input.holder.length > 253)
            throw errors.badRequest('holder must be a non-empty string of at most 253 characters');
          const ttl = input.ttlSeconds;
          if (typeof ttl !== 'number' || !(ttl > 0 && ttl <= 86_400))
            throw errors.badRequest('ttlSeconds must be a number in (0, 86400]');
          if (held && held.holder !== input.holder)
            throw errors.conflict({ kind: 'lock', name: 'clock' }, `held by ${held.holder}`);
          this.clockLock = { holder: input.holder, expires: now + ttl * 1000 };
          return writeJSON(res, 200, { holder: input.holder, expires: new Date(this.clockLock.expires).toISOString() });
        }
        const m = /^\/kubespec\/v1\/locks\/clock\/([^/]+)$/.exec(p);
        if (m && req.method === 'DELETE') {
          if (held?.holder === decodeURIComponent(m[1])) this.clockLock = undefined;
          return writeJSON(res, 200, {});
        }
        throw errors.notFound({ kind: 'kubespec', name: p });
      },
    };
  }

  /**
   * POST /apis/authorization.k8s.io/v1/subjectaccessreviews and selfsubjectaccessreviews,
   * /apis/authentication.k8s.io/v1/tokenreviews: answered, never stored (authorized as
   * `create` on them like any resource request).
   */
  private reviewsRoute(): NonResourceRoute[] {
    const route = (
      prefix: string,
      answer: (req: IncomingMessage, input: unknown) => Promise<unknown>,
    ): NonResourceRoute => ({
      prefix,
      async handle(req, res, p, body) {
        if (p !== prefix) throw errors.notFound({ kind: '', name: p });
        if (req.method !== 'POST')
          throw errors.methodNotSupported(
            { kind: prefix.split('/').pop()!, group: prefix.split('/')[2] },
            (req.method ?? '').toLowerCase(),
          );
        const raw = await body();
        const protobuf = (req.headers['content-type'] ?? '').startsWith(PROTOBUF);
        writeJSON(res, 201, await answer(req, protobuf ? decodeProtobuf(raw) : parseJSON(raw)));
      },
    });
    return [
      route('/apis/authorization.k8s.io/v1/subjectaccessreviews', async (_req, input) =>
        subjectAccessReview(this.authorizer!, input),
      ),
      route('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', async (req, input) =>
        selfSubjectAccessReview(this.authorizer!, await this.authenticator.authenticate(req), input),
      ),
      route('/apis/authentication.k8s.io/v1/tokenreviews', async (_req, input) =>
        tokenReview(this.authenticator.tokens, input),
      ),
    ];
  }

  /** GET /kubespec/v1/clock → {now, mode}; POST {advanceSeconds} → fires due timers, settles, → {now} (409 on the real clock). */
  private clockRoute(): NonResourceRoute {
    const cluster = this.cluster;
    return {
      prefix: '/kubespec/v1/clock',
      untracked: true,
      async handle(req, res, p, body) {
        if (p !== '/kubespec/v1/clock') throw errors.notFound({ kind: 'kubespec', name: p });
        const mode = cluster.virtualClock ? 'virtual' : 'real';
        // RFC 3339 with milliseconds: clients step virtual time to the millisecond.
        if (req.method === 'GET')
          return writeJSON(res, 200, { now: new Date(cluster.clock.now()).toISOString(), mode });
        if (req.method !== 'POST') throw errors.methodNotSupported({ kind: 'clock' }, req.method ?? '');
        if (!cluster.virtualClock)
          throw errors.conflict({ kind: 'clock', name: 'real' }, 'the real clock cannot be advanced');
        const input = parseJSON(await body()) as { advanceSeconds?: unknown };
        const s = input.advanceSeconds;
        if (typeof s !== 'number' || !Number.isFinite(s) || s < 0)
          throw errors.badRequest('advanceSeconds must be a finite non-negative number');
        // Each advance fires every timer due on the way (heartbeats every few seconds per
        // node): one request may move time by at most MAX_ADVANCE_SECONDS, so it returns.
        if (s > MAX_ADVANCE_SECONDS)
          throw errors.badRequest(
            `advanceSeconds must be at most ${MAX_ADVANCE_SECONDS} (7 days) per request; got ${s}`,
          );
        await cluster.advance(Math.round(s * 1000));
        writeJSON(res, 200, { now: new Date(cluster.clock.now()).toISOString(), mode });
      },
    };
  }

  /**
   * POST /kubespec/v1/kubelets {nodeName, labels, taints, capacity, allocatable, nodeIP,
   * externalIP, hostnameOverride, podCIDR, reserved, flags} → 201; …/{name}/stop (after one
   * last heartbeat, whose time it returns as lastHeartbeat) and …/start → 200; DELETE …/{name}
   * removes the kubelet, its kube-proxy and its machine → 200 (404 when none runs).
   */
  private kubeletsRoute(): NonResourceRoute {
    const cluster = this.cluster;
    const network = this.network;
    const server = this;
    return {
      prefix: '/kubespec/v1/kubelets',
      untracked: true,
      async handle(req: IncomingMessage, res: ServerResponse, p: string, body) {
        // DELETE …/{name}: the hollow machine goes for good (clean-up on a long-lived server).
        const del = /^\/kubespec\/v1\/kubelets\/([^/]+)$/.exec(p);
        if (req.method === 'DELETE' && del) {
          const name = decodeURIComponent(del[1]);
          if (!cluster.removeKubelet(name)) throw errors.notFound({ kind: 'kubelets', name });
          const served = network.servers.get(name);
          network.servers.delete(name);
          await served?.server.stop();
          await cluster.settle();
          return writeJSON(res, 200, { nodeName: name, running: false, removed: true });
        }
        if (req.method !== 'POST') throw errors.methodNotSupported({ kind: 'kubelets' }, req.method ?? '');
        if (p === '/kubespec/v1/kubelets') {
          const input = parseJSON(await body()) as Omit<KubeletSpec, 'name' | 'taints'> & {
            nodeName?: string;
            taints?: string | KubeletSpec['taints'];
          };
          if (!input.nodeName) throw errors.badRequest('nodeName is required');
          if (cluster.kubelets.has(input.nodeName))
            throw errors.alreadyExists({ kind: 'kubelets', name: input.nodeName });
          const taints = typeof input.taints === 'string' ? parseTaints(input.taints) : input.taints;
          const { nodeName, taints: _t, ...rest } = input;
          try {
            await cluster.addKubelet({ ...rest, name: nodeName, taints });
          } catch (e) {
            if (e instanceof StatusError) throw e;
            throw errors.badRequest((e as Error).message); // a bad flag or quantity in the spec
          }
          return writeJSON(res, 201, { nodeName: input.nodeName, running: true });
        }
        const m = /^\/kubespec\/v1\/kubelets\/([^/]+)\/(stop|start|request)$/.exec(p);
        if (!m) throw errors.notFound({ kind: 'kubelets', name: p });
        if (m[2] === 'request') {
          // {method, path, caller}: one request straight to that kubelet (see kubeletRequest).
          const input = parseJSON(await body()) as { method?: string; path?: string; caller?: KubeletCaller };
          if (typeof input.path !== 'string' || !input.path.startsWith('/'))
            throw errors.badRequest('path must be an absolute path');
          const caller = input.caller ?? { anonymous: true };
          return writeJSON(
            res,
            200,
            await server.kubeletRequest(decodeURIComponent(m[1]), caller, input.method ?? 'GET', input.path),
          );
        }
        const kubelet = cluster.kubelets.get(decodeURIComponent(m[1]));
        if (!kubelet) throw errors.notFound({ kind: 'kubelets', name: decodeURIComponent(m[1]) });
        if (m[2] === 'stop') {
          const at = kubelet.isRunning ? await cluster.silenceKubelet(kubelet.name) : cluster.clock.now();
          return writeJSON(res, 200, {
            nodeName: kubelet.name,
            running: false,
            lastHeartbeat: new Date(at).toISOString(),
          });
        }
        await kubelet.start();
        await cluster.settle();
        writeJSON(res, 200, { nodeName: kubelet.name, running: kubelet.isRunning });
      },
    };
  }
}

/** The largest step of virtual time one POST /kubespec/v1/clock may ask for. */
export const MAX_ADVANCE_SECONDS = 7 * 24 * 3600;

function parseJSON(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8') || '{}');
  } catch (e) {
    throw errors.badRequest(`invalid JSON body: ${(e as Error).message}`);
  }
}

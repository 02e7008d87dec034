import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { CertificateAuthority, KeyPair, securePkiDir } from '../apiserver/auth/pki';
import { BasicAuthFile, RequestAuthenticator } from '../apiserver/auth/authenticator';
import { Authorizer } from '../apiserver/auth/authorizer';
import { authorizerFor } from '../apiserver/auth/modes';
import { reviewToken } from '../apiserver/auth/reviews';
import { ApiHttpServer, Listening } from '../apiserver/http/server';
import { KubeletClient } from '../apiserver/http/kubelet-client';
import { HollowKubelet } from '../kubelet/kubelet';
import type { Cluster } from './cluster';
import { servingOptions } from './config';
import { clockRoute, kubeletsRoute, locksRoute } from './control-routes';
import { HollowNetwork, KubeletCaller } from './hollow-network';
import { auditRoutes, cloudRoute, proxyRoute, RevisionTimes, schedulerRoute, settleRoute } from './observation-routes';
import { loadOrCreateCA, loadOrIssue } from './pki-files';
import { reviewRoutes } from './review-routes';

export type { KubeletCaller } from './hollow-network';

/**
 * Serves a Cluster over HTTP(S): the API server's ports with their PKI, authentication and
 * authorization; each hollow kubelet's HTTPS API; and kubespec's own endpoints for virtual
 * time and hollow kubelets (/kubespec/v1/clock, /kubespec/v1/kubelets). The PKI is made
 * on first start in `dir` and reused after; a kubeconfig for the admin (client certificate,
 * CN kubernetes-admin, O system:masters) is written there.
 *
 * The routes it serves besides the API are in control-routes.ts (clock, locks, kubelets),
 * review-routes.ts (TokenReview, SubjectAccessReview) and observation-routes.ts; the PKI on
 * disk in pki-files.ts; the hollow kubelets' loopback network in hollow-network.ts.
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
    const f = servingOptions(cluster.config);
    // AlwaysAllow turns anonymous requests off, whatever --anonymous-auth says (upstream's
    // ApplyAuthorization, pkg/kubeapiserver/options/authentication.go; found on v1.32.13).
    const alwaysAllow = f.authorizationMode.split(',').includes('AlwaysAllow');
    const basicAuth = f.basicAuthFile ? BasicAuthFile.load(f.basicAuthFile) : undefined;
    this.authenticator = new RequestAuthenticator({
      tokenAuthenticators: cluster.tokenAuthenticators,
      basicAuth,
      anonymous: f.anonymousAuth && !alwaysAllow,
    });
    this.revisionTimes = new RevisionTimes(cluster);
  }

  private readonly revisionTimes: RevisionTimes;

  get pkiDir(): string {
    return this.settings.pkiDir ?? path.join(this.settings.dir, 'pki');
  }

  async start(): Promise<ServedEndpoints> {
    const f = servingOptions(this.cluster.config);
    const fast = this.settings.fastKeys ?? false;
    const pki = this.pkiDir;
    securePkiDir(pki);
    const ca = (this.ca = loadOrCreateCA(pki, 'ca', 'kubernetes', fast));
    this.kubeletCA = loadOrCreateCA(pki, 'kubelet-ca', 'kubelet-ca', fast);
    const bindAddress = f.bindAddress;
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
    const kubeletCAPath = f.kubeletCertificateAuthority;
    // The API server's identity at kubelets (--kubelet-client-certificate/--kubelet-client-key);
    // without the flags, one from the cluster CA as kubeadm makes it (CN
    // kube-apiserver-kubelet-client, O system:masters), so kubelets that authenticate and
    // authorize through the API server let it in.
    const clientCertificate =
      f.kubeletClientCertificate && f.kubeletClientKey
        ? {
            certPem: fs.readFileSync(f.kubeletClientCertificate, 'utf8'),
            keyPem: fs.readFileSync(f.kubeletClientKey, 'utf8'),
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
    this.authorizer = authorizerFor(f.authorizationMode, this.cluster.api, {
      nodeReadsOwnNodeOnly: this.cluster.config.profile.features.authorizeNodeWithSelectors ?? false,
    });
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
          locksRoute(),
          settleRoute(this.cluster),
          clockRoute(this.cluster),
          kubeletsRoute(this.cluster, this.network, (...a) => this.kubeletRequest(...a)),
          schedulerRoute(this.cluster),
          cloudRoute(this.cluster),
          proxyRoute(this.cluster),
          ...auditRoutes(this.cluster),
          this.revisionTimes.route(),
          ...reviewRoutes(this.authenticator, this.authorizer),
        ],
        maxRequestsInflight: f.maxRequestsInflight,
        maxMutatingRequestsInflight: f.maxMutatingRequestsInflight,
        bodyDeadlineMs: f.requestTimeout,
      },
      {
        securePort: f.securePort,
        bindAddress,
        insecurePort: f.insecurePort,
        anyFreePort: this.settings.anyFreePort,
        insecureBindAddress: f.insecureBindAddress,
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
    await this.network.stopAll();
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
    return this.network.request(nodeName, caller, this.ca!, method, pathAndQuery);
  }

  private async serveKubelet(kubelet: HollowKubelet): Promise<void> {
    await this.network.serve(kubelet, this.cluster.clock, {
      kubeletCA: this.kubeletCA!,
      clientCA: this.ca!.keyPair.certPem,
      // Webhook mode: the kubelet asks the API server, which answers as its TokenReview and
      // SubjectAccessReview endpoints do (same code: src/apiserver/auth/reviews.ts).
      reviews: {
        reviewToken: (token) => reviewToken(this.authenticator.tokens, token),
        review: async (attrs) => (await this.authorizer!.authorize(attrs)).allowed,
      },
    });
  }
}

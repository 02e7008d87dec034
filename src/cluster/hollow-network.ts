import * as https from 'node:https';
import { CertificateAuthority } from '../apiserver/auth/pki';
import { NodeDialer } from '../apiserver/http/kubelet-client';
import { errors } from '../api/errors';
import type { Pod } from '../api/core';
import type { Clock } from '../clock';
import type { KubeletReviews } from '../kubelet/auth';
import { HollowKubelet } from '../kubelet/kubelet';
import { KubeletServer } from '../kubelet/server';

/** Who calls a kubelet directly: a client certificate's user and groups, a bearer token, or nobody. */
export type KubeletCaller =
  | { user: string; groups: string[]; untrustedCA?: boolean }
  | { token: string }
  | { anonymous: true };

/** What a hollow kubelet's HTTPS API is served with (see HollowNetwork.serve). */
export interface KubeletServingPki {
  /** Issues each kubelet's serving certificate (the API server's --kubelet-certificate-authority trusts it). */
  kubeletCA: CertificateAuthority;
  /** The kubelet's --client-ca-file: the cluster CA, whose client certificates authenticate. */
  clientCA: string;
  /** Webhook authentication and authorization: TokenReview and SubjectAccessReview at the API server. */
  reviews: KubeletReviews;
}

/** The addresses a node publishes (status.addresses), which its serving certificate names. */
export function nodeAddresses(kubelet: HollowKubelet): string[] {
  const c = kubelet.config;
  return [c.nodeIP, c.externalIP, c.hostnameOverride ?? c.nodeName].filter((x): x is string => !!x);
}

/**
 * Hollow nodes all listen on loopback; this maps each node to its kubelet's real port. Both
 * `kubespec serve` (ClusterServer) and the kube driver's kubelets on a real cluster
 * (src/drivers/kubelet-network.ts) serve their kubelets through it.
 */
export class HollowNetwork implements NodeDialer {
  readonly servers = new Map<string, { kubelet: HollowKubelet; server: KubeletServer }>();

  /**
   * Starts a kubelet's HTTPS API on a free loopback port, with a serving certificate of the
   * kubelet CA that names every address of the node (so an API server that verifies it with
   * --kubelet-certificate-authority accepts it whichever address it dials).
   */
  async serve(kubelet: HollowKubelet, clock: Clock, pki: KubeletServingPki): Promise<void> {
    if (this.servers.has(kubelet.name)) return;
    const cfg = kubelet.config;
    const tls = pki.kubeletCA.issue({
      commonName: `${cfg.nodeName}@kubelet`,
      dnsNames: [cfg.hostnameOverride ?? cfg.nodeName],
      ipAddresses: nodeAddresses(kubelet),
      usage: 'server',
    });
    const server = new KubeletServer(kubelet, clock, { ...tls, clientCA: pki.clientCA, reviews: pki.reviews });
    await server.start();
    this.servers.set(kubelet.name, { kubelet, server });
  }

  async stopAll(): Promise<void> {
    for (const { server } of this.servers.values()) await server.stop();
    this.servers.clear();
  }

  /** The served kubelet a node address (any of status.addresses) names. */
  byAddress(host: string): { kubelet: HollowKubelet; server: KubeletServer } | undefined {
    for (const s of this.servers.values()) if (nodeAddresses(s.kubelet).includes(host)) return s;
    return undefined;
  }

  /** The running pod with this IP on a served, running kubelet, and its node's name. */
  podByIP(ip: string): { pod: Pod; nodeName: string } | undefined {
    for (const { kubelet } of this.servers.values()) {
      if (!kubelet.isRunning) continue;
      const pod = kubelet.pods.running().find((p) => p.status?.podIP === ip && !p.spec.hostNetwork);
      if (pod) return { pod, nodeName: kubelet.name };
    }
    return undefined;
  }

  dial(nodeName: string): { host: string; port: number } | undefined {
    const s = this.servers.get(nodeName);
    if (!s?.kubelet.isRunning) return undefined; // a stopped kubelet is a machine that does not answer
    return { host: '127.0.0.1', port: s.server.port };
  }

  /**
   * One request straight to a hollow kubelet's HTTPS API, as a client on the node network
   * would send it: with a client certificate of the cluster CA, a bearer token, or nothing.
   * For scenarios about the kubelet API's own guard (the API server is not involved).
   */
  async request(
    nodeName: string,
    caller: KubeletCaller,
    ca: CertificateAuthority,
    method: string,
    pathAndQuery: string,
  ): Promise<{ status: number; body: string }> {
    const entry = this.servers.get(nodeName);
    if (!entry) throw errors.notFound({ kind: 'kubelets', name: nodeName });
    if (!entry.kubelet.isRunning) throw errors.serviceUnavailable(`the kubelet on ${nodeName} does not answer`);
    const cert =
      'user' in caller
        ? (caller.untrustedCA ? CertificateAuthority.create('unrelated-ca', { reuseLeafKey: true }) : ca).issue({
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
}

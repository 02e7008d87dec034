import * as https from 'node:https';
import { CertificateAuthority } from '../apiserver/auth/pki';
import { NodeDialer } from '../apiserver/http/kubelet-client';
import { errors } from '../api/errors';
import { HollowKubelet } from '../kubelet/kubelet';
import { KubeletServer } from '../kubelet/server';

/** Who calls a kubelet directly: a client certificate's user and groups, a bearer token, or nobody. */
export type KubeletCaller =
  | { user: string; groups: string[]; untrustedCA?: boolean }
  | { token: string }
  | { anonymous: true };

/** Hollow nodes all listen on loopback; this maps each node to its kubelet's real port. */
export class HollowNetwork implements NodeDialer {
  readonly servers = new Map<string, { kubelet: HollowKubelet; server: KubeletServer }>();

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

import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { Cluster } from '../src/cluster/cluster';
import { clusterConfig } from '../src/profile/config';
import { loadProfile } from '../src/profile/profile';
import { ClusterServer } from '../src/cluster/serving';

/**
 * A served cluster (RBAC on, HTTPS) and raw HTTP requests as any user, for the hostile-input
 * suites: every request is sent byte for byte as given, so malformed bodies, paths and
 * headers reach the server as an attacker would send them.
 */
export interface Answer {
  code: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: the parsed answer, read by path in assertions (a wrong path fails them)
  json?: any;
}

export type Caller = (
  method: string,
  p: string,
  body?: string | Buffer,
  headers?: Record<string, string>,
) => Promise<Answer>;

export interface Served {
  cluster: Cluster;
  server: ClusterServer;
  url: string;
  admin: Caller;
  /** A caller authenticated as user (client certificate), in groups. */
  as(user: string, groups?: string[]): Caller;
  stop(): Promise<void>;
}

/** The fields of a kubeconfig as ClusterServer writes it (one cluster, one user) that a raw client needs. */
interface KubeconfigFile {
  clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { user: { 'client-certificate-data'?: string; 'client-key-data'?: string } }[];
}

/** The server, its CA and the user's client certificate and key from a kubeconfig ClusterServer wrote. */
export function credentialsOf(kubeconfig: string): { server: URL; ca: Buffer; cert?: Buffer; key?: Buffer } {
  const kc = yaml.load(kubeconfig) as KubeconfigFile;
  const u = kc.users[0].user;
  const bytes = (b64: string | undefined) => (b64 ? Buffer.from(b64, 'base64') : undefined);
  return {
    server: new URL(kc.clusters[0].cluster.server),
    ca: Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64'),
    cert: bytes(u['client-certificate-data']),
    key: bytes(u['client-key-data']),
  };
}

/**
 * One raw HTTPS request and its answer. A stream (a watch that started) never ends: with
 * hangUpOn200 a 200 is taken at its headers and the connection closed.
 */
export function requestAnswer(
  options: https.RequestOptions,
  body: string | Buffer | undefined,
  hangUpOn200 = false,
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const req = https.request({ ...options, agent: false }, (res) => {
      if (hangUpOn200 && res.statusCode === 200) {
        resolve({ code: 200, headers: res.headers, text: '' });
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ code: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function callerFrom(kubeconfig: string): Caller {
  const { server, ca, cert, key } = credentialsOf(kubeconfig);
  return (method, p, body, headers = {}) => {
    const h: Record<string, string | number> = { ...headers };
    if (body !== undefined && !h['Content-Type']) h['Content-Type'] = 'application/json';
    if (body !== undefined) h['Content-Length'] = Buffer.byteLength(body);
    return requestAnswer(
      { host: server.hostname, port: server.port, method, path: p, ca, cert, key, headers: h },
      body,
    );
  };
}

export async function served(options: { profile?: string; flags?: Record<string, string> } = {}): Promise<Served> {
  const cluster = new Cluster({
    config: clusterConfig(loadProfile(options.profile ?? 'kubernetes-1.32'), {
      'kube-apiserver': { 'authorization-mode': 'RBAC', ...options.flags },
    }),
  });
  await cluster.start();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-hostile-'));
  const server = new ClusterServer(cluster, { dir, fastKeys: true, anyFreePort: true });
  const e = await server.start();
  const admin = callerFrom(fs.readFileSync(e.kubeconfig, 'utf8'));
  return {
    cluster,
    server,
    url: e.server,
    admin,
    as: (user, groups = []) => callerFrom(server.kubeconfigFor(e.server, user, groups)),
    stop: async () => {
      await server.stop();
      await cluster.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Grants user the verbs on resources in namespace ns (a Role and a RoleBinding made by the admin). */
export async function grant(
  s: Served,
  ns: string,
  user: string,
  rules: { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] }[],
  name = `${user}-role`,
): Promise<void> {
  const ok = (a: Answer) => {
    if (a.code >= 300 && a.code !== 409) throw new Error(`${a.code} ${a.text}`);
  };
  ok(await s.admin('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } })));
  ok(
    await s.admin(
      'POST',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
      JSON.stringify({ metadata: { name }, rules }),
    ),
  );
  ok(
    await s.admin(
      'POST',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
      JSON.stringify({
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
        subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }],
      }),
    ),
  );
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

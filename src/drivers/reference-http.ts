import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Cluster } from '../cluster/cluster';
import { ClusterServer, kubeconfigYaml } from '../cluster/serving';
import { loadOrCreateCA } from '../cluster/pki-files';
import { Credentials, HttpAccess, HttpEndpoint, kubeletCaller } from './driver';

/** One PKI per process, made on first use and shared by every scenario's cluster (RSA keys are slow). */
const PKI_DIR = path.join(os.tmpdir(), `kubespec-pki-${process.pid}`);
process.once('exit', () => fs.rmSync(PKI_DIR, { recursive: true, force: true }));
let rootCA: string | undefined;

/** The certificate of the CA the process's clusters are served with, made on first use. */
export function referenceRootCA(): string {
  return (rootCA ??= loadOrCreateCA(PKI_DIR, 'ca', 'kubernetes', true).keyPair.certPem);
}

/**
 * The reference target's HTTP(S) face: on demand, the scenario's in-process cluster is
 * served on free loopback ports exactly as `kubespec serve` serves it (same ClusterServer),
 * with a private directory for kubeconfigs.
 */
export class ReferenceHttp implements HttpAccess {
  readonly files = { kubeletCA: path.join(PKI_DIR, 'kubelet-ca.crt') };
  private server?: ClusterServer;
  private endpoint?: HttpEndpoint;
  private dir?: string;
  private count = 0;

  constructor(private readonly cluster: () => Promise<Cluster>) {}

  async serve(): Promise<HttpEndpoint> {
    if (this.endpoint) return this.endpoint;
    const cluster = await this.cluster();
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-serve-'));
    this.server = new ClusterServer(cluster, { dir: this.dir, pkiDir: PKI_DIR, fastKeys: true, anyFreePort: true });
    const e = await this.server.start();
    this.endpoint = { server: e.server, secure: e.secure, insecure: e.insecure, caFile: e.caFile };
    return this.endpoint;
  }

  async kubeconfig(credentials: Credentials): Promise<string> {
    const e = await this.serve();
    const file = path.join(this.dir!, `kubeconfig-${++this.count}`);
    let text: string;
    if ('admin' in credentials) text = fs.readFileSync(path.join(this.dir!, 'admin.kubeconfig'), 'utf8');
    else if ('insecurePort' in credentials) {
      if (!e.insecure) throw new Error('the insecure port is off (--insecure-port 0)');
      text = kubeconfigYaml(`http://${e.insecure.host}:${e.insecure.port}`, 'insecure', {});
    } else if ('user' in credentials) text = this.server!.kubeconfigFor(e.server, credentials.user, credentials.groups);
    else if ('token' in credentials) text = this.server!.kubeconfigWithToken(e.server, credentials.token);
    else if ('basic' in credentials)
      text = this.server!.kubeconfigWithBasicAuth(e.server, credentials.basic.username, credentials.basic.password);
    else text = this.server!.kubeconfigWithToken(e.server, undefined);
    fs.writeFileSync(file, text, { mode: 0o600 });
    return file;
  }

  async kubelet(
    node: string,
    credentials: Credentials,
    method: string,
    p: string,
  ): Promise<{ status: number; body: string }> {
    await this.serve();
    return this.server!.kubeletRequest(node, kubeletCaller(credentials), method, p);
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.server = undefined;
    this.endpoint = undefined;
  }
}

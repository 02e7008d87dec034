import { generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CertificateAuthority, KeyPair } from '../../apiserver/auth/pki';
import { kubeconfigYaml } from '../../cluster/serving';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/**
 * The PKI of every upstream control plane this process starts: one CA (client CA and
 * serving CA), leaf certificates sharing one key (RSA is slow on shared cores), and the
 * service-account key pair. Made once per process, in a directory removed when the process exits.
 */
export class UpstreamPki {
  readonly dir: string;
  readonly ca: CertificateAuthority;
  /** Issues the hollow kubelets' serving certificates (HttpAccess.files.kubeletCA is its certificate). */
  readonly kubeletCA: CertificateAuthority;
  private readonly issued = new Map<string, KeyPair>();

  constructor() {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `kubespec-upstream-pki-${process.pid}-`));
    process.once('exit', () => fs.rmSync(this.dir, { recursive: true, force: true }));
    this.ca = CertificateAuthority.create('kubespec-upstream-ca', { reuseLeafKey: true });
    fs.writeFileSync(this.file('ca.crt'), this.ca.certPem);
    fs.writeFileSync(this.file('ca.key'), this.ca.keyPair.keyPem, { mode: 0o600 });
    const serving = this.ca.issue({
      commonName: 'kube-apiserver',
      dnsNames: ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'],
      ipAddresses: ['127.0.0.1'],
      usage: 'server',
    });
    fs.writeFileSync(this.file('apiserver.crt'), serving.certPem);
    fs.writeFileSync(this.file('apiserver.key'), serving.keyPem, { mode: 0o600 });
    // The kubelets' own CA, as on a kubeadm cluster whose kubelets serve certificates the
    // cluster CA did not sign: a scenario names it in --kubelet-certificate-authority.
    this.kubeletCA = CertificateAuthority.create('kubespec-upstream-kubelet-ca', { reuseLeafKey: true });
    fs.writeFileSync(this.file('kubelet-ca.crt'), this.kubeletCA.certPem);
    // The API server's identity at the kubelets (--kubelet-client-certificate/-key), as
    // kubeadm issues it: CN kube-apiserver-kubelet-client, O system:masters, so kubelets that
    // authorize through SubjectAccessReviews let it in.
    const kubeletClient = this.client('kube-apiserver-kubelet-client', ['system:masters']);
    fs.writeFileSync(this.file('apiserver-kubelet-client.crt'), kubeletClient.certPem);
    fs.writeFileSync(this.file('apiserver-kubelet-client.key'), kubeletClient.keyPem, { mode: 0o600 });
    // Service-account tokens: the controller manager signs with the private key, the API server verifies with it too.
    const sa = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    fs.writeFileSync(this.file('sa.key'), sa.privateKey, { mode: 0o600 });
    fs.writeFileSync(this.file('sa.pub'), sa.publicKey);
  }

  file(name: string): string {
    return path.join(this.dir, name);
  }

  /** A client certificate (CN = user, O = groups), issued once per identity. */
  client(user: string, groups: string[]): KeyPair {
    const key = `${user}|${groups.join(',')}`;
    let pair = this.issued.get(key);
    if (!pair) {
      pair = this.ca.issue({ commonName: user, organizations: groups, usage: 'client' });
      this.issued.set(key, pair);
    }
    return pair;
  }

  kubeconfig(server: string, user: string, groups: string[]): string {
    const pair = this.client(user, groups);
    return kubeconfigYaml(
      server,
      user,
      { 'client-certificate-data': b64(pair.certPem), 'client-key-data': b64(pair.keyPem) },
      this.ca.certPem,
    );
  }
}

let shared: UpstreamPki | undefined;

/**
 * The process's PKI, made again if its directory went (a clean-up of /tmp by something else
 * on the machine took it mid-run once, failing every later scenario at start-up).
 */
export function upstreamPki(): UpstreamPki {
  if (!shared || !fs.existsSync(shared.file('sa.key'))) shared = new UpstreamPki();
  return shared;
}

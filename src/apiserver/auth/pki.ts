import { createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import * as forge from 'node-forge';

/**
 * Certificates for the secure port, the admin's client certificate and the kubelets'
 * serving certificates: a CA signs them all, as kubeadm lays a cluster out. Keys come
 * from node's crypto (RSA 2048); node-forge builds and signs the X.509 certificates.
 */
export interface KeyPair {
  certPem: string;
  keyPem: string;
}

export interface CertificateRequest {
  commonName: string;
  /** Organisations: Kubernetes reads each O of a client certificate as a group. */
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  usage: 'server' | 'client' | 'both';
  validDays?: number;
}

function newKey(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

function serial(): string {
  const b = randomBytes(16);
  // Positive (high bit clear) and minimal: a leading zero byte would be DER "illegal padding"
  // that OpenSSL refuses, failing one certificate in 128.
  b[0] = b[0] & 0x7f || 0x01;
  return b.toString('hex');
}

/**
 * A subject attribute, encoded as Go's encoding/asn1 marshals a string: PrintableString when
 * every character is printable in ASN.1's sense, else UTF8String. node-forge writes every
 * value as PrintableString, so a kubelet's CN "{node}@kubelet" (as upstream's self-signed
 * one, "{hostname}@{timestamp}") was refused by Go's TLS client ("x509: invalid RDNSequence:
 * invalid attribute value: invalid PrintableString"; found on upstream v1.32), though Node's
 * TLS took it.
 */
function attribute(name: string, value: string): { name: string; value: string; valueTagClass?: number } {
  if (/^[A-Za-z0-9 '()+,\-./:=?]*$/.test(value)) return { name, value };
  return { name, value, valueTagClass: forge.asn1.Type.UTF8 };
}

function validity(cert: forge.pki.Certificate, days: number): void {
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(now + days * 24 * 60 * 60 * 1000);
}

export class CertificateAuthority {
  private constructor(
    readonly certPem: string,
    private readonly keyPem: string,
    private readonly sharedKey?: { privateKey: string; publicKey: string },
  ) {}

  /**
   * A new self-signed CA. With reuseLeafKey, every certificate it issues shares one key
   * pair (hollow kubelets by the hundred would otherwise spend seconds on RSA).
   */
  static create(commonName: string, options: { reuseLeafKey?: boolean } = {}): CertificateAuthority {
    const { privateKey, publicKey } = newKey();
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
    cert.serialNumber = serial();
    validity(cert, 3650);
    const subject = [{ name: 'commonName', value: commonName }];
    cert.setSubject(subject);
    cert.setIssuer(subject);
    cert.setExtensions([
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ]);
    cert.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
    return new CertificateAuthority(
      forge.pki.certificateToPem(cert),
      privateKey,
      options.reuseLeafKey ? newKey() : undefined,
    );
  }

  static load(pair: KeyPair, options: { reuseLeafKey?: boolean } = {}): CertificateAuthority {
    return new CertificateAuthority(pair.certPem, pair.keyPem, options.reuseLeafKey ? newKey() : undefined);
  }

  get keyPair(): KeyPair {
    return { certPem: this.certPem, keyPem: this.keyPem };
  }

  /**
   * Whether a key pair kept from an earlier start may serve this request again: this CA
   * signed it, its key matches, it is valid for another day, and its subject, usages and names
   * are the ones issue(req) would write. kubeadm reuses the certificates on disk so, and
   * kube-apiserver its self-signed serving pair in --cert-dir; a new RSA key costs a
   * noticeable part of a second, which every start of `kubespec serve` would otherwise pay.
   */
  issued(pair: KeyPair, req: CertificateRequest): boolean {
    try {
      const cert = new X509Certificate(pair.certPem);
      const ca = new X509Certificate(this.certPem);
      if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey) || !cert.checkPrivateKey(createPrivateKey(pair.keyPem)))
        return false;
      if (Date.parse(cert.validTo) < Date.now() + 24 * 60 * 60 * 1000) return false;
      const subject = [...(req.organizations ?? []).map((o) => `O=${o}`), `CN=${req.commonName}`].join('\n');
      // Node writes IPv6 addresses in full (0:0:0:0:0:0:0:1): both sides in URL form (::1).
      const ip = (a: string) => (isIP(a) === 6 ? new URL(`http://[${a}]`).hostname : a);
      const names = [
        ...(req.dnsNames ?? []).map((d) => `DNS:${d}`),
        ...(req.ipAddresses ?? []).filter((a) => isIP(a)).map((a) => `IP Address:${ip(a)}`),
      ].join(', ');
      const written = (cert.subjectAltName ?? '')
        .split(', ')
        .filter(Boolean)
        .map((n) => (n.startsWith('IP Address:') ? `IP Address:${ip(n.slice(11))}` : n))
        .join(', ');
      const usages = [
        ...(req.usage !== 'client' ? ['1.3.6.1.5.5.7.3.1'] : []),
        ...(req.usage !== 'server' ? ['1.3.6.1.5.5.7.3.2'] : []),
      ];
      return (
        cert.subject === subject &&
        written === names &&
        [...(cert.keyUsage ?? [])].sort().join() === usages.sort().join()
      );
    } catch {
      return false; // unreadable or half-written: issue a new one
    }
  }

  issue(req: CertificateRequest): KeyPair {
    const { privateKey, publicKey } = this.sharedKey ?? newKey();
    const caCert = forge.pki.certificateFromPem(this.certPem);
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
    cert.serialNumber = serial();
    validity(cert, req.validDays ?? 365);
    cert.setSubject([
      ...(req.organizations ?? []).map((o) => attribute('organizationName', o)),
      attribute('commonName', req.commonName),
    ]);
    cert.setIssuer(caCert.subject.attributes);
    const altNames = [
      ...(req.dnsNames ?? []).map((value) => ({ type: 2, value })),
      ...(req.ipAddresses ?? []).filter((ip) => isIP(ip)).map((ip) => ({ type: 7, ip })),
    ];
    cert.setExtensions([
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: req.usage !== 'client', clientAuth: req.usage !== 'server' },
      ...(altNames.length ? [{ name: 'subjectAltName', altNames }] : []),
      { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
    ]);
    cert.sign(forge.pki.privateKeyFromPem(this.keyPem), forge.md.sha256.create());
    return { certPem: forge.pki.certificateToPem(cert), keyPem: privateKey };
  }
}

/**
 * The PKI directory as a control plane keeps it (kubeadm's /etc/kubernetes/pki): the
 * directory 0700 and every file 0600, set on each start. A CA certificate or key that
 * others could have written is refused: whoever can replace it can mint identities.
 */
export function securePkiDir(dir: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const path = require('node:path') as typeof import('node:path');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    const st = fs.lstatSync(file);
    if (!st.isFile()) continue;
    if (/(^|-)ca\.(crt|key)$/.test(name) && (st.mode & 0o022) !== 0) {
      throw new Error(
        `refusing to start: ${file} is writable by group or others (mode ${(st.mode & 0o777).toString(8)}); whoever can write a CA can mint any identity`,
      );
    }
    if ((st.mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  }
  if ((fs.statSync(dir).mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}

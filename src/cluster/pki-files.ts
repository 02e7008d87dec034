import * as fs from 'node:fs';
import * as path from 'node:path';
import { CertificateAuthority, CertificateRequest, KeyPair } from '../apiserver/auth/pki';

/**
 * The served cluster's PKI on disk: its certificate authorities and the pairs they issued,
 * made on the first start and reused by the next while they still fit, so clients keep the
 * kubeconfigs and CA files they were given.
 */

export function loadOrCreateCA(dir: string, name: string, commonName: string, fast: boolean): CertificateAuthority {
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
export function loadOrIssue(ca: CertificateAuthority, dir: string, name: string, req: CertificateRequest): KeyPair {
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

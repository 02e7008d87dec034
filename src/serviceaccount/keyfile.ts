import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateKeyPairSync } from 'node:crypto';

/**
 * The service-account signing key kept on disk (kubeadm's pki/sa.key, given to
 * kube-controller-manager as --service-account-private-key-file and to kube-apiserver as
 * --service-account-key-file): made once, read on every later start, so the tokens the
 * cluster issued keep verifying after a restart. Returns the private key's PEM.
 */
export function loadOrCreateServiceAccountKey(pkiDir: string): string {
  const file = path.join(pkiDir, 'sa.key');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  fs.mkdirSync(pkiDir, { recursive: true, mode: 0o700 });
  // Written whole to a temporary name, then renamed: a crash leaves the old file or the new one, never half of one.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, pem, { mode: 0o600 });
  fs.renameSync(tmp, file);
  fs.writeFileSync(path.join(pkiDir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }).toString(), {
    mode: 0o644,
  });
  return pem;
}

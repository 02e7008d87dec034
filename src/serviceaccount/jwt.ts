import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, sign, verify } from 'node:crypto';

/** Claims of a legacy (secret-based) service account token, as upstream's legacy claims. */
export interface ServiceAccountClaims {
  iss: string;
  sub: string;
  'kubernetes.io/serviceaccount/namespace': string;
  'kubernetes.io/serviceaccount/secret.name': string;
  'kubernetes.io/serviceaccount/service-account.name': string;
  'kubernetes.io/serviceaccount/service-account.uid': string;
}

export const LEGACY_ISSUER = 'kubernetes/serviceaccount';

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/**
 * Signs and verifies service-account JWTs with the cluster's key (kube-controller-manager
 * --service-account-private-key-file, kube-apiserver --service-account-key-file). ES256,
 * one of the algorithms upstream accepts, because its keys are quick to make per cluster.
 */
export class TokenSigner {
  private readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;

  constructor(privateKeyPem?: string) {
    if (privateKeyPem) {
      this.privateKey = createPrivateKey(privateKeyPem);
      this.publicKey = createPublicKey(this.privateKey);
    } else {
      const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      this.privateKey = pair.privateKey;
      this.publicKey = pair.publicKey;
    }
  }

  sign(claims: object): string {
    const header = b64url(JSON.stringify({ alg: 'ES256', kid: '' }));
    const payload = b64url(JSON.stringify(claims));
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), {
      key: this.privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    return `${header}.${payload}.${b64url(signature)}`;
  }

  /** The claims when the signature is this cluster's, else undefined. */
  verify<T = Record<string, unknown>>(token: string): T | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    try {
      const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as { alg?: string };
      if (header.alg !== 'ES256') return undefined;
      const ok = verify(
        'sha256',
        Buffer.from(`${parts[0]}.${parts[1]}`),
        { key: this.publicKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(parts[2], 'base64url'),
      );
      return ok ? (JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as T) : undefined;
    } catch {
      return undefined;
    }
  }
}

export function legacyClaims(
  namespace: string,
  account: string,
  accountUID: string,
  secretName: string,
): ServiceAccountClaims {
  return {
    iss: LEGACY_ISSUER,
    sub: `system:serviceaccount:${namespace}:${account}`,
    'kubernetes.io/serviceaccount/namespace': namespace,
    'kubernetes.io/serviceaccount/secret.name': secretName,
    'kubernetes.io/serviceaccount/service-account.name': account,
    'kubernetes.io/serviceaccount/service-account.uid': accountUID,
  };
}

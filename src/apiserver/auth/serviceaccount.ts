import { timingSafeEqual } from 'node:crypto';
import { isStatusError } from '../../api/errors';
import { UserInfo } from '../../api/request';
import type { TokenAuthenticator } from './authenticator';
import type { ApiServer } from '../apiserver';
import { Secret } from '../../api/resources/secret';
import { ServiceAccount } from '../../api/resources/serviceaccount';
import { LEGACY_ISSUER, ServiceAccountClaims, TokenSigner } from '../../serviceaccount/jwt';

/**
 * The API server's service-account token authenticator (upstream legacy validator,
 * pkg/serviceaccount/legacy.go): the signature must be the cluster's, and — with
 * --service-account-lookup, the default — the secret and the account must still exist
 * with the account's uid, and the secret must still hold this very token
 * (the legacy validator's ConstantTimeCompare with the secret's data.token). The user is system:serviceaccount:<ns>:<name> in the groups
 * system:serviceaccounts, system:serviceaccounts:<ns> and system:authenticated.
 */
export class ServiceAccountAuthenticator implements TokenAuthenticator {
  constructor(
    private readonly signer: TokenSigner,
    private readonly api: ApiServer,
  ) {}

  authenticateToken(token: string): Promise<UserInfo | undefined> {
    return this.authenticate(token);
  }

  /** The object, or undefined when it is not found (the token is then invalid, as upstream's "Token has been invalidated"). */
  private async found<T>(p: Promise<T>): Promise<T | undefined> {
    try {
      return await p;
    } catch (e) {
      if (isStatusError(e, 'NotFound')) return undefined;
      throw e;
    }
  }

  async authenticate(token: string): Promise<UserInfo | undefined> {
    const claims = this.signer.verify<ServiceAccountClaims>(token);
    if (!claims || claims.iss !== LEGACY_ISSUER) return undefined;
    const ns = claims['kubernetes.io/serviceaccount/namespace'];
    const name = claims['kubernetes.io/serviceaccount/service-account.name'];
    const secretName = claims['kubernetes.io/serviceaccount/secret.name'];
    if (!ns || !name || !secretName || claims.sub !== `system:serviceaccount:${ns}:${name}`) return undefined;
    const secret = await this.found(this.api.storage<Secret>({ resource: 'secrets' }).get(ns, secretName));
    // The token must be the one its secret holds: deleting the secret revokes it, and a new
    // secret of the same name (another token, or none) does not bring it back.
    if (!secret || secret.metadata.deletionTimestamp || !sameToken(secret.data?.token, token)) return undefined;
    const sa = await this.found(this.api.storage<ServiceAccount>({ resource: 'serviceaccounts' }).get(ns, name));
    if (
      !sa ||
      sa.metadata.deletionTimestamp ||
      sa.metadata.uid !== claims['kubernetes.io/serviceaccount/service-account.uid']
    )
      return undefined;
    return {
      username: `system:serviceaccount:${ns}:${name}`,
      uid: claims['kubernetes.io/serviceaccount/service-account.uid'],
      groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
    };
  }
}

/** The secret's data.token (base64) against the token presented, in constant time (subtle.ConstantTimeCompare upstream). */
function sameToken(stored: string | undefined, token: string): boolean {
  if (!stored) return false;
  const a = Buffer.from(stored, 'base64');
  const b = Buffer.from(token, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

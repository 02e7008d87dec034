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
 * with the account's uid. The user is system:serviceaccount:<ns>:<name> in the groups
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

  async authenticate(token: string): Promise<UserInfo | undefined> {
    const claims = this.signer.verify<ServiceAccountClaims>(token);
    if (!claims || claims.iss !== LEGACY_ISSUER) return undefined;
    const ns = claims['kubernetes.io/serviceaccount/namespace'];
    const name = claims['kubernetes.io/serviceaccount/service-account.name'];
    try {
      const secret = await this.api
        .storage<Secret>({ resource: 'secrets' })
        .get(ns, claims['kubernetes.io/serviceaccount/secret.name']);
      const sa = await this.api.storage<ServiceAccount>({ resource: 'serviceaccounts' }).get(ns, name);
      if (
        sa.metadata.uid !== claims['kubernetes.io/serviceaccount/service-account.uid'] ||
        secret.metadata.deletionTimestamp
      )
        return undefined;
    } catch {
      return undefined;
    }
    return {
      username: `system:serviceaccount:${ns}:${name}`,
      uid: claims['kubernetes.io/serviceaccount/service-account.uid'],
      groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
    };
  }
}

import { clone } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { Secret, SA_NAME_ANNOTATION, SA_UID_ANNOTATION, SERVICE_ACCOUNT_TOKEN } from '../../api/resources/secret';
import { ServiceAccount } from '../../api/resources/serviceaccount';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { legacyClaims, TokenSigner } from '../../serviceaccount/jwt';
import { keyOf } from '../ownership';
import { randomSuffix } from '../../api/names';
import { ControllerBase } from '../controller-base';

export interface TokensOptions {
  /** Create a token secret for every account (before v1.24, LegacyServiceAccountTokenNoAutoGeneration). */
  autoGenerate: boolean;
  /** The cluster's root CA (PEM) put into each secret as ca.crt, when the cluster has one. */
  rootCA?: string;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/**
 * The token controller (pkg/controller/serviceaccount/tokens_controller.go): fills every
 * kubernetes.io/service-account-token secret with a signed token, the namespace and the
 * root CA; with auto-generation (legacy) it also gives each account such a secret
 * (`<account>-token-<5>`) listed in its `secrets`; it removes the secrets of deleted
 * accounts and drops references to deleted secrets (a new one is then made).
 */
export class TokensController extends ControllerBase {
  private readonly accounts: Informer<ServiceAccount>;
  private readonly secrets: Informer<Secret>;
  private readonly queue: WorkQueue;

  constructor(
    ctx: ControllerContext,
    private readonly signer: TokenSigner,
    private readonly options: TokensOptions,
  ) {
    super(ctx);
    this.accounts = ctx.informer<ServiceAccount>({ resource: 'serviceaccounts' });
    this.secrets = ctx.informer<Secret>({ resource: 'secrets' });
    this.secrets.addIndexer('account', (s) =>
      s.type === SERVICE_ACCOUNT_TOKEN
        ? [keyOf(s.metadata.namespace, s.metadata.annotations?.[SA_NAME_ANNOTATION] ?? '')]
        : [],
    );
    this.queue = ctx.workQueue((key) => this.sync(key), {
      name: 'tokens',
      workers: 5,
    });
  }

  run(): void {
    const account = (sa: ServiceAccount) => this.queue.add(`sa|${keyOf(sa.metadata.namespace, sa.metadata.name!)}`);
    this.ctx.handle(this.accounts, { onAdd: account, onUpdate: (_o, n) => account(n), onDelete: account });
    const secret = (s: Secret) => {
      if (s.type !== SERVICE_ACCOUNT_TOKEN) return;
      this.queue.add(`secret|${keyOf(s.metadata.namespace, s.metadata.name!)}`);
      this.queue.add(`sa|${keyOf(s.metadata.namespace, s.metadata.annotations?.[SA_NAME_ANNOTATION] ?? '')}`);
    };
    this.ctx.handle(this.secrets, { onAdd: secret, onUpdate: (_o, n) => secret(n), onDelete: secret });
  }

  async sync(key: string): Promise<void> {
    const [kind, rest] = key.split('|');
    const [namespace, name] = rest.split('/');
    if (kind === 'sa') await this.syncAccount(namespace, name);
    else await this.syncSecret(namespace, name);
  }

  private async syncAccount(namespace: string, name: string): Promise<void> {
    const sa = this.accounts.getByName(name, namespace);
    const tokens = this.secrets.byIndex('account', keyOf(namespace, name));
    if (!sa) {
      for (const s of tokens) await this.deleteSecret(s);
      return;
    }
    const listed = sa.secrets ?? [];
    const live = listed.filter((ref) => this.secrets.getByName(ref.name, namespace));
    if (live.length !== listed.length) {
      const next = clone(sa);
      next.secrets = live;
      await this.client.update<ServiceAccount>({ resource: 'serviceaccounts', namespace }, next).catch((e) => {
        if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
      });
      return; // the update brings the account back here
    }
    if (
      !this.options.autoGenerate ||
      live.some((ref) => this.secrets.getByName(ref.name, namespace)?.type === SERVICE_ACCOUNT_TOKEN)
    )
      return;
    // Upstream re-reads the account live: a stale cache must not make a second token.
    // Gone is an answer (nothing to do); any other failure goes back to the queue, which retries it.
    const fresh = await this.client.get<ServiceAccount>({ resource: 'serviceaccounts', namespace }, name).catch((e) => {
      if (isStatusError(e, 'NotFound')) return undefined;
      throw e;
    });
    if (!fresh || fresh.metadata.resourceVersion !== sa.metadata.resourceVersion) return;
    const secretName = `${name}-token-${randomSuffix()}`;
    try {
      await this.client.create<Secret>(
        { resource: 'secrets', namespace },
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: {
            name: secretName,
            namespace,
            annotations: { [SA_NAME_ANNOTATION]: name, [SA_UID_ANNOTATION]: sa.metadata.uid! },
          },
          type: SERVICE_ACCOUNT_TOKEN,
          data: this.tokenData(namespace, name, sa.metadata.uid!, secretName),
        },
      );
      const next = clone(sa);
      next.secrets = [...listed, { name: secretName }];
      await this.client.update<ServiceAccount>({ resource: 'serviceaccounts', namespace }, next);
    } catch (e) {
      if (isStatusError(e, 'Forbidden') || isStatusError(e, 'NotFound')) return;
      throw e;
    }
  }

  /** A token secret made by hand (annotated with its account) gets its token filled in. */
  private async syncSecret(namespace: string, name: string): Promise<void> {
    const secret = this.secrets.getByName(name, namespace);
    if (!secret || secret.data?.token) return;
    const account = secret.metadata.annotations?.[SA_NAME_ANNOTATION] ?? '';
    const sa = this.accounts.getByName(account, namespace);
    const wantUID = secret.metadata.annotations?.[SA_UID_ANNOTATION];
    if (!sa || (wantUID && wantUID !== sa.metadata.uid)) return;
    const next = clone(secret);
    next.metadata.annotations = { ...next.metadata.annotations, [SA_UID_ANNOTATION]: sa.metadata.uid! };
    next.data = { ...next.data, ...this.tokenData(namespace, account, sa.metadata.uid!, name) };
    await this.client.update<Secret>({ resource: 'secrets', namespace }, next).catch((e) => {
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
    });
  }

  private tokenData(namespace: string, account: string, uid: string, secretName: string): Record<string, string> {
    return {
      token: b64(this.signer.sign(legacyClaims(namespace, account, uid, secretName))),
      namespace: b64(namespace),
      ...(this.options.rootCA ? { 'ca.crt': b64(this.options.rootCA) } : {}),
    };
  }

  private async deleteSecret(s: Secret): Promise<void> {
    try {
      await this.client.delete({ resource: 'secrets', namespace: s.metadata.namespace }, s.metadata.name!);
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
    }
  }
}

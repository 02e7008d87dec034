import { Namespace } from '../../api/core';
import { isNamespaceTerminating, isStatusError } from '../../api/errors';
import { ServiceAccount } from '../../api/resources/serviceaccount';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { ControllerBase } from '../controller-base';

/**
 * The service account controller (pkg/controller/serviceaccount, ServiceAccountsController):
 * every active namespace has the accounts it should (`default`); one deleted is made
 * again. Terminating namespaces are left alone.
 */
export class ServiceAccountsController extends ControllerBase {
  private readonly namespaces: Informer<Namespace>;
  private readonly accounts: Informer<ServiceAccount>;
  private readonly queue: WorkQueue;

  constructor(
    ctx: ControllerContext,
    private readonly names: readonly string[] = ['default'],
  ) {
    super(ctx);
    this.namespaces = ctx.informer<Namespace>({ resource: 'namespaces' });
    this.accounts = ctx.informer<ServiceAccount>({ resource: 'serviceaccounts' });
    this.queue = ctx.workQueue((ns) => this.sync(ns), { name: 'serviceaccount', workers: 5 });
  }

  run(): void {
    const enqueue = (ns: Namespace) => this.queue.add(ns.metadata.name!);
    this.ctx.handle(this.namespaces, { onAdd: enqueue, onUpdate: (_o, n) => enqueue(n) });
    this.ctx.handle(this.accounts, {
      onDelete: (sa) => {
        if (this.names.includes(sa.metadata.name!)) this.queue.add(sa.metadata.namespace!);
      },
    });
  }

  async sync(namespace: string): Promise<void> {
    const ns = this.namespaces.getByName(namespace);
    if (ns?.status?.phase !== 'Active' || ns.metadata.deletionTimestamp) return;
    for (const name of this.names) {
      if (this.accounts.getByName(name, namespace)) continue;
      try {
        await this.client.create<ServiceAccount>(
          { resource: 'serviceaccounts', namespace },
          { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } },
        );
      } catch (e) {
        if (isStatusError(e, 'AlreadyExists')) continue;
        if (isNamespaceTerminating(e)) return;
        throw e;
      }
    }
  }
}

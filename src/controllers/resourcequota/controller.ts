import { clone, KubeObject, jsonEqual } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { formatResourceList } from '../../api/quantity';
import { coreRegistry } from '../../api/resources';
import { ResourceType } from '../../api/registry';
import { ResourceQuota } from '../../api/resources/resourcequota';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { totalUsage } from '../../quota/usage';
import { keyOf, splitKey } from '../ownership';
import { ControllerBase } from '../controller-base';

/** Kinds whose usage the controller recounts (upstream's evaluators for core kinds and the generic object counts). */
const COUNTED = ['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'jobs'];

/**
 * The resource quota controller (pkg/controller/resourcequota, syncResourceQuota): keeps
 * status.hard = spec.hard and status.used = the namespace's real usage masked to the hard
 * names; recounts a quota when it changes, when objects it counts go (or pods finish), and
 * every --resource-quota-sync-period.
 */
export class ResourceQuotaController extends ControllerBase {
  private readonly quotas: Informer<ResourceQuota>;
  private readonly counted: { rt: ResourceType; informer: Informer }[] = [];
  private readonly queue: WorkQueue;

  constructor(
    ctx: ControllerContext,
    private readonly resyncPeriodMs: number,
  ) {
    super(ctx);
    this.quotas = ctx.informer<ResourceQuota>({ resource: 'resourcequotas' });
    this.quotas.addIndexer('namespace', (q) => [q.metadata.namespace ?? '']);
    for (const rt of coreRegistry().all()) {
      if (!COUNTED.includes(rt.resource)) continue;
      const informer = ctx.informer({ resource: rt.group ? `${rt.resource}.${rt.group}` : rt.resource });
      informer.addIndexer('namespace', (o) => [o.metadata.namespace ?? '']);
      this.counted.push({ rt, informer });
    }
    this.queue = ctx.workQueue((key) => this.sync(key), { name: 'resourcequota', workers: 5 });
  }

  run(): void {
    const quota = (q: ResourceQuota) => this.queue.add(keyOf(q.metadata.namespace, q.metadata.name!));
    this.ctx.handle(this.quotas, {
      onAdd: quota,
      onUpdate: (o, n) => {
        if (!jsonEqual(o.spec, n.spec) || !n.status?.used) quota(n);
      },
    });
    const namespace = (o: KubeObject) => {
      for (const q of this.quotas.byIndex('namespace', o.metadata.namespace ?? '')) quota(q);
    };
    for (const { rt, informer } of this.counted) {
      this.ctx.handle(informer, {
        onDelete: namespace,
        // Upstream replenishes when a pod becomes terminal; admission already charged the create.
        onUpdate: (o, n) => {
          if (
            rt.resource === 'pods' &&
            (o as { status?: { phase?: string } }).status?.phase !==
              (n as { status?: { phase?: string } }).status?.phase
          )
            namespace(n);
        },
      });
    }
    this.ctx.every(this.resyncPeriodMs, () => {
      for (const q of this.quotas.list()) quota(q);
    });
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const quota = this.quotas.getByName(name, namespace);
    if (!quota) return;
    const hard = quota.spec.hard ?? {};
    const items = this.counted.flatMap(({ rt, informer }) =>
      informer.byIndex('namespace', namespace!).map((obj) => ({ rt, obj })),
    );
    const used = formatResourceList(totalUsage(items, Object.keys(hard), quota.spec.scopes, this.clock.now()));
    const status = { hard: { ...hard }, used };
    if (jsonEqual(quota.status, status)) return;
    const next = clone(quota);
    next.status = status;
    try {
      await this.client.update<ResourceQuota>({ resource: 'resourcequotas', namespace }, next, {
        subresource: 'status',
      });
    } catch (e) {
      // A conflict means a newer object is on its way through the informer, which syncs it again.
      if (!isStatusError(e, 'Conflict') && !isStatusError(e, 'NotFound')) throw e;
    }
  }
}

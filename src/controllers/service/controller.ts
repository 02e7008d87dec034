import { Node } from '../../api/core';
import { clone, jsonEqual } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { Service } from '../../api/resources/service';
import { EventRecorder } from '../../client/events';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { LoadBalancerProvider, LoadBalancerStatus } from '../../cloud/loadbalancer';
import { keyOf, splitKey } from '../ownership';
import { backsLoadBalancer, LoadBalancerNodeSelection } from './nodes';
import { ControllerBase } from '../controller-base';

export const LB_CLEANUP_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';
const NODE_SYNC_KEY = '\u0000nodes';

export function wantsLoadBalancer(svc: Service): boolean {
  return svc.spec.type === 'LoadBalancer' && svc.spec.loadBalancerClass === undefined;
}

/** Upstream needsCleanup: the cleanup finalizer is set and the service is going or no longer a LoadBalancer. */
export function needsCleanup(svc: Service): boolean {
  const has = (svc.metadata.finalizers ?? []).includes(LB_CLEANUP_FINALIZER);
  return has && (svc.metadata.deletionTimestamp !== undefined || !wantsLoadBalancer(svc));
}

/**
 * The service controller (cloud-provider/controllers/service, syncLoadBalancerIfNeeded):
 * for each LoadBalancer service it adds the cleanup finalizer, ensures the cloud's load
 * balancer over the nodes that may back it and writes status.loadBalancer; a service that
 * goes (or stops being a LoadBalancer) has its balancer deleted, then the finalizer
 * removed. A change of the node set updates every balancer.
 */
export class ServiceController extends ControllerBase {
  private readonly services: Informer<Service>;
  private readonly nodes: Informer<Node>;
  private readonly queue: WorkQueue;
  /** The node set the balancers were last given (undefined: not known). */
  private lastNodeSet: string | undefined = '';
  readonly events: EventRecorder;

  constructor(
    ctx: ControllerContext,
    private readonly cloud: LoadBalancerProvider,
    private readonly options: { clusterName: string; nodeSelection: LoadBalancerNodeSelection },
  ) {
    super(ctx);
    this.services = ctx.informer<Service>({ resource: 'services' });
    this.nodes = ctx.informer<Node>({ resource: 'nodes' });
    this.events = ctx.events({ component: 'service-controller' });
    this.queue = ctx.workQueue((key) => this.sync(key), {
      name: 'service',
      workers: 1,
      baseRetryDelayMs: 5000,
      maxRetryDelayMs: 300_000,
    });
  }

  run(): void {
    const svc = (s: Service) => {
      if (wantsLoadBalancer(s) || needsCleanup(s)) this.queue.add(keyOf(s.metadata.namespace, s.metadata.name!));
    };
    this.ctx.handle(this.services, { onAdd: svc, onUpdate: (_o, n) => svc(n) });
    const nodes = () => this.queue.add(NODE_SYNC_KEY);
    // The node set changes only when a node comes, goes, or starts or stops backing
    // balancers: a heartbeat need not list and sort every node again.
    const backs = (n: Node) => backsLoadBalancer(n, this.options.nodeSelection);
    this.ctx.handle(this.nodes, {
      onAdd: nodes,
      onUpdate: (o, n) => {
        if (backs(o) !== backs(n)) nodes();
      },
      onDelete: nodes,
    });
  }

  private hosts(): Node[] {
    // Sorted by code unit, as Go compares strings (and far cheaper than localeCompare, which
    // cost the most of adding each of thousands of nodes).
    const byName = (a: Node, b: Node) =>
      a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0;
    return this.nodes
      .list()
      .filter((n) => backsLoadBalancer(n, this.options.nodeSelection))
      .sort(byName);
  }

  async sync(key: string): Promise<void> {
    if (key === NODE_SYNC_KEY) return this.syncNodes();
    const { namespace, name } = splitKey(key);
    const svc = this.services.getByName(name, namespace);
    if (!svc) return;
    if (!wantsLoadBalancer(svc) || needsCleanup(svc)) return this.deleteLoadBalancer(svc);
    await this.ensureLoadBalancer(svc);
  }

  private async ensureLoadBalancer(svc: Service): Promise<void> {
    const ref = { resource: 'services', namespace: svc.metadata.namespace };
    let current = svc;
    if (!(svc.metadata.finalizers ?? []).includes(LB_CLEANUP_FINALIZER)) {
      current = await this.client.patch<Service>(ref, svc.metadata.name!, 'merge', {
        metadata: { finalizers: [...(svc.metadata.finalizers ?? []), LB_CLEANUP_FINALIZER] },
      });
    }
    const hosts = this.hosts();
    this.lastNodeSet ??= nodeSet(hosts);
    if (hosts.length === 0)
      this.events.warning(svc, 'UnAvailableLoadBalancer', 'There are no available nodes for LoadBalancer');
    const { exists } = await this.cloud.getLoadBalancer(this.options.clusterName, current);
    if (!exists) this.events.normal(svc, 'EnsuringLoadBalancer', 'Ensuring load balancer');
    let status: LoadBalancerStatus;
    try {
      status = await this.cloud.ensureLoadBalancer(this.options.clusterName, current, hosts);
    } catch (e) {
      this.events.warning(svc, 'SyncLoadBalancerFailed', `Error syncing load balancer: ${(e as Error).message}`);
      throw e;
    }
    if (!exists) this.events.normal(svc, 'EnsuredLoadBalancer', 'Ensured load balancer');
    await this.writeStatus(current, { ingress: status.ingress });
  }

  private async deleteLoadBalancer(svc: Service): Promise<void> {
    const { exists } = await this.cloud.getLoadBalancer(this.options.clusterName, svc);
    if (exists) {
      this.events.normal(svc, 'DeletingLoadBalancer', 'Deleting load balancer');
      await this.cloud.ensureLoadBalancerDeleted(this.options.clusterName, svc);
      this.events.normal(svc, 'DeletedLoadBalancer', 'Deleted load balancer');
    }
    const ref = { resource: 'services', namespace: svc.metadata.namespace };
    try {
      if (!svc.metadata.deletionTimestamp) await this.writeStatus(svc, {});
      if ((svc.metadata.finalizers ?? []).includes(LB_CLEANUP_FINALIZER)) {
        const fresh = await this.client.get<Service>(ref, svc.metadata.name!);
        const next = clone(fresh);
        const rest = (fresh.metadata.finalizers ?? []).filter((f) => f !== LB_CLEANUP_FINALIZER);
        if (rest.length > 0) next.metadata.finalizers = rest;
        else delete next.metadata.finalizers;
        await this.client.update<Service>(ref, next);
      }
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
    }
  }

  private async writeStatus(svc: Service, lb: LoadBalancerStatus): Promise<void> {
    const want = lb.ingress && lb.ingress.length > 0 ? { ingress: lb.ingress } : {};
    if (jsonEqual(svc.status?.loadBalancer ?? {}, want)) return;
    const next = clone(svc);
    next.status = { ...next.status, loadBalancer: want };
    await this.client.update<Service>({ resource: 'services', namespace: svc.metadata.namespace }, next, {
      subresource: 'status',
    });
  }

  /** Upstream nodeSyncInternal: a changed node set updates every load balancer. */
  private async syncNodes(): Promise<void> {
    // No Service has a balancer to update: listing and sorting every node on each node that
    // comes would be the controller's whole cost while thousands of nodes register. The set
    // is then unknown, so the next sync with a balancer updates it (ensure remembers its own).
    if (!this.services.list().some((svc) => wantsLoadBalancer(svc) && !svc.metadata.deletionTimestamp)) {
      this.lastNodeSet = undefined;
      return;
    }
    const hosts = this.hosts();
    const set = nodeSet(hosts);
    if (set === this.lastNodeSet) return;
    this.lastNodeSet = set;
    for (const svc of this.services.list()) {
      if (!wantsLoadBalancer(svc) || svc.metadata.deletionTimestamp) continue;
      const { exists } = await this.cloud.getLoadBalancer(this.options.clusterName, svc);
      if (!exists) continue;
      try {
        await this.cloud.updateLoadBalancer(this.options.clusterName, svc, hosts);
        if (hosts.length === 0)
          this.events.warning(svc, 'UnAvailableLoadBalancer', 'There are no available nodes for LoadBalancer');
        else this.events.normal(svc, 'UpdatedLoadBalancer', 'Updated load balancer with new hosts');
      } catch (e) {
        this.events.warning(
          svc,
          'UpdateLoadBalancerFailed',
          `Error updating load balancer with new hosts ${set}: ${(e as Error).message}`,
        );
      }
    }
  }
}

/** A node set as the controller compares it: the sorted names, joined. */
function nodeSet(hosts: Node[]): string {
  return hosts.map((n) => n.metadata.name).join(',');
}

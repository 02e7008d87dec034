import { Node, Pod } from '../../api/core';
import { clone, jsonEqual, KubeObject } from '../../api/meta';
import { isNamespaceTerminating } from '../../api/errors';
import { EndpointSlice, SlicePort } from '../../api/resources/endpointslice';
import { Service } from '../../api/resources/service';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { keyOf, splitKey } from '../ownership';
import {
  chunk,
  DesiredGroup,
  desiredGroups,
  ENDPOINTSLICE_CONTROLLER,
  managedServiceKey,
  sliceLabels,
} from './desired';
import { followServicePods, selects } from '../service-pods';
import { ControllerBase } from '../controller-base';

export const ENDPOINTSLICES = 'endpointslices';

export interface EndpointSliceControllerOptions {
  /** --max-endpoints-per-slice (default 100). */
  maxEndpointsPerSlice: number;
}

const portKey = (ports: SlicePort[] | undefined) => JSON.stringify(ports ?? []);

/**
 * The EndpointSlice controller (pkg/controller/endpointslice, v1.32: syncService and
 * reconciler.go reconcile), main rules: for every Service with a selector (not ExternalName)
 * it keeps discovery.k8s.io/v1 EndpointSlices (addressType IPv4) labelled
 * kubernetes.io/service-name and endpointslice.kubernetes.io/managed-by:
 * endpointslice-controller.k8s.io and owned by the Service (the garbage collector removes
 * them with it); one set of slices per port set, at most maxEndpointsPerSlice endpoints each,
 * terminating pods included with their conditions (ready, serving, terminating); a service
 * with no endpoints keeps one empty placeholder slice. Slices it manages are reused in name
 * order, surplus ones deleted; a slice someone deletes is made again.
 */
export class EndpointSliceController extends ControllerBase {
  private readonly services: Informer<Service>;
  private readonly pods: Informer<Pod>;
  private readonly nodes: Informer<Node>;
  private readonly slices: Informer<EndpointSlice>;
  private readonly queue: WorkQueue;
  /**
   * The endpointSliceTracker's job (endpointslice_tracker.go): what this controller last wrote
   * per service (slice name → resourceVersion, or undefined once deleted); a sync whose cache
   * has not caught up yet fails and is retried, so it never writes from a stale view (a
   * second slice for the same endpoints).
   */
  private readonly written = new Map<string, Map<string, string | undefined>>();

  constructor(
    ctx: ControllerContext,
    private readonly options: EndpointSliceControllerOptions,
  ) {
    super(ctx);
    this.services = ctx.informer<Service>({ resource: 'services' });
    this.pods = ctx.informer<Pod>({ resource: 'pods' });
    this.nodes = ctx.informer<Node>({ resource: 'nodes' });
    this.slices = ctx.informer<EndpointSlice>({ resource: ENDPOINTSLICES });
    this.services.addIndexer('namespace', (s) => [s.metadata.namespace ?? '']);
    this.pods.addIndexer('namespace', (p) => [p.metadata.namespace ?? '']);
    this.slices.addIndexer('service', (s) => {
      const key = managedServiceKey(s, ENDPOINTSLICE_CONTROLLER);
      return key ? [key] : [];
    });
    this.queue = ctx.workQueue((key) => this.sync(key), { name: 'endpoint_slice', workers: 5 });
  }

  run(): void {
    followServicePods(this.ctx, this.services, this.pods, (s) =>
      this.queue.add(keyOf(s.metadata.namespace, s.metadata.name!)),
    );
    // A managed slice changed or deleted by someone else: its service is synced again.
    const slice = (s: EndpointSlice) => {
      const key = managedServiceKey(s, ENDPOINTSLICE_CONTROLLER);
      if (key) this.queue.add(key);
    };
    this.ctx.handle(this.slices, { onUpdate: (_o, n) => slice(n), onDelete: slice });
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const svc = this.services.getByName(name, namespace);
    // A deleted service's slices go with it through their owner reference (garbage collector).
    if (!svc || svc.spec.selector === undefined || svc.spec.type === 'ExternalName') {
      this.written.delete(key);
      return;
    }
    this.checkNotStale(key);
    const pods = this.pods.byIndex('namespace', namespace!).filter((p) => selects(svc, p));
    const groups = desiredGroups(svc, pods, (n) => this.nodes.getByName(n));
    // No endpoints at all: one placeholder slice with none (reconciler.go placeholderSliceCompare).
    const wanted: DesiredGroup[] = groups.length > 0 ? groups : [{ ports: [], endpoints: [] }];
    const existing = this.slices
      .byIndex('service', key)
      .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    const unused = new Set(existing);
    const labels = sliceLabels(svc, ENDPOINTSLICE_CONTROLLER);
    const ref = { resource: ENDPOINTSLICES, namespace };
    const writes: Promise<unknown>[] = [];
    for (const group of wanted) {
      const chunks = group.endpoints.length ? chunk(group.endpoints, this.options.maxEndpointsPerSlice) : [[]];
      const reusable = existing.filter((s) => unused.has(s) && portKey(s.ports) === portKey(group.ports));
      chunks.forEach((endpoints, i) => {
        const current = reusable[i];
        if (current) {
          unused.delete(current);
          if (jsonEqual(current.endpoints ?? [], endpoints) && jsonEqual(current.metadata.labels ?? {}, labels)) return;
          const next = clone(current);
          next.metadata.labels = labels;
          next.endpoints = endpoints;
          writes.push(this.write(key, () => this.client.update<EndpointSlice>(ref, next)));
        } else {
          writes.push(
            this.write(key, () =>
              this.client.create<EndpointSlice>(ref, {
                apiVersion: 'discovery.k8s.io/v1',
                kind: 'EndpointSlice',
                metadata: { generateName: `${name}-`, namespace, labels, ownerReferences: [ownerRef(svc)] },
                addressType: 'IPv4',
                endpoints,
                ports: group.ports,
              }),
            ),
          );
        }
      });
    }
    for (const s of unused)
      writes.push(
        this.write(
          key,
          async () => {
            await this.client.delete(ref, s.metadata.name!);
            return { metadata: { name: s.metadata.name } };
          },
          true,
        ),
      );
    const results = await Promise.allSettled(writes);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    // A conflict or a slice gone under it: returned to the queue, retried with backoff (upstream returns the error).
    if (failed) throw failed.reason;
  }

  /** Fails the sync while the slice informer has not seen this controller's last writes for the service. */
  private checkNotStale(key: string): void {
    const mine = this.written.get(key);
    if (!mine) return;
    const { namespace } = splitKey(key);
    for (const [name, rv] of mine) {
      const seen = this.slices.getByName(name, namespace);
      const behind =
        rv === undefined ? seen !== undefined : !seen || Number(seen.metadata.resourceVersion) < Number(rv);
      if (behind) throw new Error(`EndpointSlice informer cache is out of date for service ${key}`);
    }
    this.written.delete(key);
  }

  /** One write, remembered for checkNotStale; a terminating namespace refuses it for good (dropped). */
  private async write(key: string, op: () => Promise<KubeObject>, deleted = false): Promise<void> {
    try {
      const obj = await op();
      let mine = this.written.get(key);
      if (!mine) this.written.set(key, (mine = new Map()));
      mine.set(obj.metadata.name!, deleted ? undefined : obj.metadata.resourceVersion);
    } catch (e) {
      if (isNamespaceTerminating(e)) return;
      throw e;
    }
  }
}

/** The owner reference a managed slice carries (ownerRef in utils.go): the Service, as its controller. */
export function ownerRef(owner: KubeObject & { metadata: { uid?: string } }, kind = 'Service') {
  return {
    apiVersion: 'v1',
    kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

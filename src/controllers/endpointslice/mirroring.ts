import { clone, jsonEqual } from '../../api/meta';
import { isNamespaceTerminating, isStatusError } from '../../api/errors';
import { Endpoints } from '../../api/resources/endpoints';
import {
  EndpointSlice,
  LABEL_MANAGED_BY,
  LABEL_SERVICE_NAME,
  SliceEndpoint,
  SlicePort,
} from '../../api/resources/endpointslice';
import { Service } from '../../api/resources/service';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { keyOf, splitKey } from '../ownership';
import { ENDPOINTSLICES, ownerRef } from './controller';
import { managedServiceKey } from './desired';
import { ControllerBase } from '../controller-base';

/** The mirroring controller's managed-by value (endpointslicemirroring.controllerName, v1.32). */
export const MIRRORING_CONTROLLER = 'endpointslicemirroring-controller.k8s.io';
/** An Endpoints labelled so is not mirrored (discovery.LabelSkipMirror). */
export const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';
/** maxEndpointsPerSubset of the mirroring controller (--mirroring-max-endpoints-per-subset default). */
export const MIRRORING_MAX_ENDPOINTS_PER_SUBSET = 1000;

/**
 * The EndpointSliceMirroring controller (pkg/controller/endpointslicemirroring, v1.32), main
 * rules: for a Service without a selector whose Endpoints someone wrote by hand, it mirrors
 * each subset into an EndpointSlice (addressType IPv4) labelled kubernetes.io/service-name and
 * endpointslice.kubernetes.io/managed-by: endpointslicemirroring-controller.k8s.io and owned
 * by the Endpoints: addresses as ready endpoints, notReadyAddresses as not ready, at most
 * 1000 per subset. Endpoints labelled endpointslice.kubernetes.io/skip-mirror=true, and those
 * of services with a selector (the EndpointSlice controller's), are not mirrored.
 */
export class EndpointSliceMirroringController extends ControllerBase {
  private readonly services: Informer<Service>;
  private readonly endpoints: Informer<Endpoints>;
  private readonly slices: Informer<EndpointSlice>;
  private readonly queue: WorkQueue;

  constructor(ctx: ControllerContext) {
    super(ctx);
    this.services = ctx.informer<Service>({ resource: 'services' });
    this.endpoints = ctx.informer<Endpoints>({ resource: 'endpoints' });
    this.slices = ctx.informer<EndpointSlice>({ resource: ENDPOINTSLICES });
    this.slices.addIndexer('mirrored', (s) => {
      const key = managedServiceKey(s, MIRRORING_CONTROLLER);
      return key ? [key] : [];
    });
    this.queue = ctx.workQueue((key) => this.sync(key), {
      name: 'endpointslice_mirroring',
      workers: 5,
    });
  }

  run(): void {
    const add = (o: Service | Endpoints) => this.queue.add(keyOf(o.metadata.namespace, o.metadata.name!));
    this.ctx.handle<Service>(this.services, { onAdd: add, onUpdate: (_o, n) => add(n), onDelete: add });
    this.ctx.handle<Endpoints>(this.endpoints, { onAdd: add, onUpdate: (_o, n) => add(n), onDelete: add });
    const slice = (s: EndpointSlice) => {
      const key = managedServiceKey(s, MIRRORING_CONTROLLER);
      if (key) this.queue.add(key);
    };
    this.ctx.handle(this.slices, { onUpdate: (_o, n) => slice(n), onDelete: slice });
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const svc = this.services.getByName(name, namespace);
    const ep = this.endpoints.getByName(name, namespace);
    const mirror =
      svc !== undefined &&
      svc.spec.selector === undefined &&
      ep !== undefined &&
      ep.metadata.labels?.[SKIP_MIRROR_LABEL] !== 'true';
    const existing = this.slices
      .byIndex('mirrored', key)
      .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    const ref = { resource: ENDPOINTSLICES, namespace };
    const wanted = mirror ? mirroredSubsets(ep!) : [];
    const labels = {
      ...(ep?.metadata.labels ?? {}),
      [LABEL_SERVICE_NAME]: name,
      [LABEL_MANAGED_BY]: MIRRORING_CONTROLLER,
    };
    const writes: Promise<unknown>[] = [];
    wanted.forEach((w, i) => {
      const current = existing[i];
      if (current) {
        if (
          jsonEqual(current.endpoints ?? [], w.endpoints) &&
          jsonEqual(current.ports ?? [], w.ports) &&
          jsonEqual(current.metadata.labels ?? {}, labels)
        )
          return;
        const next = clone(current);
        next.metadata.labels = labels;
        next.endpoints = w.endpoints;
        next.ports = w.ports;
        writes.push(this.write(() => this.client.update<EndpointSlice>(ref, next)));
      } else {
        writes.push(
          this.write(() =>
            this.client.create<EndpointSlice>(ref, {
              apiVersion: 'discovery.k8s.io/v1',
              kind: 'EndpointSlice',
              metadata: {
                generateName: `${name}-`,
                namespace,
                labels,
                ownerReferences: [ownerRef(ep!, 'Endpoints')],
              },
              addressType: 'IPv4',
              endpoints: w.endpoints,
              ports: w.ports,
            }),
          ),
        );
      }
    });
    for (const s of existing.slice(wanted.length))
      writes.push(this.write(() => this.client.delete(ref, s.metadata.name!)));
    await Promise.all(writes);
  }

  private async write(op: () => Promise<unknown>): Promise<void> {
    try {
      await op();
    } catch (e) {
      if (isNamespaceTerminating(e)) return;
      if (!isStatusError(e, 'Conflict') && !isStatusError(e, 'NotFound')) throw e;
    }
  }
}

/**
 * One slice per subset (reconciler.go reconcile, v1.32): its ports, its addresses as ready
 * endpoints then its notReadyAddresses as not-ready ones, at most 1000 in all (ready first).
 */
export function mirroredSubsets(ep: Endpoints): { endpoints: SliceEndpoint[]; ports: SlicePort[] }[] {
  return (ep.subsets ?? []).map((subset) => {
    const toEndpoint =
      (ready: boolean) =>
      (a: NonNullable<typeof subset.addresses>[number]): SliceEndpoint => ({
        addresses: [a.ip],
        conditions: { ready },
        ...(a.hostname ? { hostname: a.hostname } : {}),
        ...(a.targetRef ? { targetRef: a.targetRef } : {}),
        ...(a.nodeName ? { nodeName: a.nodeName } : {}),
      });
    const endpoints = [
      ...(subset.addresses ?? []).map(toEndpoint(true)),
      ...(subset.notReadyAddresses ?? []).map(toEndpoint(false)),
    ].slice(0, MIRRORING_MAX_ENDPOINTS_PER_SUBSET);
    const ports = (subset.ports ?? []).map((p) => ({
      name: p.name ?? '',
      port: p.port,
      protocol: p.protocol ?? 'TCP',
      ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}),
    }));
    return { endpoints, ports };
  });
}

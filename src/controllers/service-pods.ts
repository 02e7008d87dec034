import { Pod } from '../api/core';
import { Service } from '../api/resources/service';
import { ControllerContext } from '../client/controller-context';
import { Informer } from '../client/informer';

/**
 * The pods a Service selects, shared by the controllers that follow them (Endpoints and
 * EndpointSlices, as upstream's endpoint and endpointslice controllers both use the
 * service's selector as a plain label match in its own namespace).
 */
export function selects(svc: Service, pod: Pod): boolean {
  const sel = svc.spec.selector;
  return (
    sel !== undefined &&
    svc.metadata.namespace === pod.metadata.namespace &&
    Object.entries(sel).every(([k, v]) => pod.metadata.labels?.[k] === v)
  );
}

/**
 * Queues a Service when it changes, and every Service of the pod's namespace that selects a
 * pod before or after the pod changed (upstream's getPodServiceMemberships on addPod,
 * updatePod, deletePod). Both informers need the 'namespace' index; the handlers are the
 * controller's (its context removes them when it stops).
 */
export function followServicePods(
  ctx: ControllerContext,
  services: Informer<Service>,
  pods: Informer<Pod>,
  enqueue: (svc: Service) => void,
): void {
  ctx.handle(services, { onAdd: enqueue, onUpdate: (_o, n) => enqueue(n), onDelete: enqueue });
  const touched = (...changed: Pod[]) => {
    for (const s of services.byIndex('namespace', changed[0].metadata.namespace ?? ''))
      if (changed.some((p) => selects(s, p))) enqueue(s);
  };
  ctx.handle(pods, {
    onAdd: (p) => touched(p),
    onUpdate: (o, n) => touched(o, n),
    onDelete: (p) => touched(p),
  });
}

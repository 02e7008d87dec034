import { Node, Pod, podCondition } from '../../api/core';
import {
  EndpointSlice,
  LABEL_MANAGED_BY,
  LABEL_SERVICE_NAME,
  SliceEndpoint,
  SlicePort,
} from '../../api/resources/endpointslice';
import { keyOf } from '../ownership';
import { Service } from '../../api/resources/service';
import { findPort, HEADLESS_LABEL, shouldPodBeInEndpoints } from '../endpoint-pods';

/** The controller's name in the managed-by label (endpointslice.ControllerName, v1.32). */
export const ENDPOINTSLICE_CONTROLLER = 'endpointslice-controller.k8s.io';

/**
 * The key (namespace/name) of the Service a slice belongs to, when the given manager
 * (endpointslice.kubernetes.io/managed-by) owns it; undefined for anyone else's slice.
 */
export function managedServiceKey(slice: EndpointSlice, manager: string): string | undefined {
  const name = slice.metadata.labels?.[LABEL_SERVICE_NAME];
  return name && slice.metadata.labels?.[LABEL_MANAGED_BY] === manager
    ? keyOf(slice.metadata.namespace, name)
    : undefined;
}
/** --max-endpoints-per-slice's default. */
export const DEFAULT_MAX_ENDPOINTS_PER_SLICE = 100;
const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** The endpoints of one port set, as the slices of a service group them. */
export interface DesiredGroup {
  ports: SlicePort[];
  endpoints: SliceEndpoint[];
}

/**
 * podToEndpoint (pkg/controller/endpointslice/utils.go, v1.32): the pod's IP; serving = the
 * pod is Ready; terminating = it has a deletionTimestamp; ready = serving and not terminating,
 * or always with publishNotReadyAddresses. nodeName, the node's zone, a targetRef to the pod,
 * the hostname when the pod's subdomain is the service (ShouldSetHostname).
 */
export function podToEndpoint(pod: Pod, svc: Service, node: Node | undefined): SliceEndpoint {
  const serving = podCondition(pod, 'Ready')?.status === 'True';
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  const ready = svc.spec.publishNotReadyAddresses === true || (serving && !terminating);
  const spec = pod.spec as Pod['spec'] & { hostname?: string; subdomain?: string };
  const zone = node?.metadata.labels?.[ZONE_LABEL];
  return {
    addresses: [pod.status!.podIP!],
    conditions: { ready, serving, terminating },
    ...(spec.hostname && spec.subdomain === svc.metadata.name ? { hostname: spec.hostname } : {}),
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
    ...(pod.spec.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    ...(zone ? { zone } : {}),
  };
}

const portKey = (ports: SlicePort[]) => JSON.stringify(ports);

/**
 * The reconciler's desired state (reconciler.go reconcile, v1.32): every selected pod with an
 * IP that ShouldPodBeInEndpoints(pod, includeTerminating=true) admits, grouped by the ports it
 * resolves (getEndpointPorts: each service port found on the pod; a pod that resolves none of
 * a service's ports still counts, under no ports), in a stable order.
 */
export function desiredGroups(
  svc: Service,
  pods: readonly Pod[],
  nodeOf: (name: string) => Node | undefined,
): DesiredGroup[] {
  const groups = new Map<string, DesiredGroup>();
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports: SlicePort[] = [];
    for (const sp of svc.spec.ports ?? []) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      ports.push({
        name: sp.name ?? '',
        port,
        protocol: sp.protocol ?? 'TCP',
        ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
      });
    }
    const key = portKey(ports);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { ports, endpoints: [] }));
    g.endpoints.push(podToEndpoint(pod, svc, pod.spec.nodeName ? nodeOf(pod.spec.nodeName) : undefined));
  }
  const byName = (a: SliceEndpoint, b: SliceEndpoint) =>
    (a.targetRef?.name ?? '').localeCompare(b.targetRef?.name ?? '') || a.addresses[0].localeCompare(b.addresses[0]);
  return [...groups.keys()].sort().map((k) => {
    const g = groups.get(k)!;
    return { ports: g.ports, endpoints: g.endpoints.sort(byName) };
  });
}

/** Cuts a group into slices of at most max endpoints (the reconciler fills new slices up to maxEndpointsPerSlice). */
export function chunk<T>(items: readonly T[], max: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += max) out.push(items.slice(i, i + max));
  return out;
}

/**
 * setEndpointSliceLabels (utils.go, v1.32): the service's labels, then the service name, the
 * managed-by label and, for a headless service, service.kubernetes.io/headless.
 */
export function sliceLabels(svc: Service, managedBy: string): Record<string, string> {
  const labels: Record<string, string> = { ...svc.metadata.labels };
  delete labels[HEADLESS_LABEL];
  labels[LABEL_SERVICE_NAME] = svc.metadata.name!;
  labels[LABEL_MANAGED_BY] = managedBy;
  if (!svc.spec.clusterIP || svc.spec.clusterIP === 'None') labels[HEADLESS_LABEL] = '';
  return labels;
}

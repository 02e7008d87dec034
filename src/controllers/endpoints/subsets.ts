import { Pod, podCondition } from '../../api/core';
import { EndpointAddress, EndpointPort, EndpointSubset } from '../../api/resources/endpoints';
import { Service, ServicePort } from '../../api/resources/service';

export const HEADLESS_LABEL = 'service.kubernetes.io/headless';
export const TOLERATE_UNREADY_ANNOTATION = 'service.alpha.kubernetes.io/tolerate-unready-endpoints';

/** Upstream ShouldPodBeInEndpoints: not finished, has an IP, not being deleted unless not-ready addresses are published. */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!pod.status?.podIP) return false;
  if (pod.metadata.deletionTimestamp && !includeTerminating) return false;
  return true;
}

/**
 * Upstream FindPort: a numeric targetPort is used as is; a named one is the first
 * container port with that name and the service port's protocol, else the port is skipped.
 */
export function findPort(pod: Pod, port: ServicePort): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of pod.spec.containers) {
    for (const p of c.ports ?? [])
      if (p.name === target && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP')) return p.containerPort;
  }
  return undefined;
}

function publishNotReady(svc: Service): boolean {
  return (
    svc.spec.publishNotReadyAddresses === true || svc.metadata.annotations?.[TOLERATE_UNREADY_ANNOTATION] === 'true'
  );
}

function address(pod: Pod, svc: Service): EndpointAddress {
  const a: EndpointAddress = {
    ip: pod.status!.podIP!,
    ...(pod.spec.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
  };
  const spec = pod.spec as Pod['spec'] & { hostname?: string; subdomain?: string };
  if (spec.hostname && spec.subdomain === svc.metadata.name && pod.metadata.namespace === svc.metadata.namespace)
    a.hostname = spec.hostname;
  return a;
}

const byIP = (a: EndpointAddress, b: EndpointAddress) =>
  a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : (a.targetRef?.name ?? '') < (b.targetRef?.name ?? '') ? -1 : 1;
const portKey = (ports: EndpointPort[]) =>
  JSON.stringify([...ports].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.port - b.port));

/**
 * The subsets of a service's Endpoints (upstream syncService + RepackSubsets): each
 * selected pod with an IP contributes its address under the ports it resolves; ready
 * pods (or all, with publishNotReadyAddresses) go to addresses, others to
 * notReadyAddresses; addresses with the same port set share a subset; a headless service
 * without ports lists addresses with no ports. Sorted, so equal inputs give equal output.
 */
export function computeSubsets(svc: Service, pods: readonly Pod[]): EndpointSubset[] {
  const tolerate = publishNotReady(svc);
  const groups = new Map<string, { ports: EndpointPort[]; ready: EndpointAddress[]; notReady: EndpointAddress[] }>();
  const headless = svc.spec.clusterIP === 'None';
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, tolerate)) continue;
    const ports: EndpointPort[] = [];
    for (const sp of svc.spec.ports ?? []) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      ports.push({
        ...(sp.name ? { name: sp.name } : {}),
        port,
        protocol: sp.protocol ?? 'TCP',
        ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
      });
    }
    if (ports.length === 0 && !(headless && (svc.spec.ports ?? []).length === 0)) continue;
    const key = portKey(ports);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { ports, ready: [], notReady: [] }));
    const ready = tolerate || podCondition(pod, 'Ready')?.status === 'True';
    (ready ? g.ready : g.notReady).push(address(pod, svc));
  }
  const out: EndpointSubset[] = [];
  for (const key of [...groups.keys()].sort()) {
    const g = groups.get(key)!;
    const subset: EndpointSubset = {};
    if (g.ready.length) subset.addresses = g.ready.sort(byIP);
    if (g.notReady.length) subset.notReadyAddresses = g.notReady.sort(byIP);
    if (g.ports.length)
      subset.ports = [...g.ports].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.port - b.port);
    out.push(subset);
  }
  return out;
}

/** The Endpoints' labels: the service's, plus the headless marker (upstream syncService). */
export function endpointsLabels(svc: Service): Record<string, string> {
  const labels = { ...svc.metadata.labels };
  if (!svc.spec.clusterIP || svc.spec.clusterIP === 'None') labels[HEADLESS_LABEL] = '';
  else delete labels[HEADLESS_LABEL];
  return labels;
}

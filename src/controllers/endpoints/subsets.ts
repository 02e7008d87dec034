import { Pod, podCondition } from '../../api/core';
import { EndpointAddress, EndpointPort, EndpointSubset } from '../../api/resources/endpoints';
import { Service } from '../../api/resources/service';
import { ErrorSink, handleError } from '../../client/background';
import { findPort, HEADLESS_LABEL, shouldPodBeInEndpoints } from '../endpoint-pods';

export const TOLERATE_UNREADY_ANNOTATION = 'service.alpha.kubernetes.io/tolerate-unready-endpoints';
/** v1.EndpointsOverCapacity, and the value the controller writes (endpoints_controller.go, v1.32). */
export const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';
/** maxCapacity (endpoints_controller.go, v1.32): addresses one Endpoints object keeps. */
export const MAX_ENDPOINTS_CAPACITY = 1000;

/**
 * Which release's endpoints controller: 'v1.12' (the annotation over publishNotReadyAddresses,
 * not-ready pods kept by restartPolicy, no cap) or 'v1.32' (publishNotReadyAddresses only,
 * endpointsliceutil.ShouldPodBeInEndpoints, the 1000-address cap). The suite models these two.
 */
export type EndpointsRules = 'v1.12' | 'v1.32';

/** Go's strconv.ParseBool: the accepted spellings, else undefined (an error upstream). */
export function parseGoBool(v: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

/**
 * v1.12 shouldPodBeInEndpoints (endpoints_controller.go), asked only of a pod that is not
 * ready: kept as a not-ready address unless its restartPolicy says it will not run again
 * (Never: Failed or Succeeded; OnFailure: Succeeded; Always: never finished).
 */
export function notReadyPodKeptV112(pod: Pod): boolean {
  const phase = pod.status?.phase;
  switch (pod.spec.restartPolicy) {
    case 'Never':
      return phase !== 'Failed' && phase !== 'Succeeded';
    case 'OnFailure':
      return phase !== 'Succeeded';
    default:
      return true;
  }
}

/**
 * Whether not-ready pods are published as ready. v1.12 syncService: publishNotReadyAddresses,
 * overridden by the tolerate-unready-endpoints annotation when it parses (strconv.ParseBool;
 * an unparsable value is reported with HandleError and the field stands). v1.32 reads the
 * field only.
 */
export function tolerateUnready(svc: Service, rules: EndpointsRules, report: ErrorSink = handleError): boolean {
  const field = svc.spec.publishNotReadyAddresses === true;
  const v = svc.metadata.annotations?.[TOLERATE_UNREADY_ANNOTATION];
  if (rules === 'v1.32' || v === undefined) return field;
  const b = parseGoBool(v);
  if (b === undefined) {
    report(
      'endpoints controller',
      new Error(
        `Failed to parse annotation ${TOLERATE_UNREADY_ANNOTATION}: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`,
      ),
    );
    return field;
  }
  return b;
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
 * The subsets of a service's Endpoints (upstream syncService, addEndpointSubset and
 * RepackSubsets): each selected pod with an IP contributes its address under the ports it
 * resolves; ready pods (or all, when not-ready ones are tolerated) go to addresses, others to
 * notReadyAddresses; addresses with the same port set share a subset; a headless service
 * without ports lists addresses with no ports. Which pods count is the release's rule
 * (tolerateUnready, shouldPodBeInEndpoints, notReadyPodKeptV112). Sorted, so equal inputs
 * give equal output.
 */
export function computeSubsets(
  svc: Service,
  pods: readonly Pod[],
  rules: EndpointsRules = 'v1.32',
  report: ErrorSink = handleError,
): EndpointSubset[] {
  const tolerate = tolerateUnready(svc, rules, report);
  const groups = new Map<string, { ports: EndpointPort[]; ready: EndpointAddress[]; notReady: EndpointAddress[] }>();
  const headless = svc.spec.clusterIP === 'None';
  for (const pod of pods) {
    if (rules === 'v1.32' && !shouldPodBeInEndpoints(pod, tolerate)) continue;
    if (rules === 'v1.12' && (!pod.status?.podIP || (pod.metadata.deletionTimestamp && !tolerate))) continue;
    const ready = tolerate || podCondition(pod, 'Ready')?.status === 'True';
    if (rules === 'v1.12' && !ready && !notReadyPodKeptV112(pod)) continue;
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

/**
 * v1.32 truncateEndpoints: over MAX_ENDPOINTS_CAPACITY addresses, keep ready ones first, each
 * subset its proportional share rounded up (the last ones may get less); when ready addresses
 * alone exceed the cap, every not-ready address goes. Returns the subsets to write and
 * whether they were truncated (then the Endpoints carry OVER_CAPACITY_ANNOTATION: truncated).
 */
export function truncateEndpoints(subsets: EndpointSubset[]): { subsets: EndpointSubset[]; truncated: boolean } {
  let ready = 0;
  let notReady = 0;
  for (const s of subsets) {
    ready += s.addresses?.length ?? 0;
    notReady += s.notReadyAddresses?.length ?? 0;
  }
  if (ready + notReady <= MAX_ENDPOINTS_CAPACITY) return { subsets, truncated: false };
  const truncateReady = ready > MAX_ENDPOINTS_CAPACITY;
  const max = truncateReady ? MAX_ENDPOINTS_CAPACITY : MAX_ENDPOINTS_CAPACITY - ready;
  const total = truncateReady ? ready : notReady;
  let canBeAdded = max;
  const out = subsets.map((s) => {
    const inSubset = (truncateReady ? s.addresses?.length : s.notReadyAddresses?.length) ?? 0;
    const toBeAdded = Math.min(canBeAdded, Math.ceil((inSubset / total) * max));
    const next: EndpointSubset = { ...s };
    if (truncateReady) {
      next.addresses = (s.addresses ?? []).slice(0, toBeAdded);
      delete next.notReadyAddresses;
      canBeAdded -= next.addresses.length;
      if (next.addresses.length === 0) delete next.addresses;
    } else {
      const kept = (s.notReadyAddresses ?? []).slice(0, toBeAdded);
      canBeAdded -= kept.length;
      if (kept.length) next.notReadyAddresses = kept;
      else delete next.notReadyAddresses;
    }
    return next;
  });
  return { subsets: out, truncated: true };
}

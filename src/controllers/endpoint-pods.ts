import { Pod } from '../api/core';
import { ServicePort } from '../api/resources/service';

/**
 * What the Endpoints and EndpointSlice controllers both ask of a pod (upstream's
 * pkg/controller/util/endpoint and podutil.FindPort, which both controllers import).
 */
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';

/**
 * v1.32 endpointsliceutil.ShouldPodBeInEndpoints: not terminal (Succeeded/Failed), has an
 * IP, not being deleted unless terminating pods are included (publishNotReadyAddresses).
 */
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

import { errors, isStatusError } from '../../api/errors';
import { Node, Pod } from '../../api/core';
import { Endpoints } from '../../api/resources/endpoints';
import { Service } from '../../api/resources/service';
import { splitSchemeNamePort } from '../../api/scheme-name-port';
import type { ApiServer } from '../apiserver';
import { hollowPodPath } from './pod-network';

/**
 * services/{name}/proxy (COMM-PROXY): where the API server sends a request for a service,
 * as upstream's service REST ResourceLocation: the id is `name`, `name:port` or
 * `scheme:name:port` (port = a service port's name or number); a number is mapped to the
 * service port's name; then an endpoint address is picked at random among the Endpoints
 * subsets whose port has that name (no port: the unnamed one), skipping addresses that are
 * not a pod with that IP. No endpoint: 503 "no endpoints available for service …".
 *
 * The API server dials the endpoint's IP and port directly upstream; hollow pods have no
 * network of their own, so the request travels to the pod's kubelet, which stands for the
 * pod network (/hollowPods/{ns}/[{scheme}:]{pod}:{port}/…, pod-network.ts).
 * Upstream: pkg/registry/core/service/storage (ResourceLocation), ProxyREST.
 */
export interface ServiceLocation {
  node: Node;
  /** The kubelet path that reaches the endpoint, without the proxied path. */
  path: string;
  ip: string;
  port: number;
}

export async function serviceLocation(
  api: ApiServer,
  namespace: string,
  id: string,
  random: (n: number) => number = (n) => Math.floor(Math.random() * n),
): Promise<ServiceLocation> {
  const parsed = splitSchemeNamePort(id);
  if (!parsed) throw errors.badRequest(`invalid service request "${id}"`);
  const { name } = parsed;
  let portName = parsed.port;
  const svc = (await api.get({ resource: 'services', namespace, name })) as Service;
  if (/^\d+$/.test(portName)) {
    const number = Number(portName);
    const match = (svc.spec.ports ?? []).find((p) => p.port === number);
    if (!match) throw errors.serviceUnavailable(`no service port ${number} found for service "${name}"`);
    portName = match.name ?? '';
  }
  let eps: Endpoints;
  try {
    eps = (await api.get({ resource: 'endpoints', namespace, name })) as Endpoints;
  } catch {
    throw errors.serviceUnavailable(`no endpoints available for service "${name}"`);
  }
  const subsets = eps.subsets ?? [];
  if (subsets.length === 0) throw errors.serviceUnavailable(`no endpoints available for service "${name}"`);
  const start = random(subsets.length);
  for (let i = 0; i < subsets.length; i++) {
    const ss = subsets[(start + i) % subsets.length];
    const addresses = ss.addresses ?? [];
    if (addresses.length === 0) continue;
    for (const p of ss.ports ?? []) {
      if ((p.name ?? '') !== portName) continue;
      const first = random(addresses.length);
      for (let t = 0; t < addresses.length; t++) {
        const addr = addresses[(first + t) % addresses.length];
        const pod = await validAddressPod(api, namespace, addr);
        if (!pod) continue;
        const node = (await api.get({ resource: 'nodes', name: pod.spec.nodeName })) as Node;
        return {
          node,
          ip: addr.ip,
          port: p.port,
          path: hollowPodPath(pod, parsed.scheme, String(p.port)),
        };
      }
    }
  }
  throw errors.serviceUnavailable(`no endpoints available for service "${id}"`);
}

/**
 * The pod an endpoint address may be proxied to, as upstream's isValidAddress: the address
 * names a pod (targetRef) in the service's own namespace — Endpoints are written by whoever
 * may write them in that namespace, so a targetRef into another namespace (or with none)
 * would let a tenant reach a pod the direct pod proxy refuses it — and that pod has the
 * address's IP. Anything else is skipped.
 */
async function validAddressPod(
  api: ApiServer,
  namespace: string,
  addr: { ip: string; targetRef?: { kind?: string; namespace?: string; name?: string } },
): Promise<Pod | undefined> {
  const ref = addr.targetRef;
  if (ref?.kind !== 'Pod' || !ref.name || ref.namespace !== namespace) return undefined;
  let pod: Pod;
  try {
    pod = (await api.get({ resource: 'pods', namespace, name: ref.name })) as Pod;
  } catch (e) {
    if (isStatusError(e, 'NotFound')) return undefined;
    throw e;
  }
  const ips = pod.status?.podIPs?.map((p) => p.ip) ?? (pod.status?.podIP ? [pod.status.podIP] : []);
  if (!ips.includes(addr.ip) || !pod.spec.nodeName) return undefined;
  return pod;
}

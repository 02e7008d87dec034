import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { errors } from '../../api/errors';
import { Node, Pod } from '../../api/core';
import { ResourceType } from '../../api/registry';
import { RequestTarget } from '../../api/request';
import type { ApiServer } from '../apiserver';
import { checkKubeletResponse, KubeletClient, KubeletUnreachable } from './kubelet-client';
import { RequestInfo } from './request-info';
import { pageNotFound } from './respond';
import { splitSchemeNamePort } from '../../api/scheme-name-port';
import { hollowPodPath } from './pod-network';
import { serviceLocation } from './service-proxy';

/* The subresources the API server answers by asking a kubelet: pods/log, and nodes, pods and services /proxy. */

/** pods/{name}/log: the API server asks the pod's kubelet (/containerLogs/…) and streams the answer. */
export async function podLog(
  api: ApiServer,
  kubelets: () => KubeletClient,
  res: ServerResponse,
  rt: ResourceType,
  target: RequestTarget,
  q: URLSearchParams,
  release: () => void,
): Promise<void> {
  if (rt.resource !== 'pods') throw pageNotFound();
  const pod = (await api.get({ ...target, subresource: undefined })) as Pod;
  const containers = pod.spec.containers ?? [];
  let container = q.get('container');
  if (!container) {
    if (containers.length !== 1) {
      throw errors.badRequest(
        `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${containers.map((c) => c.name).join(' ')}]`,
      );
    }
    container = containers[0].name;
  }
  if (!containers.some((c) => c.name === container))
    throw errors.badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`);
  if (!pod.spec.nodeName) throw errors.badRequest(`pod ${pod.metadata.name} does not have a host assigned`);
  const node = (await api.get({ resource: 'nodes', name: pod.spec.nodeName })) as Node;
  const params = new URLSearchParams();
  for (const k of ['follow', 'previous', 'tailLines', 'timestamps', 'sinceSeconds', 'sinceTime', 'limitBytes']) {
    const v = q.get(k);
    if (v !== null) params.set(k, v);
  }
  const qs = params.toString();
  const upstream = await kubelets()
    .request(
      node,
      'GET',
      `/containerLogs/${pod.metadata.namespace}/${pod.metadata.name}/${container}${qs ? `?${qs}` : ''}`,
    )
    .catch((e) => {
      // LogREST's LocationStreamer: the url.Error reaches ErrorToAPIStatus as is → 500, no reason.
      throw e instanceof KubeletUnreachable ? errors.unknown(e.message) : e;
    });
  await checkKubeletResponse(upstream, 'pods/log', pod.metadata.name!);
  res.writeHead(upstream.statusCode ?? 200, { 'Content-Type': 'text/plain' });
  if (q.get('follow') === 'true') release();
  upstream.pipe(res);
  await new Promise<void>((resolve) => upstream.on('end', resolve).on('error', () => resolve()));
}

/**
 * nodes/{name}/proxy/… forwards to that node's kubelet (COMM-PROXY): what comes back is
 * the kubelet's own view, which may differ from the stored object. pods/{name}/proxy
 * forwards through the pod's kubelet to the hollow pod.
 */
export async function proxyToKubelet(
  api: ApiServer,
  kubelets: () => KubeletClient,
  req: IncomingMessage,
  res: ServerResponse,
  rt: ResourceType,
  target: RequestTarget,
  info: RequestInfo,
  q: URLSearchParams,
  body: () => Promise<Buffer>,
): Promise<void> {
  const rest = `/${info.rest.map(encodeURIComponent).join('/')}`;
  const qs = q.toString();
  let node: Node;
  let path: string;
  if (rt.resource === 'nodes') {
    node = (await api.get({ resource: 'nodes', name: target.name })) as Node;
    path = rest;
  } else if (rt.resource === 'pods') {
    // The id is [scheme:]name[:port]; without a port, the first port a container declares
    // (pod ResourceLocation, pkg/registry/core/pod/strategy.go).
    const id = splitSchemeNamePort(target.name ?? '');
    if (!id) throw errors.badRequest(`invalid pod request "${target.name}"`);
    const pod = (await api.get({ ...target, name: id.name, subresource: undefined })) as Pod;
    if (!pod.spec.nodeName || pod.status?.phase !== 'Running')
      throw errors.serviceUnavailable(`pod ${pod.metadata.name} is not running`);
    // The pod's primary IP must be a global unicast address, or there is nothing to dial
    // (ResourceLocation in pkg/registry/core/pod/strategy.go; found on upstream v1.32 for a
    // hollow pod on a node without a pod CIDR, which has no IP).
    if (!globalUnicast(pod.status?.podIPs?.[0]?.ip ?? pod.status?.podIP ?? ''))
      throw errors.badRequest('address not allowed');
    node = (await api.get({ resource: 'nodes', name: pod.spec.nodeName })) as Node;
    const port = id.port || String(pod.spec.containers.find((c) => c.ports?.length)?.ports?.[0].containerPort ?? '');
    path = `${hollowPodPath(pod, id.scheme, port)}${rest}`;
  } else if (rt.resource === 'services') {
    const location = await serviceLocation(api, target.namespace ?? '', target.name ?? '');
    node = location.node;
    path = `${location.path}${rest}`;
  } else {
    throw pageNotFound();
  }
  const raw = req.method === 'GET' || req.method === 'HEAD' ? undefined : await body();
  const upstream = await kubelets()
    .request(node, req.method ?? 'GET', `${path}${qs ? `?${qs}` : ''}`, raw)
    .catch((e) => {
      // The proxy's Transport.RoundTrip gets the bare dial error (no url.Error around it).
      throw e instanceof KubeletUnreachable
        ? errors.serviceUnavailable(`error trying to reach service: ${e.dialError}`)
        : e;
    });
  const headers: Record<string, string> = {};
  const ct = upstream.headers['content-type'];
  if (ct) headers['Content-Type'] = ct;
  res.writeHead(upstream.statusCode ?? 200, headers);
  upstream.pipe(res);
  await new Promise<void>((resolve) => upstream.on('end', resolve).on('error', () => resolve()));
}

/** Go's net.IP.IsGlobalUnicast: not unspecified, loopback, link-local, multicast or broadcast. */
function globalUnicast(ip: string): boolean {
  if (isIP(ip) === 4) {
    const [a, b] = ip.split('.').map(Number);
    return !(a === 0 || a === 127 || (a === 169 && b === 254) || a >= 224);
  }
  if (isIP(ip) === 6) {
    const l = ip.toLowerCase();
    return !(l === '::' || l === '::1' || /^fe[89ab]/.test(l) || l.startsWith('ff'));
  }
  return false;
}

import type { Pod } from '../../api/core';

/**
 * Where the API server's pod and service proxies send a request for a pod: upstream dials
 * the pod's IP and port with the scheme the proxy id names (http unless it says https:, and
 * then without verifying the pod's certificate or presenting one of its own: the proxy
 * transport's TLS config is InsecureSkipVerify, cmd/kube-apiserver CreateProxyTransport).
 * Hollow pods have no network of their own, so the reference sends it to the pod's kubelet,
 * which stands for the pod network and answers as the pod would over that scheme:
 * /hollowPods/{ns}/{name}, …/{name}:{port}, or …/https:{name}:{port} (the port may be
 * empty), the same id form the proxy took (splitSchemeNamePort).
 */
export function hollowPodPath(pod: Pod, scheme: string, port: string): string {
  const name = encodeURIComponent(pod.metadata.name!);
  const id = scheme === 'https' ? `https:${name}:${port}` : port ? `${name}:${port}` : name;
  return `/hollowPods/${encodeURIComponent(pod.metadata.namespace!)}/${id}`;
}

import type { Pod } from '../api/core';

/** What a hollow pod answers to one HTTP request: the status code, its content type and body. */
export interface HollowPodAnswer {
  code: number;
  contentType: string;
  body: string;
}

/**
 * Whether a hollow pod listens on a TCP port. A pod whose containers declare ports listens
 * on exactly those; one that declares none listens wherever its process does, which the
 * spec does not state (a containerPort is informational: "Not specifying a port here DOES
 * NOT prevent that port from being exposed", core/v1 Container.ports), so on any port.
 * The API server's pods/{name}/proxy without a port dials such a pod at its IP with no port
 * (port 80, http's), which then answers as the kubelet's /hollowPods/{ns}/{pod} does.
 */
export function listensOn(pod: Pod, port: number): boolean {
  const declared = pod.spec.containers.flatMap((c) => c.ports ?? []);
  if (declared.length === 0) return true;
  return declared.some((p) => p.containerPort === port && (p.protocol ?? 'TCP') === 'TCP');
}

/**
 * How a request reached a hollow pod: the scheme the API server dialed it with (http unless
 * the proxy's id said `https:`), and the credentials it presented there, if any (a client
 * certificate's subject on a TLS connection, an Authorization header). What the pod answers
 * says both, so a scenario sees the seed's "HTTP, no authentication, no encryption; an https
 * prefix whose certificate is not verified" from the pod's side.
 */
export interface HollowPodCaller {
  scheme: 'http' | 'https';
  clientCertificate?: string;
  authorization?: boolean;
}

/** "over HTTPS, no credentials", "over HTTP, an Authorization header": how a request arrived. */
export function describeCaller(caller: HollowPodCaller): string {
  const credentials = [
    ...(caller.clientCertificate !== undefined ? [`a client certificate (${caller.clientCertificate})`] : []),
    ...(caller.authorization ? ['an Authorization header'] : []),
  ];
  return `over ${caller.scheme.toUpperCase()}, ${credentials.length ? credentials.join(' and ') : 'no credentials'}`;
}

/**
 * A hollow pod's answer to `method path`, at one of its ports or (port undefined) at the pod
 * as a whole. It has no network of its own: its kubelet stands for the pod network, both
 * behind the kubelet's /hollowPods/ (the in-process API server's pod and service proxies)
 * and behind the egress proxy a real API server dials pod IPs through
 * (src/drivers/kubelet-network.ts). A port it does not listen on refuses, as a dial would.
 */
export function hollowPodAnswer(
  nodeName: string,
  pod: Pod,
  port: number | undefined,
  method: string,
  path: string,
  caller: HollowPodCaller,
): HollowPodAnswer {
  const who = `hollow pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${nodeName} (${pod.status?.podIP ?? 'no IP'})`;
  if (port === undefined)
    return {
      code: 200,
      contentType: 'text/plain; charset=utf-8',
      body: `${who} answered ${method} ${path} ${describeCaller(caller)}\n`,
    };
  if (!listensOn(pod, port)) {
    return {
      code: 503,
      contentType: 'application/json',
      body: JSON.stringify({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `error trying to reach service: ${refusedDial(pod.status?.podIP ?? '', port)}`,
        reason: 'ServiceUnavailable',
        code: 503,
      }),
    };
  }
  return {
    code: 200,
    contentType: 'text/plain; charset=utf-8',
    body: `${who} port ${port} answered ${method} ${path} ${describeCaller(caller)}\n`,
  };
}

/** How a dial to a port nothing listens on fails (Go's net.Dial wording, which the API server passes on). */
export function refusedDial(ip: string, port: number): string {
  return `dial tcp ${ip}:${port}: connect: connection refused`;
}

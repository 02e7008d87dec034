import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import type { AuthorizationAttributes, UserInfo } from '../api/request';
import { CertificateAuthority } from '../apiserver/auth/pki';
import type { KubeconfigClient } from '../client/kubeconfig';
import { reportTo } from '../client/background';
import type { Clock } from '../clock';
import { HollowNetwork } from '../cluster/hollow-network';
import type { KubeletReviews } from '../kubelet/auth';
import { HollowPodCaller, hollowPodAnswer, listensOn, refusedDial } from '../kubelet/hollow-pod';
import type { HollowKubelet } from '../kubelet/kubelet';
import type { Pod } from '../api/core';
import { Credentials, kubeletCaller } from './driver';

/**
 * The port every hollow node publishes in status.daemonEndpoints.kubeletEndpoint.Port: the
 * kubelet's default, so nodes look exactly as upstream's; the egress proxy maps it to each
 * kubelet's real loopback port.
 */
export const KUBELET_PORT = 10250;

/** Whom the API server's egress goes through: the proxy's Unix socket. */
export interface EgressEndpoint {
  udsName: string;
}

/**
 * The EgressSelectorConfiguration (apiserver.k8s.io/v1beta1) that sends the API server's
 * `cluster` traffic — every dial to a node or a pod — through the proxy, as konnectivity does
 * on clusters whose nodes the control plane cannot route to. Upstream reads it with
 * --egress-selector-config-file (k8s.io/apiserver pkg/server/egressselector/config.go); the
 * kubelet client (pkg/kubelet/client/kubelet_client.go makeTransport: logs, exec, attach,
 * port-forward, node proxy to the kubelet port) and the proxy transport of the pod, node and
 * service proxies (cmd/kube-apiserver/app/server.go CreateKubeAPIServerConfig) then dial
 * through it. HTTPConnect over a Unix socket, not TCP: v1.32's tcpHTTPConnectConnector
 * always speaks TLS to the proxy and its getTLSConfig dereferences a tlsConfig that
 * validation forbids for an http:// URL (egress_selector.go), so only https:// with client
 * certificates, or a socket, works.
 */
export function egressSelectorConfiguration(endpoint: EgressEndpoint): string {
  return [
    'apiVersion: apiserver.k8s.io/v1beta1',
    'kind: EgressSelectorConfiguration',
    'egressSelections:',
    '  - name: cluster',
    '    connection:',
    '      proxyProtocol: HTTPConnect',
    '      transport:',
    `        uds: { udsName: ${JSON.stringify(endpoint.udsName)} }`,
    '',
  ].join('\n');
}

/**
 * A kubelet's webhook authentication and authorization (--authentication-token-webhook,
 * --authorization-mode=Webhook) at a real API server: a TokenReview and a
 * SubjectAccessReview through the driver's client, as upstream's kubelet sends them
 * (pkg/kubelet/server/auth.go; k8s.io/apiserver pkg/authentication/token/webhook,
 * pkg/authorization/webhook).
 */
export function apiReviews(api: () => Pick<KubeconfigClient, 'request'>): KubeletReviews {
  return {
    reviewToken: async (token) => {
      const r = await api().request<{ status?: { authenticated?: boolean; user?: Partial<UserInfo> } }>(
        'POST',
        '/apis/authentication.k8s.io/v1/tokenreviews',
        { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } },
      );
      if (!r.status?.authenticated) return undefined;
      const u = r.status.user ?? {};
      return { username: u.username ?? '', groups: u.groups ?? [], uid: u.uid, extra: u.extra };
    },
    review: async (attrs: AuthorizationAttributes) => {
      const r = await api().request<{ status?: { allowed?: boolean } }>(
        'POST',
        '/apis/authorization.k8s.io/v1/subjectaccessreviews',
        {
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec: {
              user: attrs.user.username,
              groups: attrs.user.groups,
              ...(attrs.user.uid ? { uid: attrs.user.uid } : {}),
              ...(attrs.user.extra ? { extra: attrs.user.extra } : {}),
              ...(attrs.isResourceRequest
                ? {
                    resourceAttributes: {
                      verb: attrs.verb,
                      group: attrs.apiGroup,
                      resource: attrs.resource,
                      subresource: attrs.subresource,
                      namespace: attrs.namespace,
                      name: attrs.name,
                    },
                  }
                : { nonResourceAttributes: { path: attrs.path, verb: attrs.verb } }),
            },
          },
        },
      );
      return r.status?.allowed === true;
    },
  };
}

/** What a CONNECT names: a kubelet (piped to its HTTPS API), a pod's port (answered here), or nothing. */
type Destination =
  | { kubelet: number }
  | { pod: Pod; nodeName: string; port: number }
  | { refused: string }
  | { unreachable: string };

/**
 * The network between a real API server and the hollow kubelets the kube driver runs: each
 * kubelet's HTTPS API on a free loopback port (HollowNetwork, as `kubespec serve` serves
 * its own), and an HTTP CONNECT proxy on a Unix socket that the API server's egress
 * selector dials through. A CONNECT to a node address (any of status.addresses) at the
 * kubelet port is piped to that kubelet; one to a pod IP and port is answered as the hollow
 * pod answers (plain HTTP over the tunnel; hollow-pod.ts); nodes and pods thus keep the
 * addresses the scenarios state, and nothing is rewritten.
 */
export class KubeletNetwork {
  readonly network = new HollowNetwork();
  private proxy?: http.Server;
  /** Answers HTTP over the tunnels to pods: each socket's pod and port. */
  private readonly podServer: http.Server;
  private readonly tunnels = new WeakMap<
    object,
    { pod: Pod; nodeName: string; port: number; caller: HollowPodCaller }
  >();
  private readonly sockets = new Set<Duplex>();

  constructor(
    private readonly pki: {
      /** Issues the kubelets' serving certificates. */
      kubeletCA: CertificateAuthority;
      /** The cluster CA: the kubelets' client CA, and the issuer of direct callers' certificates. */
      clusterCA: CertificateAuthority;
    },
    private readonly clock: Clock,
    private readonly reviews: KubeletReviews,
  ) {
    this.podServer = http.createServer((req, res) => {
      const t = this.tunnels.get(req.socket);
      if (!t) {
        res.writeHead(502).end();
        return;
      }
      const a = hollowPodAnswer(
        t.nodeName,
        t.pod,
        t.port,
        req.method ?? 'GET',
        new URL(req.url ?? '/', 'http://pod').pathname,
        { ...t.caller, authorization: req.headers.authorization !== undefined },
      );
      res.writeHead(a.code, { 'Content-Type': a.contentType });
      res.end(a.body);
    });
  }

  /** Listens for CONNECT on a Unix socket (removed first if a stale one is there). */
  async listen(endpoint: EgressEndpoint): Promise<void> {
    // The pods' certificate is made now, off the path of the first https: handshake.
    setImmediate(hollowPodSecureContext).unref();
    fs.rmSync(endpoint.udsName, { force: true });
    const proxy = http.createServer((_req, res) => {
      res.writeHead(405, { 'Content-Type': 'text/plain' }).end('only CONNECT\n');
    });
    proxy.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => this.connect(req, socket, head));
    await new Promise<void>((resolve, reject) => proxy.once('error', reject).listen(endpoint.udsName, () => resolve()));
    proxy.on('error', reportTo('kubelet network: the egress proxy'));
    this.proxy = proxy;
  }

  /** Serves a hollow kubelet's HTTPS API (before it registers its node, so the node's first address answers). */
  async serve(kubelet: HollowKubelet): Promise<void> {
    await this.network.serve(kubelet, this.clock, {
      kubeletCA: this.pki.kubeletCA,
      clientCA: this.pki.clusterCA.keyPair.certPem,
      reviews: this.reviews,
    });
  }

  /** One request straight to a kubelet's HTTPS API (HttpAccess.kubelet), not through the API server. */
  request(
    node: string,
    credentials: Credentials,
    method: string,
    path: string,
  ): Promise<{ status: number; body: string }> {
    return this.network.request(node, kubeletCaller(credentials), this.pki.clusterCA, method, path);
  }

  /**
   * Stops the scenario's kubelets and their tunnels; the proxy goes on listening, for the next
   * scenario on the same API server (a reused control plane, upstream/pool.ts).
   */
  async stopKubelets(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await this.network.stopAll();
  }

  /** While its API server is idle in the pool, its listening socket must not keep the run alive. */
  unref(): void {
    this.proxy?.unref();
  }

  ref(): void {
    this.proxy?.ref();
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    const proxy = this.proxy;
    this.proxy = undefined;
    if (proxy) await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await this.network.stopAll();
  }

  private destination(authority: string): Destination {
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority);
    if (!m) return { unreachable: `dial tcp ${authority}: missing port in address` };
    const [, host, portText] = m;
    const port = Number(portText);
    // A kubelet that stopped is a machine that does not answer (as KubeletClient tells it).
    const noRoute = { unreachable: `dial tcp ${host}:${port}: connect: no route to host` };
    const node = this.network.byAddress(host);
    if (node) {
      if (!node.kubelet.isRunning) return noRoute;
      if (port === KUBELET_PORT) return { kubelet: node.server.port };
      return { refused: refusedDial(host, port) }; // nothing else listens on a hollow node
    }
    const pod = this.network.podByIP(host);
    if (!pod) return noRoute;
    if (!listensOn(pod.pod, port)) return { refused: refusedDial(host, port) };
    return { ...pod, port };
  }

  /**
   * One CONNECT from the API server's egress dialer. Its tunnelHTTPConnect reads the answer
   * with http.ReadResponse and fails unless it is 200 with nothing after it (TLS and HTTP
   * both let the client speak first); a failed dial is a non-200 whose reason is the dial
   * error, which the API server then reports ("proxy error from … while dialing …, code 503:
   * 503 dial tcp …: connect: connection refused").
   */
  private connect(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    this.sockets.add(socket);
    // A tunnel's peer going away (reset, closed) ends the tunnel: each side is destroyed with
    // the other, which is all a proxy can do with it.
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
    const d = this.destination(req.url ?? '');
    const refuse = (why: string): void => {
      socket.end(`HTTP/1.1 503 ${why}\r\nContent-Length: 0\r\n\r\n`);
    };
    if ('refused' in d) return refuse(d.refused);
    if ('unreachable' in d) return refuse(d.unreachable);
    if ('kubelet' in d) {
      const up = net.connect({ host: '127.0.0.1', port: d.kubelet });
      let connected = false;
      up.once('connect', () => {
        connected = true;
        socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
        if (head.length) up.write(head);
        socket.pipe(up).pipe(socket);
      });
      up.on('error', (e) => {
        if (!connected) refuse(`dial tcp ${req.url}: ${e.message}`);
        else socket.destroy();
      });
      socket.on('close', () => up.destroy());
      return;
    }
    socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
    // A hollow pod answers whichever the API server speaks first: a TLS ClientHello (the
    // proxy id's https: prefix) or a plain HTTP request (no prefix).
    const first = (chunk: Buffer): void => {
      const tunnel = replaying(socket, chunk);
      if (chunk[0] !== TLS_HANDSHAKE) {
        this.tunnels.set(tunnel, { ...d, caller: { scheme: 'http' } });
        this.podServer.emit('connection', tunnel);
        return;
      }
      const secure = new tls.TLSSocket(tunnel, {
        isServer: true,
        secureContext: hollowPodSecureContext(),
        requestCert: true,
        rejectUnauthorized: false,
      });
      secure.on('error', () => socket.destroy());
      secure.once('secure', () => {
        const subject = secure.getPeerCertificate()?.subject;
        this.tunnels.set(secure, {
          ...d,
          caller: { scheme: 'https', clientCertificate: subject?.CN ? `CN=${subject.CN}` : undefined },
        });
        this.podServer.emit('connection', secure);
      });
    };
    if (head.length) first(head);
    else socket.once('data', first);
  }
}

/**
 * What hollow pods serve HTTPS with: a certificate of a CA of their own, which nobody is given,
 * so a caller that completes the handshake has not verified it. One per process, made before
 * it is needed (KubeletNetwork.listen): made inside the first handshake (two RSA keys, two
 * signatures) it took the API server past net/http's 10 s TLS handshake timeout at load 40
 * (upstream, twelfth and thirteenth full runs, service-proxy.feature "https:").
 */
let hollowPodTLS: tls.SecureContext | undefined;
function hollowPodSecureContext(): tls.SecureContext {
  if (!hollowPodTLS) {
    const pair = CertificateAuthority.create('hollow-pods-ca').issue({ commonName: 'hollow-pod', usage: 'server' });
    hollowPodTLS = tls.createSecureContext({ cert: pair.certPem, key: pair.keyPem });
  }
  return hollowPodTLS;
}

/** The first byte of a TLS record carrying a handshake (a ClientHello, when a client speaks first). */
const TLS_HANDSHAKE = 0x16;

/**
 * The tunnel as a stream that gives its first chunk again: the chunk read to tell TLS from
 * HTTP is the start of what the pod's server must read.
 */
function replaying(socket: Duplex, firstChunk: Buffer): Duplex {
  const tunnel = new Duplex({
    read: () => {
      socket.resume();
    },
    write: (chunk, encoding, callback) => {
      socket.write(chunk, encoding, callback);
    },
    final: (callback) => {
      socket.end();
      callback();
    },
    destroy: (error, callback) => {
      socket.destroy();
      callback(error);
    },
  });
  tunnel.push(firstChunk);
  socket.on('data', (chunk: Buffer) => {
    if (!tunnel.push(chunk)) socket.pause();
  });
  socket.on('end', () => tunnel.push(null));
  socket.on('close', () => tunnel.destroy());
  return tunnel;
}

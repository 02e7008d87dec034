import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { WebSocket, WebSocketServer } from 'ws';
import { errors } from '../../api/errors';
import { Node, Pod } from '../../api/core';
import type { ApiServer } from '../apiserver';
import { KubeletClient } from './kubelet-client';
import { toStatusError } from './respond';

/**
 * pods/{name}/exec, /attach and /portforward (COMM-EXEC, COMM-ATTACH, COMM-PORT-FORWARD):
 * the API server checks the pod and the container, finds the pod's node and relays the
 * client's upgrade to that node's kubelet (/exec/{ns}/{pod}/{container}, /attach/…,
 * /portForward/{ns}/{pod}), then copies bytes both ways until either side closes, as
 * upstream's UpgradeAwareHandler does (pkg/registry/core/pod/rest/subresources.go,
 * ExecLocation/AttachLocation/PortForwardLocation in pkg/registry/core/pod/strategy.go).
 *
 * exec and attach relay the client's protocol untouched: WebSocket (v5/v4.channel.k8s.io,
 * what kubectl ≥ 1.31 speaks first) or SPDY/3.1 (its fallback). port-forward over a
 * WebSocket whose subprotocol is `SPDY/3.1+portforward.k8s.io` (kubectl ≥ 1.31,
 * PortForwardWebsockets) is translated: the API server ends the WebSocket, opens SPDY to the
 * kubelet and carries the SPDY bytes in binary messages, as upstream's tunneling handler.
 */
export const PORT_FORWARD_TUNNEL = 'SPDY/3.1+portforward.k8s.io';

/** Answers an upgrade request with a Status, without switching protocols. */
export function writeUpgradeError(socket: Duplex, e: unknown): void {
  const status = toStatusError(e).status;
  const body = JSON.stringify(status);
  if (socket.destroyed) return;
  socket.end(
    `HTTP/1.1 ${status.code} ${status.reason || 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Request headers a relayed upgrade keeps (hop-by-hop ones are rebuilt; credentials never leave). */
const RELAYED = [
  'upgrade',
  'connection',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-protocol',
  'sec-websocket-extensions',
  'x-stream-protocol-version',
  'user-agent',
];

/** Reads an HTTP response head from a socket; resolves with its status code, the head's bytes and what followed. */
function readHead(socket: Duplex): Promise<{ code: number; head: Buffer; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      socket.off('error', reject);
      socket.off('end', onEnd);
      socket.pause();
      const head = buf.subarray(0, end + 4);
      resolve({
        code: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.toString('latin1'))?.[1] ?? 0),
        head,
        rest: buf.subarray(end + 4),
      });
    };
    const onEnd = () => reject(errors.internal('error dialing backend: the kubelet closed the connection'));
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('end', onEnd);
  });
}

function pipeBoth(a: Duplex, b: Duplex): void {
  a.pipe(b);
  b.pipe(a);
  const close = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', close);
  b.on('error', close);
  a.on('close', close);
  b.on('close', close);
}

export class ApiStreaming {
  /**
   * `SPDY/3.1+portforward.k8s.io` is not an RFC 6455 token ('/' is a separator), so the ws
   * library would refuse it: the offer is taken off the request before the handshake and
   * the choice put back on the 101.
   */
  private readonly tunnels = new WebSocketServer({ noServer: true }).on('headers', (headers) =>
    headers.push(`Sec-WebSocket-Protocol: ${PORT_FORWARD_TUNNEL}`),
  );

  constructor(
    private readonly api: ApiServer,
    private readonly kubelets: () => KubeletClient,
  ) {}

  static handles(resource: string | undefined, subresource: string | undefined): boolean {
    return resource === 'pods' && (subresource === 'exec' || subresource === 'attach' || subresource === 'portforward');
  }

  async upgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    namespace: string,
    name: string,
    subresource: string,
    q: URLSearchParams,
  ): Promise<void> {
    const pod = (await this.api.get({ resource: 'pods', namespace, name })) as Pod;
    const { path, query } =
      subresource === 'portforward'
        ? { path: `/portForward/${enc(namespace)}/${enc(name)}`, query: '' }
        : this.commandLocation(pod, subresource, q);
    if (!pod.spec.nodeName) throw errors.badRequest(`pod ${pod.metadata.name} does not have a host assigned`);
    const node = (await this.api.get({ resource: 'nodes', name: pod.spec.nodeName })) as Node;
    const upgrade = String(req.headers.upgrade ?? '').toLowerCase();
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((s) => s.trim());
    if (subresource === 'portforward' && upgrade === 'websocket' && offered.includes(PORT_FORWARD_TUNNEL)) {
      return this.tunnel(req, socket, head, node, path);
    }
    const headers: Record<string, string> = {};
    for (const h of RELAYED) {
      const v = req.headers[h];
      if (v !== undefined) headers[h] = Array.isArray(v) ? v.join(', ') : v;
    }
    const kubelet = await this.kubelets().dial(
      node,
      req.method ?? 'GET',
      `${path}${query ? `?${query}` : ''}`,
      headers,
    );
    if (head.length) kubelet.write(head);
    pipeBoth(socket, kubelet);
  }

  /** ExecLocation/AttachLocation: the container (the only one when none is named) and the stream options. */
  private commandLocation(pod: Pod, subresource: string, q: URLSearchParams): { path: string; query: string } {
    const containers = pod.spec.containers ?? [];
    let container = q.get('container');
    if (!container) {
      if (containers.length !== 1)
        throw errors.badRequest(
          `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${containers.map((c) => c.name).join(' ')}]`,
        );
      container = containers[0].name;
    }
    if (!containers.some((c) => c.name === container))
      throw errors.badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`);
    const params = new URLSearchParams();
    if (subresource === 'exec') for (const c of q.getAll('command')) params.append('command', c);
    // The kubelet's names for the stream options (core/v1 ExecStdinParam "input", …).
    for (const [from, to] of [
      ['stdin', 'input'],
      ['stdout', 'output'],
      ['stderr', 'error'],
      ['tty', 'tty'],
    ]) {
      const v = q.get(from);
      if (v === '1' || v === 'true') params.set(to, '1');
    }
    return {
      path: `/${subresource}/${enc(pod.metadata.namespace!)}/${enc(pod.metadata.name!)}/${enc(container)}`,
      query: params.toString(),
    };
  }

  /** A WebSocket carrying SPDY (port-forward, KEP-4006): SPDY to the kubelet, its bytes in binary messages. */
  private async tunnel(req: IncomingMessage, socket: Duplex, head: Buffer, node: Node, path: string): Promise<void> {
    const kubelet: TLSSocket = await this.kubelets().dial(node, 'POST', path, {
      Connection: 'Upgrade',
      Upgrade: 'SPDY/3.1',
      'X-Stream-Protocol-Version': 'portforward.k8s.io',
      'Content-Length': '0',
    });
    const answer = await readHead(kubelet);
    if (answer.code !== 101) {
      // The kubelet's refusal reaches the client as it is (no 101: kubectl reports it).
      socket.write(answer.head);
      socket.write(answer.rest);
      kubelet.resume();
      kubelet.pipe(socket);
      return;
    }
    delete req.headers['sec-websocket-protocol'];
    this.tunnels.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      if (answer.rest.length) ws.send(answer.rest);
      kubelet.on('data', (d: Buffer) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(d);
      });
      kubelet.resume();
      ws.on('message', (data: Buffer) =>
        kubelet.write(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer)),
      );
      const close = () => {
        kubelet.destroy();
        if (ws.readyState === WebSocket.OPEN) ws.close(1000);
      };
      ws.on('close', close);
      ws.on('error', close);
      kubelet.on('close', close);
      kubelet.on('error', close);
    });
  }
}

function enc(s: string): string {
  return encodeURIComponent(s);
}

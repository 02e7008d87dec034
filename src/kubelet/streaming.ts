import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { Pod } from '../api/core';
import { PORT_FORWARD_PROTOCOL, portForward } from './portforward';
import {
  CommandOptions,
  REMOTE_COMMAND_SPDY,
  REMOTE_COMMAND_WEBSOCKET,
  runSession,
  spdyCommand,
  websocketIO,
  WEBSOCKET_SESSION_START_MS,
} from './remotecommand';

/**
 * The kubelet's streaming endpoints (upstream pkg/kubelet/server/server.go and the CRI
 * streaming server, pkg/kubelet/cri/streaming): `/exec/{ns}/{pod}/{container}`,
 * `/attach/{ns}/{pod}/{container}` and `/portForward/{ns}/{pod}`, reached through the API
 * server's pods/{name}/exec, /attach and /portforward.
 *
 * - exec and attach speak the remotecommand protocol over a WebSocket (`v5.channel.k8s.io`,
 *   `v4.channel.k8s.io`: one byte of channel — 0 stdin, 1 stdout, 2 stderr, 3 error, 4
 *   resize; v5 adds 255, the client closing one of its channels) or over SPDY/3.1 (one
 *   stream per channel, `streamtype` header, X-Stream-Protocol-Version v4…v1). The end is a
 *   metav1.Status on the error channel: Success, or Failure/NonZeroExitCode with the code in
 *   a cause of type ExitCode.
 * - port-forward speaks `portforward.k8s.io` over SPDY/3.1: per connection the client opens
 *   an error stream and a data stream (headers `port`, `requestid`); what the pod answers on
 *   that port flows on the data stream, failures are written on the error stream.
 *
 * Hollow containers run the simulated commands of ./exec; a hollow pod answers on each
 * containerPort it declares (an HTTP request gets a one-line HTTP answer, anything else is
 * echoed); an undeclared port refuses the connection. attach joins the hollow main process,
 * which echoes its stdin to stdout; the session ends when the client closes its stdin.
 *
 * This module routes an upgrade to its protocol: remotecommand.ts (exec, attach) and
 * portforward.ts, as upstream's streaming server has a package for each.
 */

export interface StreamingTarget {
  /** The running pod of this kubelet, or undefined. */
  pod(namespace: string, name: string): Pod | undefined;
  nodeName: string;
}

/** An HTTP error answered on a socket that asked to upgrade (no 101). */
export function refuseUpgrade(socket: Duplex, code: number, message: string): void {
  const reason =
    {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      405: 'Method Not Allowed',
      500: 'Internal Server Error',
      503: 'Service Unavailable',
    }[code] ?? 'Error';
  const body = Buffer.from(message);
  socket.end(
    `HTTP/1.1 ${code} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${message}`,
  );
}

function flag(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  return v === '1' || v === 'true';
}

function headerList(v: string | string[] | undefined): string[] {
  return (Array.isArray(v) ? v.join(',') : (v ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export class KubeletStreaming {
  private readonly wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => REMOTE_COMMAND_WEBSOCKET.find((p) => protocols.has(p)) ?? false,
  });

  constructor(private readonly target: StreamingTarget) {}

  /** Whether a path is one of the streaming endpoints. */
  static handles(path: string): boolean {
    return /^\/(exec|attach|portForward)\//.test(path);
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const cmd = /^\/(exec|attach)\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    const pf = /^\/portForward\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (!cmd && !pf) return refuseUpgrade(socket, 404, '404 page not found\n');
    const [ns, name] = (cmd ? [cmd[2], cmd[3]] : [pf![1], pf![2]]).map(decodeURIComponent);
    const pod = this.target.pod(ns, name);
    if (!pod) return refuseUpgrade(socket, 404, `pod ${ns}/${name} not found`);
    const upgrade = String(req.headers.upgrade ?? '').toLowerCase();
    if (pf) {
      if (
        upgrade !== 'spdy/3.1' ||
        !headerList(req.headers['x-stream-protocol-version']).includes(PORT_FORWARD_PROTOCOL)
      ) {
        return refuseUpgrade(
          socket,
          400,
          `unable to upgrade: port-forward needs Upgrade: SPDY/3.1 and X-Stream-Protocol-Version: ${PORT_FORWARD_PROTOCOL}`,
        );
      }
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: ${PORT_FORWARD_PROTOCOL}\r\n\r\n`,
      );
      return portForward(pod, this.target.nodeName, socket, head);
    }
    const kind = cmd![1] as 'exec' | 'attach';
    const container = decodeURIComponent(cmd![4]);
    if (!pod.spec.containers.some((c) => c.name === container))
      return refuseUpgrade(socket, 404, `container ${container} not found in pod ${ns}/${name}`);
    const q = url.searchParams;
    const opts: CommandOptions = {
      stdin: flag(q, 'input'),
      stdout: flag(q, 'output'),
      stderr: flag(q, 'error'),
      tty: flag(q, 'tty'),
    };
    const argv = q.getAll('command');
    if (!opts.stdin && !opts.stdout && !opts.stderr)
      return refuseUpgrade(socket, 400, 'you must specify at least 1 of stdin, stdout, stderr');
    if (kind === 'exec' && argv.length === 0)
      return refuseUpgrade(socket, 400, 'you must specify at least one command for the container');
    if (upgrade === 'websocket') {
      const offered = headerList(req.headers['sec-websocket-protocol']);
      if (!REMOTE_COMMAND_WEBSOCKET.some((p) => offered.includes(p)))
        return refuseUpgrade(
          socket,
          400,
          `unable to upgrade: none of the offered subprotocols ${JSON.stringify(offered)} is supported (want one of ${REMOTE_COMMAND_WEBSOCKET.join(', ')})`,
        );
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        const io = websocketIO(ws, ws.protocol === 'v5.channel.k8s.io');
        setTimeout(() => runSession(kind, pod, container, argv, opts, io), WEBSOCKET_SESSION_START_MS);
      });
      return;
    }
    if (upgrade === 'spdy/3.1') {
      const protocol = REMOTE_COMMAND_SPDY.find((p) =>
        headerList(req.headers['x-stream-protocol-version']).includes(p),
      );
      if (!protocol)
        return refuseUpgrade(
          socket,
          403,
          `unable to upgrade: no supported stream protocol among ${JSON.stringify(headerList(req.headers['x-stream-protocol-version']))}`,
        );
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: ${protocol}\r\n\r\n`,
      );
      return spdyCommand(kind, pod, container, argv, opts, socket, head);
    }
    refuseUpgrade(socket, 400, 'unable to upgrade: the request asks for neither a WebSocket nor SPDY/3.1');
  }
}

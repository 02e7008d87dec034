import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { Pod } from '../api/core';
import { readsStdin, runCommand } from './exec';
import { SpdySession, SpdyStream } from './spdy';

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
 */

export interface StreamingTarget {
  /** The running pod of this kubelet, or undefined. */
  pod(namespace: string, name: string): Pod | undefined;
  nodeName: string;
}

export const REMOTE_COMMAND_WEBSOCKET = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];
export const REMOTE_COMMAND_SPDY = ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'];
export const PORT_FORWARD_PROTOCOL = 'portforward.k8s.io';

enum Channel {
  Stdin = 0,
  Stdout = 1,
  Stderr = 2,
  Error = 3,
  Resize = 4,
  Close = 255,
}

/** How a remote command's streams reach the client, whatever the transport. */
interface CommandIO {
  stdout(b: Buffer): void;
  stderr(b: Buffer): void;
  onStdin(cb: (b: Buffer) => void): void;
  onStdinEnd(cb: () => void): void;
  /** Writes the final Status on the error channel and closes the session. */
  finish(status: object): void;
}

interface CommandOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

const SUCCESS = { metadata: {}, status: 'Success' };

function exitStatus(argv: string[], code: number): object {
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${argv.join(' ')}], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
  };
}

function runSession(
  kind: 'exec' | 'attach',
  pod: Pod,
  container: string,
  argv: string[],
  opts: CommandOptions,
  io: CommandIO,
): void {
  if (kind === 'attach') {
    // The hollow main process echoes what it reads; without stdin it writes nothing more.
    if (!opts.stdin) return;
    io.onStdin((b) => (opts.stdout ? io.stdout(b) : undefined));
    io.onStdinEnd(() => io.finish(SUCCESS));
    return;
  }
  const run = (stdin: string) => {
    const r = runCommand({ pod, container }, argv, stdin);
    if (opts.stdout && r.stdout) io.stdout(Buffer.from(r.stdout));
    // With a TTY there is no separate stderr: it joins stdout.
    if (r.stderr)
      opts.tty
        ? opts.stdout
          ? io.stdout(Buffer.from(r.stderr))
          : undefined
        : opts.stderr
          ? io.stderr(Buffer.from(r.stderr))
          : undefined;
    io.finish(r.exitCode === 0 ? SUCCESS : exitStatus(argv, r.exitCode));
  };
  if (opts.stdin && readsStdin(argv)) {
    const chunks: Buffer[] = [];
    io.onStdin((b) => chunks.push(b));
    io.onStdinEnd(() => run(Buffer.concat(chunks).toString()));
  } else {
    run('');
  }
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

/** The answer of a hollow pod's port to the bytes of one connection. */
class PortResponder {
  private buf = '';
  private answered = false;

  constructor(
    private readonly pod: Pod,
    private readonly nodeName: string,
    private readonly port: number,
    private readonly write: (b: Buffer) => void,
    private readonly end: () => void,
  ) {}

  data(b: Buffer): void {
    if (this.answered) return;
    this.buf += b.toString('latin1');
    const http = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r?\n/.exec(this.buf);
    if (http) {
      if (!/\r?\n\r?\n/.test(this.buf)) return; // the rest of the request head is on its way
      this.answered = true;
      const text = `hollow pod ${this.pod.metadata.namespace}/${this.pod.metadata.name} on node ${this.nodeName} (${this.pod.status?.podIP ?? 'no IP'}) port ${this.port} answered ${http[1]} ${http[2]}\n`;
      this.write(
        Buffer.from(
          `HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
        ),
      );
      this.end();
      return;
    }
    if (/^[A-Z]*$/.test(this.buf) && this.buf.length < 8) return; // maybe the start of a request line
    this.write(Buffer.from(this.buf, 'latin1')); // an echo server for anything else
    this.buf = '';
  }
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
      return this.portForward(pod, socket, head);
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
      this.wss.handleUpgrade(req, socket, head, (ws) =>
        runSession(kind, pod, container, argv, opts, this.websocketIO(ws, ws.protocol === 'v5.channel.k8s.io')),
      );
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
      return this.spdyCommand(kind, pod, container, argv, opts, socket, head);
    }
    refuseUpgrade(socket, 400, 'unable to upgrade: the request asks for neither a WebSocket nor SPDY/3.1');
  }

  private websocketIO(ws: WebSocket, v5: boolean): CommandIO {
    const stdin: ((b: Buffer) => void)[] = [];
    const stdinEnd: (() => void)[] = [];
    let stdinClosed = false;
    const closeStdin = () => {
      if (!stdinClosed) {
        stdinClosed = true;
        for (const cb of stdinEnd) cb();
      }
    };
    const send = (channel: number, b: Buffer) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(Buffer.concat([Buffer.from([channel]), b]));
    };
    ws.on('message', (data: Buffer, isBinary) => {
      const b = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (!isBinary || b.length === 0) return;
      if (b[0] === Channel.Stdin) for (const cb of stdin) cb(b.subarray(1));
      else if (v5 && b[0] === Channel.Close && b[1] === Channel.Stdin) closeStdin();
      // Resize (4) changes nothing in a hollow terminal.
    });
    ws.on('close', closeStdin);
    return {
      stdout: (b) => send(Channel.Stdout, b),
      stderr: (b) => send(Channel.Stderr, b),
      onStdin: (cb) => stdin.push(cb),
      onStdinEnd: (cb) => (stdinClosed ? cb() : stdinEnd.push(cb)),
      finish: (status) => {
        send(Channel.Error, Buffer.from(JSON.stringify(status)));
        ws.close(1000);
      },
    };
  }

  /** remotecommand over SPDY: waits for the streams the options call for, then runs. */
  private spdyCommand(
    kind: 'exec' | 'attach',
    pod: Pod,
    container: string,
    argv: string[],
    opts: CommandOptions,
    socket: Duplex,
    head: Buffer,
  ): void {
    const streams = new Map<string, SpdyStream>();
    const expected = [
      'error',
      ...(opts.stdin ? ['stdin'] : []),
      ...(opts.stdout ? ['stdout'] : []),
      ...(opts.stderr && !opts.tty ? ['stderr'] : []),
      ...(opts.tty ? ['resize'] : []),
    ];
    let started = false;
    const session = new SpdySession(
      (b) => socket.write(b),
      (s) => {
        s.reply();
        streams.set(s.headers.streamtype ?? '', s);
        if (started || !expected.every((t) => streams.has(t))) return;
        started = true;
        const stdin = streams.get('stdin');
        runSession(kind, pod, container, argv, opts, {
          stdout: (b) => streams.get('stdout')?.write(b),
          stderr: (b) => streams.get('stderr')?.write(b),
          onStdin: (cb) => stdin?.onData(cb),
          onStdinEnd: (cb) => (stdin ? stdin.onEnd(cb) : cb()),
          finish: (status) => {
            const error = streams.get('error')!;
            // v1 and v2 report only failures, as text; v3+ always a Status.
            if ((status as { status?: string }).status !== 'Success') error.write(JSON.stringify(status));
            for (const st of streams.values()) st.end();
            setImmediate(() => socket.end());
          },
        });
      },
      () => socket.destroy(),
    );
    socket.on('data', (d: Buffer) => session.feed(d));
    socket.on('close', () => session.close());
    socket.on('error', () => session.close());
    if (head.length) session.feed(head);
  }

  /** port-forward over SPDY, on a socket or on the byte stream of a WebSocket tunnel. */
  portForward(pod: Pod, socket: Duplex, head: Buffer): void {
    const pairs = new Map<string, { error?: SpdyStream; data?: SpdyStream }>();
    const session = new SpdySession(
      (b) => socket.write(b),
      (s) => {
        const type = s.headers.streamtype;
        const id = s.headers.requestid ?? '';
        const port = Number(s.headers.port);
        if ((type !== 'error' && type !== 'data') || !Number.isInteger(port) || port <= 0 || port > 65535) {
          s.reset();
          return;
        }
        s.reply();
        const pair = pairs.get(id) ?? {};
        pairs.set(id, pair);
        pair[type] = s;
        if (!pair.error || !pair.data) return;
        pairs.delete(id);
        const { error, data } = pair as { error: SpdyStream; data: SpdyStream };
        const declared = pod.spec.containers.some((c) =>
          (c.ports ?? []).some((p) => p.containerPort === port && (p.protocol ?? 'TCP') === 'TCP'),
        );
        if (!declared) {
          error.write(
            `failed to connect to localhost:${port} inside the network namespace of pod ${pod.metadata.namespace}/${pod.metadata.name}: dial tcp4 127.0.0.1:${port}: connect: connection refused`,
          );
          error.end();
          data.end();
          return;
        }
        const responder = new PortResponder(
          pod,
          this.target.nodeName,
          port,
          (b) => data.write(b),
          () => {
            data.end();
            error.end();
          },
        );
        data.onData((b) => responder.data(b));
        data.onEnd(() => {
          data.end();
          error.end();
        });
      },
      () => socket.destroy(),
    );
    socket.on('data', (d: Buffer) => session.feed(d));
    socket.on('close', () => session.close());
    socket.on('error', () => session.close());
    if (head.length) session.feed(head);
  }
}

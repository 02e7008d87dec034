import type { Duplex } from 'node:stream';
import { Pod } from '../api/core';
import { SpdySession, SpdyStream } from './spdy';

/**
 * port-forward (upstream pkg/kubelet/cri/streaming/portforward): `portforward.k8s.io` over
 * SPDY/3.1, an error and a data stream per connection (headers `port`, `requestid`), and the
 * hollow pod's answer on each port it declares.
 */

export const PORT_FORWARD_PROTOCOL = 'portforward.k8s.io';

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

/** port-forward over SPDY, on a socket or on the byte stream of a WebSocket tunnel. */
export function portForward(pod: Pod, nodeName: string, socket: Duplex, head: Buffer): void {
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
        nodeName,
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
    // a protocol error: the session's GOAWAY goes out, then the connection closes
    () => socket.end(),
  );
  socket.on('data', (d: Buffer) => session.feed(d));
  socket.on('close', () => session.close());
  socket.on('error', () => session.close());
  if (head.length) session.feed(head);
}

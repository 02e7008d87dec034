import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import { Pod } from '../api/core';
import { readsStdin, runCommand } from './exec';
import { SpdySession, SpdyStream } from './spdy';

/**
 * exec and attach: the remotecommand protocol (upstream pkg/kubelet/cri/streaming/remotecommand)
 * over a WebSocket (`v5.channel.k8s.io`, `v4.channel.k8s.io`: one byte of channel per
 * message) or over SPDY/3.1 (one stream per channel), and the hollow session behind it:
 * exec runs a simulated command of ./exec, attach joins the hollow main process.
 */

export const REMOTE_COMMAND_WEBSOCKET = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];
export const REMOTE_COMMAND_SPDY = ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'];

/**
 * How long after the WebSocket upgrade a hollow session starts, in real time: a container
 * runtime's exec takes tens of milliseconds to start the process, and client-go counts on it.
 * Its WebSocket executor (tools/remotecommand/websocket.go, StreamWithContext) starts the read
 * loop and registers the streams in two goroutines at once; a frame that arrives before its
 * stream is registered is dropped ("Unknown stream id 1, discarding message") and kubectl
 * prints nothing. A hollow `echo` answered 0.2 ms after the upgrade, often in the same TCP read
 * as the 101, and lost its output about once in a few hundred runs under load. SPDY needs no
 * wait: the client opens each stream itself and the session starts when all are there.
 */
export const WEBSOCKET_SESSION_START_MS = 50;

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

export interface CommandOptions {
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

export function runSession(
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

export function websocketIO(ws: WebSocket, v5: boolean): CommandIO {
  const stdin: ((b: Buffer) => void)[] = [];
  // stdin that arrives before the session reads it (it starts WEBSOCKET_SESSION_START_MS late)
  const unread: Buffer[] = [];
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
    if (b[0] === Channel.Stdin) {
      if (stdin.length === 0) unread.push(b.subarray(1));
      for (const cb of stdin) cb(b.subarray(1));
    } else if (v5 && b[0] === Channel.Close && b[1] === Channel.Stdin) closeStdin();
    // Resize (4) changes nothing in a hollow terminal.
  });
  ws.on('close', closeStdin);
  return {
    stdout: (b) => send(Channel.Stdout, b),
    stderr: (b) => send(Channel.Stderr, b),
    onStdin: (cb) => {
      stdin.push(cb);
      for (const b of unread.splice(0)) cb(b);
    },
    onStdinEnd: (cb) => (stdinClosed ? cb() : stdinEnd.push(cb)),
    finish: (status) => {
      send(Channel.Error, Buffer.from(JSON.stringify(status)));
      ws.close(1000);
    },
  };
}

/** remotecommand over SPDY: waits for the streams the options call for, then runs. */
export function spdyCommand(
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
    // a protocol error: the session's GOAWAY goes out, then the connection closes
    () => socket.end(),
  );
  socket.on('data', (d: Buffer) => session.feed(d));
  socket.on('close', () => session.close());
  socket.on('error', () => session.close());
  if (head.length) session.feed(head);
}

import * as zlib from 'node:zlib';
import { SPDY_DICTIONARY } from '../util/spdy-dictionary';

/**
 * The server side of a SPDY/3.1 session, as much as Kubernetes' streaming protocols use
 * (k8s.io/apimachinery/pkg/util/httpstream/spdy over moby/spdystream): the client opens
 * streams with SYN_STREAM (headers say what each stream is), the server answers each with
 * SYN_REPLY, bytes flow in DATA frames, FIN half-closes, RST_STREAM aborts, PING is echoed.
 * No flow control is enforced (spdystream does not either). The session runs over any byte
 * transport: a socket after an HTTP `Upgrade: SPDY/3.1`, or the binary messages of a
 * WebSocket tunnel (`SPDY/3.1+portforward.k8s.io`).
 *
 * Header blocks are zlib streams with the SPDY/3 dictionary, one compression context per
 * direction for the whole session. Incoming blocks are inflated one at a time, each at most
 * MAX_HEADER_BLOCK bytes (see HeaderReader); outgoing blocks are written as stored
 * (uncompressed) deflate blocks after the dictionary's zlib header, which any zlib reader
 * decodes.
 */

const VERSION = 3;
enum Type {
  SynStream = 1,
  SynReply = 2,
  RstStream = 3,
  Settings = 4,
  Ping = 6,
  GoAway = 7,
  Headers = 8,
  WindowUpdate = 9,
}
const FLAG_FIN = 0x01;
/** RST_STREAM status code used here. */
export const RST_CANCEL = 5;
/** GOAWAY status for a session the peer broke (SPDY/3 §2.6.6). */
const GOAWAY_PROTOCOL_ERROR = 1;

export type Headers = Record<string, string>;

function encodeHeaders(h: Headers): Buffer {
  const parts: Buffer[] = [];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const entries = Object.entries(h);
  parts.push(u32(entries.length));
  for (const [k, v] of entries) {
    const kb = Buffer.from(k.toLowerCase());
    const vb = Buffer.from(v);
    parts.push(u32(kb.length), kb, u32(vb.length), vb);
  }
  return Buffer.concat(parts);
}

function decodeHeaders(b: Buffer): Headers {
  const out: Headers = {};
  let at = 0;
  const u32 = () => {
    if (at + 4 > b.length) throw new Error('truncated header block');
    const n = b.readUInt32BE(at);
    at += 4;
    return n;
  };
  const str = () => {
    const n = u32();
    if (at + n > b.length) throw new Error('truncated header block');
    const s = b.subarray(at, at + n).toString();
    at += n;
    return s;
  };
  const count = u32();
  for (let i = 0; i < count; i++) {
    const k = str();
    out[k.toLowerCase()] = str();
  }
  return out;
}

/** Outgoing header compression: the zlib header naming the dictionary once, then stored blocks. */
class HeaderWriter {
  private started = false;

  block(h: Headers): Buffer {
    const raw = encodeHeaders(h);
    const parts: Buffer[] = [];
    if (!this.started) {
      // CMF/FLG with FDICT and the dictionary's Adler-32, as zlib writes them.
      parts.push(zlib.deflateSync(Buffer.alloc(0), { dictionary: SPDY_DICTIONARY }).subarray(0, 6));
      this.started = true;
    }
    for (let at = 0; at < raw.length || at === 0; at += 0xffff) {
      const chunk = raw.subarray(at, at + 0xffff);
      const head = Buffer.alloc(5);
      head[0] = 0; // BFINAL 0, BTYPE 00 (stored), padded to the byte
      head.writeUInt16LE(chunk.length, 1);
      head.writeUInt16LE(~chunk.length & 0xffff, 3);
      parts.push(head, chunk);
      if (raw.length === 0) break;
    }
    // An empty stored block, as zlib's Z_SYNC_FLUSH ends a block: readers (Go's flate)
    // hand out what they decoded only when they meet it.
    parts.push(Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]));
    return Buffer.concat(parts);
  }
}

/**
 * The most one incoming header block may inflate to: 1 MiB, the `MaxHeaderBytes` of the
 * kubelet's HTTP server (pkg/kubelet/server ListenAndServeKubeletServer, `1 << 20`) that took
 * the upgrade opening this session, and Go's http.DefaultMaxHeaderBytes. moby/spdystream's
 * framer (v0.5.0, what v1.32 vendors) sets no bound of its own: a few hundred KB of
 * compressed zeros would otherwise inflate to hundreds of MiB in one block (issue 28).
 */
export const MAX_HEADER_BLOCK = 1 << 20;

/** Deflate's back-reference window: a block refers at most this far back into what came before. */
const WINDOW = 32 * 1024;

/**
 * Incoming header decompression, one block at a time and in linear time. Clients write each
 * block as zlib does under Z_SYNC_FLUSH (Go's framer flushes its compressor after every
 * block), so a block is whole deflate blocks ending on a byte boundary: the first carries
 * the zlib header naming the dictionary, and each later one inflates as raw deflate whose
 * preset dictionary is the last 32 KiB the session inflated before it (the SPDY dictionary
 * at the start). Inflation stops at MAX_HEADER_BLOCK bytes of output: a larger block is a
 * protocol error, and as the compression context is the session's, the session ends.
 */
class HeaderReader {
  /** The last WINDOW bytes of the decompressed stream (preceded by the dictionary). */
  private window: Buffer = SPDY_DICTIONARY;
  private started = false;

  block(b: Buffer): Headers {
    let raw: Buffer;
    const opts = { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: MAX_HEADER_BLOCK };
    try {
      raw = this.started
        ? zlib.inflateRawSync(b, { ...opts, dictionary: this.window })
        : zlib.inflateSync(b, { ...opts, dictionary: SPDY_DICTIONARY });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new Error(`header block larger than ${MAX_HEADER_BLOCK} bytes`);
      throw new Error(`invalid header block: ${(e as Error).message}`);
    }
    this.started = true;
    this.window =
      raw.length >= WINDOW
        ? Buffer.from(raw.subarray(raw.length - WINDOW))
        : Buffer.concat([this.window.subarray(Math.max(0, this.window.length + raw.length - WINDOW)), raw]);
    return decodeHeaders(raw);
  }
}

export class SpdyStream {
  private dataHandlers: ((b: Buffer) => void)[] = [];
  private endHandlers: (() => void)[] = [];
  private buffered: Buffer[] = [];
  private ended = false;
  /** The peer will send nothing more (FIN or reset). */
  remoteClosed = false;
  /** We will send nothing more. */
  localClosed = false;

  constructor(
    private readonly session: SpdySession,
    readonly id: number,
    readonly headers: Headers,
  ) {}

  /** Data from the peer; what arrived before a handler was set is delivered to it first. */
  onData(cb: (b: Buffer) => void): void {
    this.dataHandlers.push(cb);
    for (const b of this.buffered.splice(0)) cb(b);
  }

  onEnd(cb: () => void): void {
    if (this.ended) cb();
    else this.endHandlers.push(cb);
  }

  /** @internal */
  receive(data: Buffer, fin: boolean): void {
    if (data.length > 0) {
      if (this.dataHandlers.length === 0) this.buffered.push(data);
      for (const h of this.dataHandlers) h(data);
    }
    if (fin) this.finish();
  }

  /** @internal */
  finish(): void {
    this.remoteClosed = true;
    if (this.ended) return;
    this.ended = true;
    for (const h of this.endHandlers.splice(0)) h();
  }

  reply(headers: Headers = {}): void {
    this.session.sendControl(Type.SynReply, 0, Buffer.concat([u32(this.id), this.session.headerBlock(headers)]));
  }

  write(data: Buffer | string): void {
    if (this.localClosed) return;
    const b = typeof data === 'string' ? Buffer.from(data) : data;
    for (let at = 0; at < b.length; at += 0xffff) this.session.sendData(this.id, b.subarray(at, at + 0xffff), false);
  }

  /** Half-closes our side (FIN). */
  end(): void {
    if (this.localClosed) return;
    this.localClosed = true;
    this.session.sendData(this.id, Buffer.alloc(0), true);
  }

  reset(status = RST_CANCEL): void {
    this.localClosed = true;
    this.session.sendControl(Type.RstStream, 0, Buffer.concat([u32(this.id), u32(status)]));
    this.finish();
  }
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

export class SpdySession {
  /**
   * Bytes received and not yet framed, as a list: a frame arriving in many chunks is joined
   * once, when it is whole, not the buffer re-copied on every chunk.
   */
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly out = new HeaderWriter();
  private readonly in = new HeaderReader();
  readonly streams = new Map<number, SpdyStream>();
  private closed = false;
  private lastStreamId = 0;

  /**
   * @param send   writes bytes to the peer
   * @param onStream called for each stream the peer opens (reply to accept it)
   * @param onError  a protocol error: the session is unusable and should be closed
   */
  constructor(
    private readonly send: (b: Buffer) => void,
    private readonly onStream: (s: SpdyStream) => void,
    private readonly onError: (e: Error) => void,
  ) {}

  /** Bytes from the peer, in any chunking. */
  feed(chunk: Buffer): void {
    if (this.closed || chunk.length === 0) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    try {
      for (;;) {
        if (this.pendingBytes < 8) break;
        const length = this.take(8, false).readUIntBE(5, 3);
        if (this.pendingBytes < 8 + length) break;
        this.frame(this.take(8 + length, true));
      }
    } catch (e) {
      // A protocol error ends the session (spdystream's Serve stops at the first frame it
      // cannot read): GOAWAY with PROTOCOL_ERROR, then every stream ends.
      this.sendControl(Type.GoAway, 0, Buffer.concat([u32(this.lastStreamId), u32(GOAWAY_PROTOCOL_ERROR)]));
      this.close();
      this.pending.length = 0;
      this.pendingBytes = 0;
      this.onError(e as Error);
    }
  }

  /** The first n pending bytes, joined only when they span chunks; consumed if asked. */
  private take(n: number, consume: boolean): Buffer {
    const first = this.pending[0];
    let out: Buffer;
    if (first.length >= n) out = first.subarray(0, n);
    else {
      out = Buffer.allocUnsafe(n);
      let at = 0;
      for (const c of this.pending) {
        const k = Math.min(c.length, n - at);
        c.copy(out, at, 0, k);
        at += k;
        if (at === n) break;
      }
    }
    if (consume) {
      let left = n;
      while (left > 0) {
        const c = this.pending[0];
        if (c.length <= left) {
          this.pending.shift();
          left -= c.length;
        } else {
          this.pending[0] = c.subarray(left);
          left = 0;
        }
      }
      this.pendingBytes -= n;
    }
    return out;
  }

  /** The transport is gone: every stream ends. */
  close(): void {
    this.closed = true;
    for (const s of this.streams.values()) {
      s.localClosed = true;
      s.finish();
    }
  }

  private frame(f: Buffer): void {
    const flags = f[4];
    const body = f.subarray(8);
    if ((f[0] & 0x80) === 0) {
      const id = f.readUInt32BE(0) & 0x7fffffff;
      const s = this.streams.get(id);
      if (!s) return; // data for a stream already reset: dropped, as spdystream does
      s.receive(body, (flags & FLAG_FIN) !== 0);
      return;
    }
    const version = f.readUInt16BE(0) & 0x7fff;
    if (version !== VERSION) throw new Error(`unsupported SPDY version ${version}`);
    const type = f.readUInt16BE(2);
    switch (type) {
      case Type.SynStream: {
        const id = body.readUInt32BE(0) & 0x7fffffff;
        const headers = this.in.block(body.subarray(10));
        this.lastStreamId = Math.max(this.lastStreamId, id);
        const s = new SpdyStream(this, id, headers);
        this.streams.set(id, s);
        this.onStream(s);
        if (flags & FLAG_FIN) s.finish();
        return;
      }
      case Type.Headers:
      case Type.SynReply:
        this.in.block(body.subarray(4)); // keeps the decompression context in step
        return;
      case Type.RstStream: {
        const s = this.streams.get(body.readUInt32BE(0) & 0x7fffffff);
        if (s) {
          s.localClosed = true;
          s.finish();
        }
        return;
      }
      case Type.Ping:
        this.sendControl(Type.Ping, 0, body.subarray(0, 4));
        return;
      case Type.GoAway:
        this.close();
        return;
      default:
        // SETTINGS, WINDOW_UPDATE and any other frame: nothing to do.
        return;
    }
  }

  /** @internal */
  headerBlock(h: Headers): Buffer {
    return this.out.block(h);
  }

  /** @internal */
  sendControl(type: number, flags: number, body: Buffer): void {
    if (this.closed) return;
    const head = Buffer.alloc(8);
    head.writeUInt16BE(0x8000 | VERSION, 0);
    head.writeUInt16BE(type, 2);
    head[4] = flags;
    head.writeUIntBE(body.length, 5, 3);
    this.send(Buffer.concat([head, body]));
  }

  /** @internal */
  sendData(id: number, data: Buffer, fin: boolean): void {
    if (this.closed) return;
    const head = Buffer.alloc(8);
    head.writeUInt32BE(id & 0x7fffffff, 0);
    head[4] = fin ? FLAG_FIN : 0;
    head.writeUIntBE(data.length, 5, 3);
    this.send(Buffer.concat([head, data]));
  }
}

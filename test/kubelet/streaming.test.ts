// Unit tests for the master→node streaming pieces: the SPDY/3.1 session, the hollow
// container's commands, the service proxy's id parsing, the kubelet API's guard mapping
// and the access review APIs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { WebSocket } from 'ws';
import { SpdySession, SpdyStream } from '../../src/kubelet/spdy';
import { SPDY_DICTIONARY } from '../../src/util/spdy-dictionary';
import { runCommand } from '../../src/kubelet/exec';
import { splitSchemeNamePort } from '../../src/api/scheme-name-port';
import { debuggingDisabled, subresourceOf } from '../../src/kubelet/auth';
import { selfSubjectAccessReview, subjectAccessReview, tokenReview } from '../../src/apiserver/auth/reviews';
import { alwaysAllow, alwaysDeny } from '../../src/apiserver/auth/authorizer';
import { isStatusError } from '../../src/api/errors';
import { Pod } from '../../src/api/core';
import { KubeletConfig } from '../../src/kubelet/config';
import { KubeletStreaming } from '../../src/kubelet/streaming';
import { WEBSOCKET_SESSION_START_MS } from '../../src/kubelet/remotecommand';

/** A SPDY client's side of the wire, as Go's framer writes it: one zlib stream with the dictionary, sync-flushed per block. */
class Client {
  private readonly deflate = zlib.createDeflate({ dictionary: SPDY_DICTIONARY });

  private headerBlock(h: Record<string, string>): Promise<Buffer> {
    const parts: Buffer[] = [];
    const u32 = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(n);
      return b;
    };
    parts.push(u32(Object.keys(h).length));
    for (const [k, v] of Object.entries(h)) parts.push(u32(k.length), Buffer.from(k), u32(v.length), Buffer.from(v));
    this.deflate.write(Buffer.concat(parts));
    return new Promise((resolve) =>
      this.deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve(this.deflate.read() as Buffer)),
    );
  }

  async synStream(id: number, headers: Record<string, string>, fin = false): Promise<Buffer> {
    const body = Buffer.concat([Buffer.from([0, 0, 0, id, 0, 0, 0, 0, 0, 0]), await this.headerBlock(headers)]);
    return control(1, fin ? 1 : 0, body);
  }
}

function control(type: number, flags: number, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8003, 0);
  head.writeUInt16BE(type, 2);
  head[4] = flags;
  head.writeUIntBE(body.length, 5, 3);
  return Buffer.concat([head, body]);
}

function data(id: number, payload: string, fin = false): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(id, 0);
  head[4] = fin ? 1 : 0;
  head.writeUIntBE(payload.length, 5, 3);
  return Buffer.concat([head, Buffer.from(payload)]);
}

/** Splits what the server wrote into frames. */
function frames(out: Buffer[]): { control: boolean; type: number; id: number; flags: number; body: Buffer }[] {
  let b = Buffer.concat(out);
  const list = [];
  while (b.length >= 8) {
    const len = b.readUIntBE(5, 3);
    const control = (b[0] & 0x80) !== 0;
    list.push({
      control,
      type: control ? b.readUInt16BE(2) : 0,
      id: control ? (b.length >= 12 ? b.readUInt32BE(8) & 0x7fffffff : 0) : b.readUInt32BE(0),
      flags: b[4],
      body: b.subarray(8, 8 + len),
    });
    b = b.subarray(8 + len);
  }
  return list;
}

test('the SPDY dictionary is the 1423 bytes of the SPDY/3 draft', () => {
  assert.equal(SPDY_DICTIONARY.length, 1423);
  assert.equal(SPDY_DICTIONARY.subarray(0, 11).toString('latin1'), '\0\0\0\x07options');
  assert.ok(SPDY_DICTIONARY.toString('latin1').endsWith('enq=0.'));
});

test('a SPDY session: streams with headers across compressed blocks, replies a zlib reader decodes, data, FIN, ping', async () => {
  const out: Buffer[] = [];
  const streams: SpdyStream[] = [];
  const received: string[] = [];
  let ended = 0;
  const s = new SpdySession(
    (b) => out.push(b),
    (st) => {
      streams.push(st);
      st.reply({});
      st.onData((b) => received.push(`${st.id}:${b}`));
      st.onEnd(() => ended++);
    },
    (e) => assert.fail(e),
  );
  const c = new Client();
  const all = Buffer.concat([
    await c.synStream(1, { streamtype: 'error', port: '80', requestid: '0' }),
    await c.synStream(3, { streamtype: 'data', port: '80', requestid: '0' }),
    data(3, 'hello'),
    data(3, ' world', true),
    control(6, 0, Buffer.from([0, 0, 0, 7])),
  ]);
  // Any chunking: one byte at a time.
  for (const byte of all) s.feed(Buffer.from([byte]));
  assert.deepEqual(
    streams.map((x) => x.headers),
    [
      { streamtype: 'error', port: '80', requestid: '0' },
      { streamtype: 'data', port: '80', requestid: '0' },
    ],
  );
  assert.deepEqual(received, ['3:hello', '3: world']);
  assert.equal(ended, 1);
  const f = frames(out);
  const replies = f.filter((x) => x.control && x.type === 2);
  assert.deepEqual(
    replies.map((r) => r.id),
    [1, 3],
  );
  // Both reply header blocks decode as one zlib stream with the dictionary (as Go's reader reads them).
  const blocks = Buffer.concat(replies.map((r) => r.body.subarray(4)));
  const headers = zlib.inflateSync(blocks, { dictionary: SPDY_DICTIONARY, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  assert.deepEqual([...headers], [0, 0, 0, 0, 0, 0, 0, 0]);
  // Each block ends with an empty stored block (the sync marker Go's flate needs to hand data out).
  for (const r of replies) assert.deepEqual([...r.body.subarray(r.body.length - 5)], [0, 0, 0, 0xff, 0xff]);
  const ping = f.find((x) => x.control && x.type === 6);
  assert.deepEqual([...ping!.body], [0, 0, 0, 7]);
  streams[1].write('back');
  streams[1].end();
  const tail = frames(out).filter((x) => !x.control);
  assert.deepEqual(
    tail.map((x) => [x.id, x.body.toString(), x.flags]),
    [
      [3, 'back', 0],
      [3, '', 1],
    ],
  );
});

test('a SPDY frame of another version is a protocol error', () => {
  let error: Error | undefined;
  const s = new SpdySession(
    () => undefined,
    () => assert.fail('no stream'),
    (e) => (error = e),
  );
  const f = control(4, 0, Buffer.alloc(4));
  f.writeUInt16BE(0x8002, 0);
  s.feed(f);
  assert.match(error!.message, /unsupported SPDY version 2/);
});

test('SPDY header blocks inflate one at a time across the 32 KiB window; a block past 1 MiB ends the session with GOAWAY', async () => {
  const out: Buffer[] = [];
  const seen: Record<string, string>[] = [];
  let error: Error | undefined;
  const s = new SpdySession(
    (b) => out.push(b),
    (st) => seen.push(st.headers),
    (e) => (error = e),
  );
  const c = new Client();
  // 300 streams whose headers repeat what came before (back-references reach into earlier blocks)
  const sent: Record<string, string>[] = [];
  const wire: Buffer[] = [];
  for (let i = 0; i < 300; i++) {
    const h = { streamtype: 'data', requestid: String(i % 7), filler: 'x'.repeat(200 + (i % 5) * 97) + String(i) };
    sent.push(h);
    wire.push(await c.synStream(2 * i + 1, h));
  }
  // a few bytes at a time, in uneven chunks
  const all = Buffer.concat(wire);
  for (let at = 0, n = 1; at < all.length; at += n, n = ((n * 7) % 13) + 1) s.feed(all.subarray(at, at + n));
  assert.equal(error, undefined);
  assert.deepEqual(seen, sent);
  // one block of 2 MiB of headers: refused at MAX_HEADER_BLOCK, GOAWAY PROTOCOL_ERROR, no stream
  s.feed(await c.synStream(999, { big: 'y'.repeat(2 << 20) }));
  assert.match(error!.message, /header block larger than 1048576 bytes/);
  assert.equal(seen.length, 300);
  const goaway = frames(out).find((f) => f.control && f.type === 7);
  assert.deepEqual([...goaway!.body.subarray(4)], [0, 0, 0, 1]); // status PROTOCOL_ERROR
  s.feed(await c.synStream(1001, { after: 'close' }));
  assert.equal(seen.length, 300, 'a closed session reads nothing more');
});

const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    containers: [
      { name: 'app', image: 'x', env: [{ name: 'GREETING', value: 'hello' }] } as Pod['spec']['containers'][0],
    ],
  },
};
const ctx = { pod, container: 'app' };

test('hollow container commands: output, environment, stdin and exit codes', () => {
  assert.deepEqual(runCommand(ctx, ['echo', 'a', 'b']), { stdout: 'a b\n', stderr: '', exitCode: 0 });
  assert.deepEqual(runCommand(ctx, ['echo', '-n', 'a']), { stdout: 'a', stderr: '', exitCode: 0 });
  assert.equal(runCommand(ctx, ['hostname']).stdout, 'web\n');
  assert.equal(runCommand(ctx, ['cat', '/etc/hostname']).stdout, 'web\n');
  assert.match(runCommand(ctx, ['env']).stdout, /^PATH=.*\nHOSTNAME=web\nGREETING=hello\nHOME=\/root\n$/);
  assert.deepEqual(runCommand(ctx, ['printenv', 'GREETING', 'NOPE']), { stdout: 'hello\n', stderr: '', exitCode: 1 });
  assert.equal(runCommand(ctx, ['cat'], 'in\n').stdout, 'in\n');
  assert.deepEqual(runCommand(ctx, ['sh', '-c', "echo 'x; y'; exit 3"]), { stdout: 'x; y\n', stderr: '', exitCode: 3 });
  assert.deepEqual(runCommand(ctx, ['sh', '-c', 'false && echo never; echo after']), {
    stdout: 'after\n',
    stderr: '',
    exitCode: 0,
  });
  assert.equal(runCommand(ctx, ['sh', '-c', 'false; exit']).exitCode, 1);
  assert.equal(runCommand(ctx, ['sh', '-c', 'exit 257']).exitCode, 1);
  assert.deepEqual(runCommand(ctx, ['nope']), {
    stdout: '',
    stderr: 'exec: "nope": executable file not found in $PATH\n',
    exitCode: 127,
  });
  assert.equal(runCommand(ctx, ['cat', '/etc/passwd']).exitCode, 1);
});

test('service proxy ids: name, name:port, scheme:name:port', () => {
  assert.deepEqual(splitSchemeNamePort('web'), { scheme: '', name: 'web', port: '' });
  assert.deepEqual(splitSchemeNamePort('web:http'), { scheme: '', name: 'web', port: 'http' });
  assert.deepEqual(splitSchemeNamePort('https:web:443'), { scheme: 'https', name: 'web', port: '443' });
  assert.equal(splitSchemeNamePort('ftp:web:21'), undefined);
  assert.equal(splitSchemeNamePort(':80'), undefined);
  assert.equal(splitSchemeNamePort('a:b:c:d'), undefined);
});

test('the kubelet API maps paths to node subresources and knows its debugging paths', () => {
  assert.equal(subresourceOf('/stats/summary'), 'stats');
  assert.equal(subresourceOf('/stats'), 'stats');
  assert.equal(subresourceOf('/statsx'), 'proxy');
  assert.equal(subresourceOf('/metrics'), 'metrics');
  assert.equal(subresourceOf('/logs/syslog'), 'log');
  assert.equal(subresourceOf('/pods'), 'proxy');
  assert.equal(subresourceOf('/exec/default/web/app'), 'proxy');
  const off = { enableDebuggingHandlers: false } as KubeletConfig;
  const on = { enableDebuggingHandlers: true } as KubeletConfig;
  for (const p of [
    '/exec/a/b/c',
    '/attach/a/b/c',
    '/portForward/a/b',
    '/containerLogs/a/b/c',
    '/run/a/b/c',
    '/logs/x',
  ]) {
    assert.equal(debuggingDisabled(off, p), true, p);
    assert.equal(debuggingDisabled(on, p), false, p);
  }
  assert.equal(debuggingDisabled(off, '/pods'), false);
  assert.equal(debuggingDisabled(off, '/healthz'), false);
});

test('SubjectAccessReview: the authorizer decides; exactly one kind of attributes; a user or a group', async () => {
  const spec = {
    user: 'alice',
    resourceAttributes: { verb: 'get', resource: 'nodes', subresource: 'proxy', name: 'n1' },
  };
  assert.deepEqual(((await subjectAccessReview(alwaysAllow, { spec })) as { status: unknown }).status, {
    allowed: true,
  });
  assert.deepEqual(((await subjectAccessReview(alwaysDeny, { spec })) as { status: unknown }).status, {
    allowed: false,
  });
  const refused = async (body: unknown) => {
    try {
      await subjectAccessReview(alwaysAllow, body);
    } catch (e) {
      return isStatusError(e, 'Invalid') || isStatusError(e, 'BadRequest');
    }
    return false;
  };
  assert.equal(await refused({ spec: { user: 'a' } }), true);
  assert.equal(await refused({ spec: { user: 'a', resourceAttributes: {}, nonResourceAttributes: {} } }), true);
  assert.equal(await refused({ spec: { resourceAttributes: { verb: 'get' } } }), true);
  assert.equal(await refused({ kind: 'TokenReview', spec: spec }), true);
  assert.equal(await refused('x'), true);
  const seen: string[] = [];
  await selfSubjectAccessReview(
    {
      authorize: (a) => {
        seen.push(`${a.user.username} ${a.verb} ${a.path}`);
        return { allowed: true };
      },
    },
    { username: 'bob', groups: [] },
    { spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } },
  );
  assert.deepEqual(seen, ['bob get /healthz']);
});

test("TokenReview: the API server's token authenticators say who a token is", async () => {
  const tokens = [
    { authenticateToken: (t: string) => (t === 'good' ? { username: 'bob', groups: ['devs'] } : undefined) },
  ];
  assert.deepEqual(((await tokenReview(tokens, { spec: { token: 'good' } })) as { status: unknown }).status, {
    authenticated: true,
    user: { username: 'bob', groups: ['devs', 'system:authenticated'] },
  });
  assert.equal(
    ((await tokenReview(tokens, { spec: { token: 'bad' } })) as { status: { authenticated: boolean } }).status
      .authenticated,
    false,
  );
  // Upstream's tokenreview REST answers a missing token with 400 BadRequest, not 422.
  await assert.rejects(tokenReview(tokens, { spec: {} }), (e) => isStatusError(e, 'BadRequest'));
});

// client-go's WebSocket executor registers its streams while its read loop already runs and
// drops a frame for a stream not yet registered ("Unknown stream id 1"): the hollow session
// starts WEBSOCKET_SESSION_START_MS after the upgrade, and stdin sent before it is kept.
test('a WebSocket exec session starts after the upgrade and keeps the stdin sent before it', async () => {
  const streaming = new KubeletStreaming({ nodeName: 'n1', pod: () => ctx.pod });
  const server = http.createServer();
  server.on('upgrade', (req, socket, head) => streaming.upgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const session = (command: string, sendStdin: boolean) =>
    new Promise<{ upgradedAt: number; frames: { at: number; channel: number; text: string }[] }>((resolve, reject) => {
      const input = sendStdin ? '&input=1' : '';
      const ws = new WebSocket(`ws://127.0.0.1:${port}/exec/default/web/app?command=${command}&output=1${input}`, [
        'v5.channel.k8s.io',
      ]);
      const frames: { at: number; channel: number; text: string }[] = [];
      let upgradedAt = 0;
      ws.on('upgrade', () => (upgradedAt = performance.now()));
      ws.on('open', () => {
        if (!sendStdin) return;
        ws.send(Buffer.from([0, ...Buffer.from('typed early\n')]));
        ws.send(Buffer.from([255, 0]));
      });
      ws.on('message', (b: Buffer) =>
        frames.push({ at: performance.now(), channel: b[0], text: b.subarray(1).toString() }),
      );
      ws.on('close', () => resolve({ upgradedAt, frames }));
      ws.on('error', reject);
    });
  try {
    const echo = await session('echo&command=hi', false);
    assert.deepEqual(
      echo.frames.map((f) => [f.channel, f.text]),
      [
        [1, 'hi\n'],
        [3, '{"metadata":{},"status":"Success"}'],
      ],
    );
    // a timer may fire a millisecond early against performance.now(); without the wait the
    // output followed the upgrade by 0.2 ms
    assert.ok(
      echo.frames[0].at - echo.upgradedAt >= WEBSOCKET_SESSION_START_MS - 5,
      `output ${echo.frames[0].at - echo.upgradedAt} ms after the upgrade`,
    );
    const cat = await session('cat', true);
    assert.deepEqual(
      cat.frames.map((f) => [f.channel, f.text]),
      [
        [1, 'typed early\n'],
        [3, '{"metadata":{},"status":"Success"}'],
      ],
    );
  } finally {
    server.close();
  }
});

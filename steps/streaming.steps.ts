import { Given, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as tls from 'node:tls';
import * as zlib from 'node:zlib';
import * as yaml from 'js-yaml';
import { Container } from '../src/api/core';
import { loadKubernetesYaml } from '../src/api/yaml';
import { Credentials, NotApplicableError } from '../src/drivers';
import { KubeWorld } from './world';
import { step } from './support';
import { backgroundPrints, kubectlState, KubectlResult, runKubectl, startKubectl } from './kubectl';
import { runPodOn } from './pods.steps';
import { SPDY_DICTIONARY } from '../src/util/spdy-dictionary';

/**
 * Streaming vocabulary: kubectl exec, attach and port-forward through the API server, by
 * the protocol kubectl is told to speak (WebSocket, its default since 1.31, or SPDY/3.1,
 * its fallback), with bytes on stdin; what a forwarded local port answers.
 */

const KUBECTL_TIMEOUT = { timeout: 90_000 };

/** kubectl's switches between its WebSocket default and the SPDY fallback. */
function protocolEnv(protocol: string | null): Record<string, string> {
  if (!protocol) return {};
  const on = protocol === 'WebSocket' ? 'true' : 'false';
  return { KUBECTL_REMOTE_COMMAND_WEBSOCKETS: on, KUBECTL_PORT_FORWARD_WEBSOCKETS: on };
}

function show(r: KubectlResult): string {
  return `$ ${r.command}\n(exit ${r.code})\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}

Given(
  'a pod {string} running on node {node} with container:',
  step(async function (this: KubeWorld, name: string, node: string, doc: string) {
    const container = loadKubernetesYaml(doc) as Container;
    await runPodOn(this, name, node, 'default', { containers: [container] });
  }),
);

// Regular expressions for kubectl command lines and free text, as in kubectl.steps.ts.
When(
  /^I run "(kubectl .*?)" over (WebSocket|SPDY)$/,
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, command: string, protocol: string) {
    await runKubectl(this, command, { admin: true }, { env: protocolEnv(protocol) });
  }),
);

When(
  /^I run "(kubectl .*?)"(?: over (WebSocket|SPDY))? with stdin:$/,
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, command: string, protocol: string | null, input: string) {
    await runKubectl(this, command, { admin: true }, { input: `${input}\n`, env: protocolEnv(protocol) });
  }),
);

When(
  /^I start "(kubectl .*)" in the background over (WebSocket|SPDY)$/,
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, command: string, protocol: string) {
    await startKubectl(this, command, { env: protocolEnv(protocol) });
  }),
);

function expectExit(world: KubeWorld, code: number, text?: string): void {
  const r = kubectlState(world).last;
  if (!r) throw new Error('no kubectl command has run yet');
  expect(r.code, show(r)).to.equal(code);
  if (text !== undefined) expect(r.stderr, show(r)).to.contain(text);
}

Then(
  'kubectl exits with code {int}',
  step(function (this: KubeWorld, code: number) {
    expectExit(this, code);
  }),
);

Then(
  /^kubectl exits with code (\d+) and prints "(.*)" on stderr$/,
  step(function (this: KubeWorld, code: string, text: string) {
    expectExit(this, Number(code), text);
  }),
);

/** The local port of the background `kubectl port-forward` that forwards to a pod port. */
async function forwardedPort(world: KubeWorld, remote: string | number): Promise<number> {
  const line = await backgroundPrints(world, new RegExp(`^Forwarding from 127\\.0\\.0\\.1:\\d+ -> ${remote}$`));
  return Number(/127\.0\.0\.1:(\d+)/.exec(line)![1]);
}

/** One raw HTTP/1.1 exchange on a local port; resolves with everything the other side sent before closing. */
function exchange(port: number, request: string, timeoutMs = 15_000): Promise<{ data: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ data, error: 'timed out' });
    }, timeoutMs);
    socket.on('connect', () => socket.write(request));
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', (e) => {
      clearTimeout(timer);
      resolve({ data, error: e.message });
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ data });
    });
  });
}

// A regular expression: the text is free, as in kubectl.steps.ts.
Then(
  /^a GET of "([^"]+)" through the background kubectl port-forward to port (\d+) answers (\d+) with "(.*)"$/,
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, path: string, remote: string, code: string, text: string) {
    const port = await forwardedPort(this, remote);
    const r = await exchange(port, `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    expect(r.data, `answer on 127.0.0.1:${port} (${r.error ?? 'closed'})`).to.match(new RegExp(`^HTTP/1\\.1 ${code} `));
    expect(r.data).to.contain(text);
  }),
);

Then(
  'bytes sent through the background kubectl port-forward to port {int} come back unchanged',
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, remote: number) {
    const port = await forwardedPort(this, remote);
    const payload = 'ping 1 2 3\n';
    const got = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let data = '';
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no echo within 15 s; got ${JSON.stringify(data)}`));
      }, 15_000);
      socket.on('connect', () => socket.write(payload));
      socket.on('data', (d) => {
        data += d;
        if (data.length >= payload.length) {
          clearTimeout(timer);
          socket.destroy();
          resolve(data);
        }
      });
      socket.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    expect(got).to.equal(payload);
  }),
);

Then(
  'a GET through the background kubectl port-forward to port {int} gets no answer',
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, remote: number) {
    const port = await forwardedPort(this, remote);
    const r = await exchange(port, 'GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(r.data, `answer on 127.0.0.1:${port}`).to.equal('');
  }),
);

/** The kubelet API reached directly (not through the API server), with these credentials. */
function kubeletCredentials(words: string | null): Credentials {
  if (!words || words === 'as the cluster admin') return { admin: true };
  if (words === 'without credentials') return { anonymous: true };
  const user = /^as user "([^"]+)"(?: in groups? "([^"]*)")?( with a certificate of an unrelated CA)?$/.exec(words);
  if (user)
    return {
      user: user[1],
      groups: (user[2] ?? '')
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean),
      ...(user[3] ? { untrustedCA: true } : {}),
    };
  const token = /^with bearer token "([^"]*)"$/.exec(words);
  if (token) return { token: token[1] };
  throw new Error(`unknown credentials: ${words}`);
}

// A regular expression: the credentials phrase is one of several shapes, kept whole for the report.
When(
  /^I (GET|POST) "([^"]+)" from the kubelet on "([^"]+)" (as the cluster admin|as user "[^"]+"(?: in groups? "[^"]*")?(?: with a certificate of an unrelated CA)?|with bearer token "[^"]*"|without credentials)$/,
  step(async function (this: KubeWorld, method: string, path: string, node: string, who: string) {
    const cluster = await this.cluster();
    if (!cluster.http?.kubelet)
      throw new NotApplicableError(`target ${cluster.target} cannot reach a kubelet directly`);
    const answer = await cluster.http.kubelet(node, kubeletCredentials(who), method, path);
    this.lastKubeletAnswer = { request: `${method} ${path} ${who}`, ...answer };
  }),
);

function expectKubeletAnswer(world: KubeWorld, code: number, text?: string): void {
  const a = world.lastKubeletAnswer;
  if (!a) throw new Error('no request was sent to a kubelet yet');
  const shown = `${a.request} → ${a.status}\n${a.body}`;
  expect(a.status, shown).to.equal(code);
  if (text !== undefined) expect(a.body, shown).to.contain(text);
}

Then(
  'the kubelet answers {int}',
  step(function (this: KubeWorld, code: number) {
    expectKubeletAnswer(this, code);
  }),
);

// A regular expression: the text is free, as in kubectl.steps.ts.
Then(
  /^the kubelet answers (\d+) with "(.*)"$/,
  step(function (this: KubeWorld, code: string, text: string) {
    expectKubeletAnswer(this, Number(code), text);
  }),
);

/** What a raw SPDY exec session saw: the upgrade's status line, the frames the far end sent, whether it closed. */
interface RawSpdySession {
  status: string;
  frames: { control: boolean; type: number; body: Buffer }[];
  closed: boolean;
}
const rawSessions = new WeakMap<KubeWorld, RawSpdySession>();

/** The server, CA and client credentials of a kubeconfig file (inline data or files). */
function kubeconfigCredentials(file: string): tls.ConnectionOptions & { url: URL } {
  type Doc = {
    clusters: { cluster: Record<string, string> }[];
    users: { user: Record<string, string> }[];
  };
  const doc = yaml.load(fs.readFileSync(file, 'utf8')) as Doc;
  const c = doc.clusters[0].cluster;
  const u = doc.users[0]?.user ?? {};
  const read = (data: string | undefined, f: string | undefined) =>
    data ? Buffer.from(data, 'base64') : f ? fs.readFileSync(path.resolve(path.dirname(file), f)) : undefined;
  return {
    url: new URL(c.server),
    ca: read(c['certificate-authority-data'], c['certificate-authority']),
    cert: read(u['client-certificate-data'], u['client-certificate']),
    key: read(u['client-key-data'], u['client-key']),
    servername: c['tls-server-name'],
  };
}

When(
  'I open a SPDY exec session to pod {string} and send a header block that inflates to {int} MiB',
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, pod: string, mib: number) {
    const cluster = await this.cluster();
    if (!cluster.http) throw new NotApplicableError(`target ${cluster.target} does not serve HTTP`);
    const { url, ...options } = kubeconfigCredentials(await cluster.http.kubeconfig({ admin: true }));
    // The header block as Go's framer writes it: one zlib stream with the SPDY dictionary,
    // sync-flushed; one header whose value is mib MiB of zeros (a few KB compressed).
    const value = Buffer.alloc(mib << 20);
    const raw = Buffer.concat([u32(1), u32(1), Buffer.from('x'), u32(value.length), value]);
    const block = zlib.deflateSync(raw, { dictionary: SPDY_DICTIONARY, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    const syn = Buffer.concat([
      Buffer.from([0x80, 0x03, 0x00, 0x01]), // control, SPDY/3, SYN_STREAM
      Buffer.from([0, (10 + block.length) >> 16, ((10 + block.length) >> 8) & 0xff, (10 + block.length) & 0xff]),
      u32(1), // stream 1
      Buffer.alloc(6), // associated stream, priority, slot
      block,
    ]);
    const session: RawSpdySession = { status: '', frames: [], closed: false };
    rawSessions.set(this, session);
    const socket = tls.connect({ host: url.hostname, port: Number(url.port), ...options });
    const chunks: Buffer[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        const guard = setTimeout(() => reject(new Error('the SPDY exec session did not end within 30 s')), 30_000);
        socket.on('error', () => undefined);
        socket.once('secureConnect', () =>
          socket.write(
            `POST /api/v1/namespaces/default/pods/${pod}/exec?command=sh&stdout=true HTTP/1.1\r\nHost: ${url.host}\r\n` +
              'Connection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n',
          ),
        );
        socket.on('data', (d: Buffer) => {
          chunks.push(d);
          const all = Buffer.concat(chunks);
          const end = all.indexOf('\r\n\r\n');
          if (!session.status && end >= 0) {
            session.status = all.subarray(0, all.indexOf('\r\n')).toString('latin1');
            chunks.splice(0, chunks.length, all.subarray(end + 4));
            if (session.status.includes(' 101 ')) socket.write(syn);
          }
        });
        socket.once('close', () => {
          clearTimeout(guard);
          session.closed = true;
          resolve();
        });
      });
    } finally {
      socket.destroy();
    }
    let b = Buffer.concat(chunks);
    while (b.length >= 8 && b.length >= 8 + b.readUIntBE(5, 3)) {
      const len = b.readUIntBE(5, 3);
      const control = (b[0] & 0x80) !== 0;
      session.frames.push({ control, type: control ? b.readUInt16BE(2) : 0, body: b.subarray(8, 8 + len) });
      b = b.subarray(8 + len);
    }
  }),
);

Then(
  'the SPDY session ends with a GOAWAY saying PROTOCOL_ERROR and opens no stream',
  step(async function (this: KubeWorld) {
    const s = rawSessions.get(this);
    if (!s) throw new Error('no SPDY exec session was opened');
    expect(s.status, 'the upgrade').to.match(/^HTTP\/1\.1 101 /);
    expect(s.closed, 'the connection closed').to.equal(true);
    const described = s.frames.map((f) => (f.control ? `control ${f.type}` : 'data')).join(', ');
    // no SYN_REPLY (2) and no data: the stream was never accepted
    expect(described, 'the frames the kubelet sent').to.equal('control 7');
    expect([...s.frames[0].body.subarray(4, 8)], 'the GOAWAY status').to.deep.equal([0, 0, 0, 1]);
  }),
);

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

import { Given, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import * as net from 'node:net';
import { Container } from '../src/api/core';
import { loadKubernetesYaml } from '../src/api/yaml';
import { Credentials, NotApplicableError } from '../src/drivers';
import { KubeWorld } from './world';
import { step } from './support';
import { backgroundPrints, kubectlState, KubectlResult, runKubectl, startKubectl } from './kubectl';
import { runPodOn } from './pods.steps';

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

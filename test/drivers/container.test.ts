import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ContainerExitedError,
  ImageMissingError,
  NoContainerRuntimeError,
  prepareContainerTarget,
  reachableKubeconfig,
  ReadinessTimeoutError,
  startControlPlane,
} from '../../src/drivers/container';
import { ContainerEngine, ContainerRequest, fileFromTar, StartedContainer } from '../../src/drivers/container/engine';
import { upstreamImageInputs } from '../../src/drivers/container/upstream-image';
import { apiServerArgs } from '../../src/drivers/upstream/commands';
import { ContainerSpec } from '../../src/drivers/targets';

type Options = { targetConfig?: string; kubeconfig?: string };

/** An engine in memory: what it was asked to start and remove, and a container that does what the test says. */
class FakeEngine implements ContainerEngine {
  started: ContainerRequest[] = [];
  removed = 0;
  images = new Set<string>(['x/y:1']);
  probeError?: string;
  startError?: string;
  files: Record<string, string> = {};
  exit?: number;
  /** Lines the container prints as soon as it starts. */
  output: string[] = [];

  async probe() {
    if (this.probeError) throw new Error(this.probeError);
  }
  async hasImage(image: string) {
    return this.images.has(image);
  }
  async build() {}
  async removeLabelled() {
    this.removed++;
  }
  async start(req: ContainerRequest): Promise<StartedContainer> {
    this.started.push(req);
    if (this.startError) throw new Error(this.startError);
    for (const l of this.output) req.onLine(l);
    if (this.exit !== undefined) req.onEnd();
    return {
      id: 'c1',
      hostPort: (p) => (req.network === 'host' ? p : p + 10000),
      exitCode: async () => this.exit,
      readFile: async (f) => this.files[f],
      remove: async () => {
        this.removed++;
      },
      kill: async () => {
        this.removed++;
      },
    };
  }
}

const spec = (over: Partial<ContainerSpec> = {}): ContainerSpec => ({
  image: 'x/y:1',
  command: [],
  env: {},
  kubeconfig: '/etc/k.yaml',
  readiness: { log: 'started', readyz: false, defaultServiceAccount: false, timeoutMs: 1000 },
  ports: [],
  network: 'host',
  privileged: false,
  tmpfs: [],
  mode: 'run',
  upstreamComponents: false,
  ...over,
});

const tmpFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-ct-')), 'kubeconfig');
const kubeconfig = (server: string) =>
  `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${server}\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: c\n  context: { cluster: c, user: u }\ncurrent-context: c\n`;

test('without a container engine the target says so and points at --target kube, and starts nothing', async () => {
  const engine = new FakeEngine();
  engine.probeError = 'Could not find a working container runtime strategy';
  await assert.rejects(
    startControlPlane(spec(), { engine, kubeconfigFile: tmpFile() }),
    (e: Error) =>
      e instanceof NoContainerRuntimeError &&
      e.message ===
        'no container runtime reachable: Could not find a working container runtime strategy; use --target kube --kubeconfig <file> to judge a cluster you started yourself',
  );
  assert.equal(engine.started.length, 0);
});

test('a missing image this project builds says how to build it; one that cannot be pulled says so', async () => {
  const engine = new FakeEngine();
  await assert.rejects(
    startControlPlane(spec({ image: 'kubespec/upstream:v1.32.13', upstreamComponents: true }), {
      engine,
      kubeconfigFile: tmpFile(),
    }),
    (e: Error) =>
      e instanceof ImageMissingError &&
      e.message ===
        'image kubespec/upstream:v1.32.13 is missing: not on this engine; build it with `npm run image:build` (upstream/image/build.sh, after `npm run upstream:build`)',
  );
  assert.equal(engine.started.length, 0);
  engine.startError = '(HTTP code 404) unexpected - pull access denied for rancher/k3s, repository does not exist';
  await assert.rejects(
    startControlPlane(spec({ image: 'rancher/k3s:v1.32.4-k3s1' }), { engine, kubeconfigFile: tmpFile() }),
    (e: Error) =>
      e instanceof ImageMissingError &&
      e.message.startsWith(
        'image rancher/k3s:v1.32.4-k3s1 is missing: not on this engine, and pulling it failed: (HTTP code 404)',
      ),
  );
  assert.equal(engine.removed, 1, 'a start that failed half way is removed by its label');
});

test('a container that exits before it is ready fails with its status and last lines, and is removed', async () => {
  const engine = new FakeEngine();
  engine.output = ['kube-apiserver: error: unknown flag --bogus'];
  engine.exit = 1;
  await assert.rejects(
    startControlPlane(spec(), { engine, kubeconfigFile: tmpFile(), pollMs: 10 }),
    (e: Error) =>
      e instanceof ContainerExitedError &&
      e.message ===
        'container from x/y:1 exited (status 1) before it was ready; its last lines:\nkube-apiserver: error: unknown flag --bogus',
  );
  assert.equal(engine.removed, 1);
});

test('readiness that never comes times out, saying what it waited for, and the container is removed', async () => {
  const engine = new FakeEngine();
  engine.output = ['starting etcd'];
  await assert.rejects(
    startControlPlane(
      spec({ readiness: { log: 'started$', readyz: false, defaultServiceAccount: false, timeoutMs: 100 } }),
      {
        engine,
        kubeconfigFile: tmpFile(),
        pollMs: 10,
      },
    ),
    (e: Error) =>
      e instanceof ReadinessTimeoutError &&
      e.message ===
        'container from x/y:1 was not ready within 0.1 s: waiting for its log line /started$/; its last lines:\nstarting etcd',
  );
  assert.equal(engine.removed, 1);
});

test('ready once the log line, the kubeconfig and /readyz are there; the kubeconfig is copied out; stop removes it once', async () => {
  let readyzCalls = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/readyz' && ++readyzCalls > 2) res.end('ok');
    else res.writeHead(500).end('[-]etcd failed');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    const engine = new FakeEngine();
    engine.output = ['kubespec: started'];
    engine.files['/etc/k.yaml'] = kubeconfig(`http://127.0.0.1:${port}`);
    const file = tmpFile();
    const running = await startControlPlane(
      spec({ readiness: { log: 'started', readyz: true, defaultServiceAccount: false, timeoutMs: 5000 } }),
      { engine, kubeconfigFile: file, pollMs: 10, env: { A: '1' }, files: [{ target: '/f', content: 'x' }] },
    );
    assert.ok(readyzCalls >= 3, 'it waited for /readyz to answer 200');
    assert.match(fs.readFileSync(file, 'utf8'), new RegExp(`server: http://127.0.0.1:${port}`));
    assert.equal(engine.started[0].env.A, '1');
    assert.deepEqual(engine.started[0].files, [{ target: '/f', content: 'x' }]);
    assert.equal(running.exited(), undefined);
    await Promise.all([running.stop(), running.stop()]);
    assert.equal(engine.removed, 1);
  } finally {
    server.close();
  }
});

test('on the bridge network the kubeconfig points at the published loopback port', () => {
  assert.equal(
    reachableKubeconfig('  server: https://0.0.0.0:6443\n', (p) => (p === 6443 ? 32768 : 0)),
    '  server: https://127.0.0.1:32768\n',
  );
  assert.equal(
    reachableKubeconfig('server: https://127.0.0.1:6443', (p) => p),
    'server: https://127.0.0.1:6443',
  );
});

test('per run the container is started once, its kubeconfig in the report directory, and removed at the end', async () => {
  const engine = new FakeEngine();
  engine.images.add('kubespec/upstream:v1.32.13');
  engine.output = ['kubespec-upstream: kube-apiserver, kube-controller-manager and kube-scheduler started; …'];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-run-'));
  const server = http.createServer((_req, res) => res.end('{"kind":"ServiceAccount","metadata":{"name":"default"}}'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  engine.files['/etc/kubespec/admin.kubeconfig'] = kubeconfig(
    `http://127.0.0.1:${(server.address() as { port: number }).port}`,
  );
  try {
    const prepared = await prepareContainerTarget(
      'container',
      { targetConfig: 'container-run' } as Options,
      dir,
      engine,
    );
    assert.equal(prepared.options.kubeconfig, path.join(dir, 'container-run.kubeconfig'));
    assert.equal(engine.started.length, 1);
    const env = engine.started[0].env;
    assert.match(
      env.KUBESPEC_APISERVER_ARGS,
      /^--etcd-servers=http:\/\/127\.0\.0\.1:\d+\n--bind-address=127\.0\.0\.1\n/,
    );
    assert.match(env.KUBESPEC_APISERVER_ARGS, /\n--client-ca-file=\/etc\/kubespec\/pki\/ca\.crt\n/);
    assert.equal(engine.removed, 0);
    await prepared.stop();
    assert.equal(engine.removed, 1);
  } finally {
    server.close();
  }
});

test('per scenario only the engine and the image are checked before the scenarios: a missing image fails the run once', async () => {
  const engine = new FakeEngine();
  await assert.rejects(prepareContainerTarget('container', {}, os.tmpdir(), engine), ImageMissingError);
  engine.images.add('kubespec/upstream:v1.32.13');
  const prepared = await prepareContainerTarget('container', {} as Options, os.tmpdir(), engine);
  assert.equal(prepared.options.targetConfig, 'container');
  assert.equal(engine.started.length, 0);
});

test("the upstream image gets upstream/commands.ts's command lines with paths inside it, the PKI, and files flags name", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-tok-'));
  const tokens = path.join(dir, 'tokens.csv');
  fs.writeFileSync(tokens, 'secret,alice,1\n');
  const cmd = { apiserver: [`--token-auth-file=${tokens}`], kcm: [], scheduler: [] };
  const ports = { etcdClient: 1, etcdPeer: 2, apiserver: 3, kcm: 4, scheduler: 5 };
  const { env, files } = upstreamImageInputs(cmd, ports);
  const inside = (n: string) => `/etc/kubespec/pki/${n}`;
  assert.equal(
    env.KUBESPEC_APISERVER_ARGS,
    apiServerArgs({ etcdClientPort: 1, port: 3, certDir: '/var/lib/kubespec/apiserver-certs', pki: inside }, cmd).join(
      '\n',
    ),
  );
  assert.equal(env.KUBESPEC_APISERVER_PORT, '3');
  assert.equal(env.KUBESPEC_ETCD_PORT, '1');
  const targets = files.map((f) => f.target);
  for (const f of ['ca.crt', 'ca.key', 'apiserver.key', 'sa.pub', 'admin.crt', 'kcm.key', 'scheduler.crt'])
    assert.ok(targets.includes(inside(f)), f);
  assert.deepEqual(
    files.find((f) => f.target === tokens),
    { target: tokens, content: 'secret,alice,1\n', mode: 0o600 },
  );
  assert.match(
    files.find((f) => f.target === '/etc/kubespec/kube-scheduler.yaml')!.content,
    /kubeconfig: "\/etc\/kubespec\/scheduler\.kubeconfig"/,
  );
});

test('the kubeconfig is read out of the tar archive the engine gives', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-tar-'));
  fs.writeFileSync(path.join(dir, 'k3s.yaml'), 'x'.repeat(700));
  const tar = execFileSync('tar', ['-cf', '-', '-C', dir, 'k3s.yaml']);
  assert.equal(fileFromTar(tar), 'x'.repeat(700));
  assert.equal(fileFromTar(Buffer.alloc(1024)), undefined);
});

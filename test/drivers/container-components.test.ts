import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { containerRunner, mountsFor } from '../../src/drivers/container/components';
import { ContainerEngine, ContainerRequest, StartedContainer } from '../../src/drivers/container/engine';
import { NoContainerRuntimeError } from '../../src/drivers/container';
import { createDriver } from '../../src/drivers';
import { UpstreamDriver } from '../../src/drivers/upstream';
import { loadTargetDeclaration } from '../../src/drivers/targets';
import { upstreamPki } from '../../src/drivers/upstream/pki';

/**
 * The container target per scenario is the upstream target with each component in a container
 * of upstream/image/ (src/drivers/container/components.ts): what each container is asked for,
 * and how its end, stop and kill reach the driver. The real engine: container-image.test.ts.
 */

/** An engine in memory whose containers end when the test says. */
class FakeEngine implements ContainerEngine {
  requests: ContainerRequest[] = [];
  removed: string[] = [];
  killed: string[] = [];
  probeError?: string;
  images = new Set(['kubespec/upstream:v1.32.13']);
  exitCode?: number;
  async probe() {
    if (this.probeError) throw new Error(this.probeError);
  }
  async hasImage(image: string) {
    return this.images.has(image);
  }
  async build() {}
  async removeLabelled() {}
  async start(req: ContainerRequest): Promise<StartedContainer> {
    this.requests.push(req);
    const id = `c${this.requests.length}`;
    return {
      id,
      hostPort: (p) => p,
      exitCode: async () => this.exitCode,
      readFile: async () => undefined,
      remove: async () => {
        this.removed.push(id);
        req.onEnd();
      },
      kill: async () => {
        this.killed.push(id);
        req.onEnd();
      },
    };
  }
}

const spec = () => loadTargetDeclaration('container').container!;
const work = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-cc-test-'));

test('each component runs in its own container: its binary as entrypoint, the host network, this user, the scratch dir and PKI mounted', async () => {
  const engine = new FakeEngine();
  const runner = containerRunner(spec(), async () => engine);
  assert.equal(runner.reusable, false, 'a container does not end with this process: never kept idle');
  await runner.check();
  const dir = work();
  const etcd = runner.start(dir, 'etcd', [`--data-dir=${dir}/etcd`, '--listen-client-urls=http://127.0.0.1:1']);
  await etcd.waitUntil('etcd', async () => true, 1000);
  const [req] = engine.requests;
  assert.equal(req.image, 'kubespec/upstream:v1.32.13');
  assert.deepEqual(req.entrypoint, ['/usr/local/bin/etcd']);
  assert.deepEqual(req.command, [`--data-dir=${dir}/etcd`, '--listen-client-urls=http://127.0.0.1:1']);
  assert.equal(req.network, 'host');
  assert.equal(req.user, `${process.getuid!()}:${process.getgid!()}`);
  assert.deepEqual(req.mounts, [
    { path: dir, writable: true },
    { path: upstreamPki().dir, writable: false },
  ]);
  assert.equal(req.labels['io.kubespec.component'], 'etcd');
  assert.equal(req.labels['io.kubespec.pid'], String(process.pid));
  // Its output is its log in the scratch dir, as a process's would be.
  req.onLine('etcd says hello');
  assert.match(etcd.tail(), /etcd says hello/);
  assert.match(fs.readFileSync(path.join(dir, 'etcd.log'), 'utf8'), /etcd says hello/);
  await etcd.stop();
  assert.deepEqual(engine.removed, ['c1']);
  assert.equal(etcd.exited, undefined, 'a stop is no failure');
});

test('files a flag names outside the mounted dirs are mounted read-only at the same path; missing ones and ones inside are not', () => {
  const dir = work();
  const outside = path.join(work(), 'tokens.csv');
  fs.writeFileSync(outside, 't,u,1\n');
  const mounts = mountsFor(dir, [
    `--token-auth-file=${outside}`,
    `--audit-log-path=${dir}/audit.log`,
    '--authorization-policy-file=/nonexistent/policy.jsonl',
    '--etcd-servers=http://127.0.0.1:2379',
  ]);
  assert.deepEqual(mounts.slice(2), [{ path: outside, writable: false }]);
});

test('a container that ends unbidden makes its component exited, with its status; a kill (restart) is no failure', async () => {
  const engine = new FakeEngine();
  const runner = containerRunner(spec(), async () => engine);
  await runner.check();
  const dir = work();
  const api = runner.start(dir, 'kube-apiserver', []);
  await api.waitUntil('kube-apiserver', async () => true, 1000);
  engine.exitCode = 1;
  engine.requests[0].onEnd();
  assert.match(api.exited ?? '', /kube-apiserver exited unexpectedly/);
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  assert.equal(api.exited, 'kube-apiserver exited unexpectedly (code 1)');
  await assert.rejects(
    api.waitUntil('kube-apiserver /readyz', async () => false, 1000),
    /exited unexpectedly/,
  );

  const etcd = runner.start(dir, 'etcd', []);
  await etcd.kill();
  assert.deepEqual(engine.killed, ['c2']);
  assert.equal(etcd.exited, undefined);
});

test('a controller manager that lost its leader lock ends by design, as the process runner judges it', async () => {
  const engine = new FakeEngine();
  const runner = containerRunner(spec(), async () => engine);
  await runner.check();
  const kcm = runner.start(work(), 'kube-controller-manager', []);
  await kcm.waitUntil('kcm', async () => true, 1000);
  engine.requests[0].onLine('F1204 leaderelection lost');
  engine.requests[0].onEnd();
  assert.equal(kcm.exited, undefined);
});

test('without an engine or the image the runner says so before anything starts', async () => {
  const engine = new FakeEngine();
  engine.probeError = 'connect ENOENT /var/run/docker.sock';
  await assert.rejects(containerRunner(spec(), async () => engine).check(), NoContainerRuntimeError);
  const noImage = new FakeEngine();
  noImage.images.clear();
  await assert.rejects(containerRunner(spec(), async () => noImage).check(), /npm run image:build/);
  assert.equal(noImage.requests.length + engine.requests.length, 0);
});

test('--target container per scenario is the upstream target: http, the kubelet API, audit and restart; no API-server defaults', () => {
  const driver = createDriver('container', 'kubernetes-1.32');
  assert.ok(driver instanceof UpstreamDriver);
  const caps = driver.capabilities;
  for (const c of ['http', 'kubeletApi', 'audit', 'durableStorage', 'dedicatedCluster'] as const)
    assert.equal(caps[c], true, c);
  assert.ok(!caps.apiServerDefaults, 'its default bind address would be every address of the host network');
  assert.ok(!caps.cloudProvider, 'the image has no cloud-controller-manager');
});

test('a component whose container cannot start is exited, saying so, and its wait fails at once', async () => {
  const engine = new FakeEngine();
  engine.start = async () => {
    throw new Error('no such image');
  };
  const runner = containerRunner(spec(), async () => engine);
  await runner.check();
  const etcd = runner.start(work(), 'etcd', []);
  await assert.rejects(
    etcd.waitUntil('etcd', async () => true, 1000),
    /etcd could not be started in a container of kubespec\/upstream:v1.32.13 \(no such image\)/,
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The container target for real: `kubespec run --target container` starts upstream/image/ with
 * testcontainers, and no container of the run is left afterwards (`docker ps -a`) — after a
 * passing run, a failing run and a run stopped by SIGINT. Needs a Docker engine and the image
 * (`npm run image:build`); without them it is skipped, saying why, unless
 * KUBESPEC_REQUIRE_DOCKER=1 (CI), where that is a failure.
 */

const ROOT = path.resolve(__dirname, '../..');
const IMAGE = 'kubespec/upstream:v1.32.13';
const RUN_LIMIT_MS = 5 * 60_000;
const required = process.env.KUBESPEC_REQUIRE_DOCKER === '1';

function docker(args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('docker', args, { encoding: 'utf8', timeout: 30_000 });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? r.error.message : ''}`.trim() };
}

function whyNot(): string | undefined {
  const info = docker(['info', '--format', '{{.ServerVersion}}']);
  if (!info.ok) return `no Docker engine answers (docker info: ${info.out.split('\n').pop()})`;
  if (!docker(['image', 'inspect', IMAGE]).ok) return `the image ${IMAGE} is not built (npm run image:build)`;
  return undefined;
}

const missing = whyNot();
const skip = missing && !required ? `${missing}; KUBESPEC_REQUIRE_DOCKER=1 makes this a failure` : false;
if (skip) console.log(`# container-image: skipped: ${skip}`);

/** The containers a kubespec process started that still exist, running or not. */
function leftovers(pid: number): string[] {
  const r = docker(['ps', '-a', '--quiet', '--filter', `label=io.kubespec.pid=${pid}`]);
  assert.ok(r.ok, r.out);
  return r.out.split('\n').filter(Boolean);
}

/** The containers a kubespec process started that are running now. */
function running(pid: number): string[] {
  const r = docker(['ps', '--quiet', '--filter', `label=io.kubespec.pid=${pid}`]);
  assert.ok(r.ok, r.out);
  return r.out.split('\n').filter(Boolean);
}

function kubespec(args: string[], reportDir: string): ChildProcess {
  return spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin/kubespec'),
      'run',
      '--target',
      'container',
      '--report-dir',
      reportDir,
      '--quiet-summary',
      ...args,
    ],
    {
      cwd: ROOT,
      detached: true, // its own process group: SIGINT reaches it as a terminal's Ctrl-C would
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TESTCONTAINERS_HOST_OVERRIDE: '127.0.0.1', TESTCONTAINERS_RYUK_DISABLED: 'true' },
    },
  );
}

/** Its exit (code or signal) and output, within the limit; killed (its group) and failed past it. */
function finished(
  child: ChildProcess,
  limitMs = RUN_LIMIT_MS,
): Promise<{ code: number | null; signal: string | null; out: string }> {
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`kubespec run did not finish within ${limitMs / 1000} s:\n${out.slice(-3000)}`));
    }, limitMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}

const reports = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-container-it-'));

test('the image this machine can judge is there (or the reason it is not)', { skip }, () => {
  assert.equal(missing, undefined, missing);
});

test('a passing run leaves no container', { skip, timeout: RUN_LIMIT_MS + 30_000 }, async () => {
  const child = kubespec(
    ['--tags', '@NODE-SELF-REGISTER and @upstream-smoke', 'features/node/registration.feature'],
    reports(),
  );
  const r = await finished(child);
  assert.equal(r.code, 0, r.out.slice(-3000));
  assert.match(r.out, /1 passed/);
  assert.deepEqual(leftovers(child.pid!), []);
});

test('a failing run leaves no container', { skip, timeout: RUN_LIMIT_MS + 30_000 }, async () => {
  const dir = reports();
  const feature = path.join(dir, 'fails.feature');
  fs.writeFileSync(
    feature,
    'Feature: A run that fails (test/drivers/container-image.test.ts)\n  Scenario: A node nobody started is not there\n    Given a ready node "n1"\n    Then node "n2" exists\n',
  );
  const child = kubespec([feature], dir);
  const r = await finished(child);
  assert.equal(r.code, 1, r.out.slice(-3000));
  assert.match(r.out, /1 failed/);
  assert.deepEqual(leftovers(child.pid!), []);
});

test('a run stopped by SIGINT while its container runs leaves no container', {
  skip,
  timeout: RUN_LIMIT_MS + 30_000,
}, async () => {
  const child = kubespec(
    ['--tags', '@NODE-SELF-REGISTER and @upstream-smoke', 'features/node/registration.feature'],
    reports(),
  );
  const done = finished(child);
  const deadline = Date.now() + 120_000;
  while (running(child.pid!).length === 0) {
    assert.ok(Date.now() < deadline, 'the run started no container within 120 s');
    assert.equal(child.exitCode, null, 'the run ended before its container started');
    await new Promise((r) => setTimeout(r, 200));
  }
  process.kill(-child.pid!, 'SIGINT');
  const r = await done;
  // The CLI runs the run's clean-ups (the container among them, util/shutdown.ts), writes the
  // interrupted report and exits 130, as SIGINT ends a process (README: exit codes).
  assert.ok(
    r.code === 130 || r.signal === 'SIGINT',
    `it ends as SIGINT ends a process (code ${r.code}):\n${r.out.slice(-2000)}`,
  );
  assert.deepEqual(leftovers(child.pid!), []);
});

// The README's "Judge your cluster in CI" path, as a new user would take it: the example
// workflows' one script (examples/ci/judge.sh) against a kubespec serve started by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort, startProcess } from '../support/processes';

const ROOT = path.resolve(__dirname, '../..');

test('examples/ci/judge.sh judges a cluster from its kubeconfig: a declaration written, a report with JUnit', async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-examples-ci-'));
  const port = await freePort();
  const server = await startProcess(
    process.execPath,
    [
      path.join(ROOT, 'bin/kubespec'),
      'serve',
      '--profile',
      'seed',
      '--data-dir',
      work,
      '--secure-port',
      String(port),
      '--bind-address',
      '127.0.0.1',
    ],
    /^kubeconfig: (.+)$/m,
  );
  try {
    const r = spawnSync(path.join(ROOT, 'examples/ci/judge.sh'), [], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      env: { ...process.env, KUBECONFIG: server.match[1].trim(), FEATURES: 'features/node/registration.feature' },
    });
    assert.equal(r.status, 0, `judge.sh failed:\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
    assert.match(r.stdout, /v1\.12\.\d+ → profile seed/, 'init-target chose the profile from the version');
    const report = JSON.parse(fs.readFileSync(path.join(ROOT, 'reports/ci/conformance.json'), 'utf8'));
    const totals = report.runs[0].totals.scenarios.byStatus;
    assert.ok(totals.passed > 0, `scenarios passed: ${JSON.stringify(totals)}`);
    assert.equal(totals.failed, 0);
    assert.match(fs.readFileSync(path.join(ROOT, 'reports/ci/junit.xml'), 'utf8'), /<testsuite /);
  } finally {
    await server.process.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
});

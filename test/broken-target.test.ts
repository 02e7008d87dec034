import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { readMessages } from '../src/report';

const ROOT = path.resolve(__dirname, '..');

/**
 * The suite must catch a broken implementation: `kubespec serve --node-monitor-grace-period 10s`
 * judged under the seed profile over HTTPS. Exactly the grace behaviours fail; what the grace
 * period does not touch still passes.
 */
test('a kubespec serve with a 10 s grace period fails exactly the heartbeat behaviours', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-broken-'));
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'bin/kubespec'),
      'run',
      '--target',
      'serve',
      '--profile',
      'seed',
      '--serve-flag',
      'node-monitor-grace-period=10s',
      '--report-dir',
      dir,
      '--quiet-summary',
      path.join(ROOT, 'features/node/heartbeat.feature'),
      path.join(ROOT, 'features/node/status.feature'),
    ],
    { encoding: 'utf8', timeout: 600_000 },
  );
  assert.equal(
    r.status,
    1,
    `kubespec run should report failures (stdout: ${r.stdout.slice(-800)} stderr: ${r.stderr.slice(-800)})`,
  );
  const { scenarios } = readMessages(path.join(dir, 'messages.ndjson'));
  const failed = new Set(scenarios.filter((s) => s.status === 'failed').flatMap((s) => s.behaviourIds));
  const passed = new Set(scenarios.filter((s) => s.status === 'passed').flatMap((s) => s.behaviourIds));
  assert.deepEqual([...failed].sort(), ['NODE-GRACE-UNKNOWN', 'NODE-MONITOR-PERIOD']);
  for (const id of ['NODE-ADDRESSES', 'NODE-CONDITIONS', 'NODE-CAPACITY', 'NODE-INFO'])
    assert.ok(passed.has(id) && !failed.has(id), `${id} passes`);
  const run = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8'));
  assert.equal(run.target, 'serve');
  fs.rmSync(dir, { recursive: true, force: true });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { readMessages } from '../../src/report';

const ROOT = path.resolve(__dirname, '../..');

test('a third-party driver loads by path, and a broken one fails exactly the behaviours it breaks', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-driver-'));
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'bin/kubespec'),
      'run',
      '--driver',
      path.join(ROOT, 'examples/drivers/short-grace.js'),
      '--report-dir',
      dir,
      '--quiet-summary',
      path.join(ROOT, 'features/node'),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 1, `exit code (stdout: ${r.stdout.slice(-500)}, stderr: ${r.stderr.slice(-500)})`);
  const run = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8'));
  assert.equal(run.target, 'short-grace-example');
  const { scenarios } = readMessages(path.join(dir, 'messages.ndjson'));
  const failedIds = new Set(scenarios.filter((s) => s.status === 'failed').flatMap((s) => s.behaviourIds));
  const passedOnly = new Set(scenarios.filter((s) => s.status === 'passed').flatMap((s) => s.behaviourIds));
  assert.ok(failedIds.has('NODE-GRACE-UNKNOWN'), 'the grace behaviour fails');
  for (const id of ['NODE-ADDRESSES', 'NODE-CAPACITY', 'NODE-INFO', 'NODE-MANUAL-CAPACITY']) {
    assert.ok(!failedIds.has(id) && passedOnly.has(id), `${id} is untouched by the grace period and passes`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a module that is not a driver is refused with a clear message', () => {
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bin/kubespec'), 'run', '--driver', path.join(ROOT, 'package.json')],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 2);
  assert.match(r.stderr, /must export "target" \(a name\) and "createDriver\(profile\)"/);
});

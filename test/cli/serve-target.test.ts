import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { descendants } from '../../src/util/shutdown';

/**
 * The serve target's safety (issue 27): its per-scenario servers run with kube-apiserver's
 * --authorization-mode AlwaysAllow, so unless a scenario judges the bind-address default
 * they listen on loopback only; and the run's data directory (its PKI, with the CA key)
 * is gone when the run ends. Seen from outside: the listening sockets of the `kubespec serve`
 * processes below the run (/proc), and /tmp afterwards.
 */
const ROOT = path.resolve(__dirname, '../..');
const PASSING = `${path.join(ROOT, 'test/cli/fixtures/verdicts.feature')}:27`;
const LIMIT_MS = 300_000;

/** Local addresses (hex ip:port from /proc/net/tcp{,6}) of the sockets pid listens on. */
function listening(pid: number): string[] {
  const inodes = new Set<string>();
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    }
  } catch {
    return []; // it ended while we looked
  }
  const out: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9])) out.push(f[1]);
    }
  }
  return out;
}

test('the serve target listens on loopback and leaves no /tmp/kubespec-serve-<pid>/ behind', {
  skip: process.platform !== 'linux',
}, async () => {
  const report = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-serve-target-'));
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'bin/kubespec'), 'run', '--target', 'serve', '--report-dir', report, PASSING],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c));
  child.stderr.on('data', (c: Buffer) => (output += c));
  const dataDir = path.join(os.tmpdir(), `kubespec-serve-${child.pid}`);
  const seen = new Set<string>();
  let sawDataDir = false;
  const poll = setInterval(() => {
    sawDataDir ||= fs.existsSync(dataDir);
    for (const pid of descendants(child.pid))
      if (/\bserve\b/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')))
        for (const a of listening(pid)) seen.add(a);
  }, 100);
  const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  clearTimeout(timer);
  assert.equal(code, 0, output.slice(-3000));
  assert.ok(seen.size > 0, `the run's kubespec serve was seen listening: ${output.slice(-2000)}`);
  for (const a of seen) {
    const ip = a.split(':')[0];
    assert.ok(ip === '0100007F' || ip === '00000000000000000000000001000000', `listens on loopback only, not ${a}`);
  }
  assert.ok(sawDataDir, `the run used ${dataDir}`);
  assert.equal(fs.existsSync(dataDir), false, `${dataDir} is removed at the end`);
  fs.rmSync(report, { recursive: true, force: true });
});

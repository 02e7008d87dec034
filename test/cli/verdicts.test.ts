import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../src/util/ports';

/**
 * Issue 27, end to end: `bin/kubespec` spawned as CI would, on small fixtures
 * (test/cli/fixtures/), each process with a time limit that fails clearly and is stopped by
 * its PID. The verdicts: exit codes, an untouched previous report, the pre-flight, the
 * interrupt, the rerun commands and merge, labels, JUnit, progress, the command line.
 */
const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/kubespec');
const FIXTURE = path.join(ROOT, 'test/cli/fixtures/verdicts.feature');
const HANGING = path.join(ROOT, 'test/cli/fixtures/hanging-driver.js');
const LIMIT_MS = 240_000;

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function kubespec(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; limitMs?: number; onStdout?: (all: string, pid: number) => void } = {},
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      opts.onStdout?.(stdout, child.pid!);
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`kubespec ${args.join(' ')} ran over ${(opts.limitMs ?? LIMIT_MS) / 1000} s\n${stdout}\n${stderr}`),
      );
    }, opts.limitMs ?? LIMIT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function tmp(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `kubespec-verdicts-${name}-`));
}

/** A report directory holding a previous run's record, to see that it survives. */
function previousReport(): { dir: string; unchanged(): void } {
  const dir = tmp('previous');
  const files = {
    'messages.ndjson': '{"meta":{"protocolVersion":"x"}}\n',
    'junit.xml': '<testsuite name="previous"/>\n',
  };
  for (const [f, body] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), body);
  return {
    dir,
    unchanged: () => {
      for (const [f, body] of Object.entries(files))
        assert.equal(fs.readFileSync(path.join(dir, f), 'utf8'), body, `${f} of the previous run is as it was`);
      assert.deepEqual(
        fs.readdirSync(path.dirname(dir)).filter((f) => f.startsWith(`.${path.basename(dir)}.`)),
        [],
        'no temporary directory is left',
      );
    },
  };
}

const out = (r: Result) => `exit ${r.code}\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}`;

test('every command answers -h/--help, kubespec --version its version, and an unknown flag is bad usage', async () => {
  const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  const v = await kubespec(['--version']);
  assert.equal(v.code, 0, out(v));
  assert.match(v.stdout, new RegExp(`kubespec ${version.replace(/\./g, '\\.')}`));
  for (const [cmd, flag] of [
    ['run', '-h'],
    ['report', '--help'],
    ['docs', '--help'],
    ['init-target', '--help'],
    ['clean', '-h'],
    ['serve', '-h'],
  ]) {
    const r = await kubespec([cmd, flag]);
    assert.equal(r.code, 0, `${cmd} ${flag}: ${out(r)}`);
    assert.match(r.stdout, new RegExp(`kubespec ${cmd}`), `${cmd} ${flag} prints its help`);
  }
  const bad = await kubespec(['run', '--dry-runx']);
  assert.equal(bad.code, 2, out(bad));
  assert.match(bad.stderr, /--dry-runx/);
});

test('--lengths: a file that is not seconds per file.feature:line is exit 2 naming it; the upstream one names real scenarios', async () => {
  const bad = path.join(tmp('lengths'), 'bad.json');
  for (const [text, why] of [
    ['{"features/x.feature": 3}', /"features\/x\.feature" is not file\.feature:line/],
    ['{"features/x.feature:3": "long"}', /"features\/x\.feature:3": "long" is not seconds/],
    ['[1]', /wants an object/],
  ] as const) {
    fs.writeFileSync(bad, text);
    const r = await kubespec(['run', '--dry-run', '--lengths', bad, 'features/node/lease.feature']);
    assert.equal(r.code, 2, out(r));
    assert.match(r.stderr, why);
  }
  const committed = JSON.parse(fs.readFileSync(path.join(ROOT, 'upstream/scenario-seconds.json'), 'utf8')) as Record<
    string,
    number
  >;
  for (const key of Object.keys(committed)) {
    const [file, line] = key.split(':');
    const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
    assert.ok(Number(line) <= lines.length, `${key}: ${file} has ${lines.length} lines`);
  }
});

test('an empty selection is exit 2, names the path or tag, and leaves the previous report as it was', async () => {
  const cwd = tmp('cwd');
  const prev = previousReport();
  const cases: [string[], RegExp][] = [
    [['features/node/hearbeat.feature'], /no such feature file or directory: features\/node\/hearbeat\.feature/],
    [
      ['--tags', '@NODE-GRACE-UNKOWN'],
      /@NODE-GRACE-UNKOWN is on none of the \d+ scenarios.*names no behaviour in features\/behaviours\.yaml \(did you mean @NODE-GRACE-UNKNOWN\?\)/,
    ],
    [['--all-applicable', '--tags', '@upstream-smok'], /@upstream-smok is on none of the \d+ scenarios/],
    [['--tags', '(@NODE-GRACE-UNKNOWN'], /is not a tag expression: .*Unmatched \(/],
  ];
  for (const [args, why] of cases) {
    const r = await kubespec(['run', ...args, '--report-dir', prev.dir], { cwd });
    assert.equal(r.code, 2, `${args.join(' ')}: ${out(r)}`);
    assert.match(r.stderr, why, `${args.join(' ')} says why`);
    prev.unchanged();
  }
});

test('a cluster the pre-flight cannot reach is exit 2 naming server, user and cause, with --kubeconfig or $KUBECONFIG', async () => {
  const port = await freePort(); // nothing listens there: the connection is refused
  const dir = tmp('kubeconfig');
  const kubeconfig = path.join(dir, 'kubeconfig');
  fs.writeFileSync(
    kubeconfig,
    `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "https://127.0.0.1:${port}", insecure-skip-tls-verify: true } }]
users: [{ name: ci-robot, user: { token: abc } }]
contexts: [{ name: c, context: { cluster: c, user: ci-robot } }]
current-context: c
`,
  );
  const prev = previousReport();
  for (const [args, env] of [
    [['--kubeconfig', kubeconfig], {}],
    [[], { KUBECONFIG: kubeconfig }],
  ] as [string[], NodeJS.ProcessEnv][]) {
    const r = await kubespec(['run', '--target', 'kube', ...args, '--report-dir', prev.dir, FIXTURE], { env });
    assert.equal(r.code, 2, out(r));
    assert.match(r.stderr, new RegExp(`127\\.0\\.0\\.1:${port}`), 'names the server');
    assert.match(r.stderr, /user "ci-robot"/, 'names the user');
    assert.match(r.stderr, /ECONNREFUSED/, 'names the cause');
    assert.doesNotMatch(r.stdout, /\[1\/\d+\]/, 'no scenario ran');
    prev.unchanged();
  }
});

test('--dry-run lists file:line and why a scenario would be not applicable, and writes nothing', async () => {
  const dir = path.join(tmp('dry'), 'reports');
  const r = await kubespec(['run', '--dry-run', '--report-dir', dir, FIXTURE]);
  assert.equal(r.code, 0, out(r));
  assert.match(
    r.stdout,
    /test\/cli\/fixtures\/verdicts\.feature:5 {2}API-YAML {2}set aside on the seed profile\n {4}○ n\/a: describes the kubernetes-1\.32 profile; this run uses seed/,
  );
  assert.match(r.stdout, /verdicts\.feature:16 {2}API-YAML {2}fails on purpose\n/);
  assert.match(r.stdout, /3 scenario\(s\) selected .* 2 would run, 1 would be not applicable/);
  assert.equal(fs.existsSync(dir), false, 'no report directory');
});

test('a failing run: exit 1, progress with file:line and duration, JUnit with reasons, IDs and cluster state; its rerun command works from anywhere and merges; labels stand side by side', async () => {
  const base = tmp('fail');
  const dir = path.join(base, 'reports');
  const cwd = path.join(ROOT, 'test'); // not the package root: paths are read from here
  const r = await kubespec(['run', '--label', 'cluster-a', '--report-dir', dir, path.relative(cwd, FIXTURE)], { cwd });
  assert.equal(r.code, 1, out(r));
  assert.match(
    r.stdout,
    /✖ API-YAML {2}fails on purpose — test\/cli\/fixtures\/verdicts\.feature:16 \(\d+(\.\d)? s; run at \d+(\.\d)? s\)/,
  );
  assert.match(
    r.stdout,
    /○ n\/a API-YAML {2}set aside on the seed profile — test\/cli\/fixtures\/verdicts\.feature:5 /,
  );
  assert.match(r.stdout, /^cluster-a: /m, 'the summary is labelled');
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8')).label, 'cluster-a');

  const junit = fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8');
  assert.match(junit, /<skipped message="describes the kubernetes-1\.32 profile; this run uses seed"\/>/);
  assert.match(junit, /<property name="behaviour" value="API-YAML"\/>/);
  assert.match(
    junit,
    /fails on purpose[\s\S]*<failure[\s\S]*<system-out>[\s\S]*nodes:[\s\S]*recent events:/,
    'the failure carries the cluster state',
  );
  assert.match(junit, /tests="3" failures="1" skipped="1"/);

  const rerun = /or all 1 of them, merged into this run's record: (kubespec run .*)$/m.exec(r.stdout)?.[1];
  assert.ok(rerun, `a --rerun-failed command is printed: ${r.stdout}`);
  assert.ok(rerun.includes(`--report-dir ${dir}`), 'it keeps --report-dir');
  const alone = /^ {2}(kubespec run .*)$/m.exec(r.stdout)![1];
  assert.ok(alone.includes(`${FIXTURE}:16`), `the single rerun names the scenario by its absolute path: ${alone}`);

  // Run from another directory, as printed (shell words without quotes here).
  const again = await kubespec(rerun.split(' ').slice(1), { cwd: os.tmpdir() });
  assert.equal(again.code, 1, out(again));
  assert.match(again.stdout, /--rerun-failed: 1 scenario\(s\) from the last run/);
  assert.ok(fs.existsSync(path.join(dir, 'messages.rerun-1.ndjson')), 'the rerun keeps its messages beside the run');
  const merged = fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8');
  assert.match(merged, /tests="3" failures="1" skipped="1"/, 'the JUnit is the whole run with the rerun merged in');

  // Another cluster's run beside it: two columns, not one.
  const other = path.join(base, 'other');
  fs.cpSync(dir, other, { recursive: true });
  const info = JSON.parse(fs.readFileSync(path.join(other, 'run.json'), 'utf8'));
  fs.writeFileSync(path.join(other, 'run.json'), JSON.stringify({ ...info, label: 'cluster-b' }));
  const both = await kubespec(['report', dir, other, '--out', path.join(base, 'merged')]);
  assert.equal(both.code, 1, out(both));
  assert.match(both.stdout, /^cluster-a: .*\ncluster-b: /m);
  fs.rmSync(base, { recursive: true, force: true });
});

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  test(`${signal} to the run alone: exit ${code}, its children stopped, a report marked interrupted that counts only what finished`, async () => {
    const dir = path.join(tmp('interrupt'), 'reports');
    const pidfile = path.join(path.dirname(dir), 'child.pid');
    let sent = false;
    const r = await kubespec(['run', '--driver', HANGING, '--report-dir', dir, FIXTURE], {
      env: { KUBESPEC_TEST_PIDFILE: pidfile, KUBESPEC_HEARTBEAT_MS: '1000' },
      onStdout: (all, pid) => {
        // Once the first scenario has finished and the second has been running a while.
        if (!sent && /still running/.test(all) && fs.existsSync(pidfile)) {
          sent = true;
          process.kill(pid, signal);
        }
      },
    });
    assert.ok(sent, `the run got as far as the hanging scenario: ${out(r)}`);
    assert.equal(r.code, code, out(r));
    assert.match(r.stdout, /\[1\/3\] ○ n\/a/, 'the first scenario finished');
    assert.match(
      r.stdout,
      /… still running \(\d+(\.\d)? s\): fails on purpose — test\/cli\/fixtures\/verdicts\.feature:16 \[run at \d+(\.\d)? s, \d+ running\]/,
      'a heartbeat while it ran',
    );
    const child = Number(fs.readFileSync(pidfile, 'utf8'));
    assert.equal(alive(child), false, `the driver's child ${child} did not outlive the run`);
    assert.doesNotMatch(r.stderr, /nodes "n1" not found/, 'a background error is not printed raw');
    assert.match(
      fs.readFileSync(path.join(dir, 'background-errors.log'), 'utf8'),
      /kubelet: Error: nodes "n1" not found/,
    );
    const info = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8'));
    assert.equal(info.interrupted.signal, signal);
    assert.match(fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8'), /tests="1" failures="0" skipped="1"/);
    const report = await kubespec(['report', dir, '--out', path.join(path.dirname(dir), 'merged')]);
    assert.equal(report.code, 0, `an unfinished scenario is not a failing behaviour: ${out(report)}`);
    assert.match(
      report.stdout,
      /interrupted by SIG(INT|TERM): 1 unfinished and 1 not started scenario\(s\) not counted/,
    );
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { reportFromMessages } from '../src/report';
import { kubeconfigYaml } from '../src/cluster/serving';
import { KubeconfigClient } from '../src/client/kubeconfig';
import { coreRegistry } from '../src/api/resources';
import { LABEL_RUN } from '../src/drivers/scoped';

/**
 * A long-lived cluster judged like any other: one `kubespec serve` (seed, virtual clock)
 * started by hand, and `kubespec run --target kube` against it twice in a row and once with
 * --parallel 4, then once through `kubectl proxy` (plain HTTP). Every run must give the
 * reference's verdicts: passed where it passed, not applicable only for the target's declared
 * reasons, never failed; and the server must hold nothing of the runs afterwards.
 * It takes minutes, so it runs only with KUBESPEC_ANYCLUSTER=1 (`npm run test:anycluster`,
 * which CI runs); KUBESPEC_ANYCLUSTER_FULL=1 runs every node and scheduler feature instead
 * of a subset (heartbeats, scheduler predicates).
 */

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin/kubespec');
const FEATURES = process.env.KUBESPEC_ANYCLUSTER_FULL
  ? ['features/node', 'features/scheduler']
  : ['features/node/heartbeat.feature', 'features/scheduler/predicates.feature'];
const TARGET = path.join(ROOT, 'targets/kubespec-serve-seed.yaml');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address() as net.AddressInfo; srv.close(() => resolve(port)); });
  });
}

/** Starts a process and resolves once its output matches `ready`. */
function startProcess(cmd: string, args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' } });
    let out = '';
    const timer = setTimeout(() => { child.kill(); reject(new Error(`${cmd} did not start:\n${out}`)); }, 120_000);
    const on = (c: Buffer) => {
      out += c.toString();
      const m = ready.exec(out);
      if (m) { clearTimeout(timer); resolve({ child, match: m }); }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${cmd} exited with ${code}:\n${out}`)); });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  child.removeAllListeners('exit');
  return new Promise((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); });
}

function run(dir: string, args: string[]): Map<string, { status: string; reason?: string; error?: string }> {
  const r = spawnSync(process.execPath, [BIN, 'run', '--profile', 'seed', '--quiet-summary', '--report-dir', dir, ...args, ...FEATURES], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' }, maxBuffer: 64 << 20 });
  const report = reportFromMessages(path.join(dir, 'messages.ndjson'), { target: 'x', profile: 'seed' });
  const out = new Map<string, { status: string; reason?: string; error?: string }>();
  for (const s of report.scenarios) out.set(`${s.uri}:${s.line}`, { status: s.status, reason: s.notApplicableReason, error: s.error });
  assert.ok(out.size > 0, `no scenarios ran: ${r.stdout}\n${r.stderr}`);
  return out;
}

/** Same verdicts: passed where the reference passed; not applicable only for a declared reason; never failed. */
function sameVerdicts(label: string, reference: Map<string, { status: string }>, got: Map<string, { status: string; reason?: string; error?: string }>): void {
  const problems: string[] = [];
  for (const [id, ref] of reference) {
    const g = got.get(id);
    if (!g) { problems.push(`${id}: did not run`); continue; }
    if (g.status === ref.status) continue;
    if (g.status === 'not-applicable' && /cannot run with|needs |does not offer|shows changes only|profile/.test(g.reason ?? '')) continue;
    problems.push(`${id}: ${g.status} (reference ${ref.status}) ${g.reason ?? g.error ?? ''}`);
  }
  assert.deepEqual(problems, [], `${label}:\n${problems.join('\n')}`);
}

test('one long-lived kubespec serve judged twice in a row, in parallel and through kubectl proxy: the reference verdicts, nothing left behind', { timeout: 60 * 60_000, skip: process.env.KUBESPEC_ANYCLUSTER ? false : 'set KUBESPEC_ANYCLUSTER=1 (npm run test:anycluster)' }, async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-anycluster-'));
  const port = await freePort();
  const server = await startProcess(process.execPath, [BIN, 'serve', '--profile', 'seed', '--clock', 'virtual', '--data-dir', path.join(work, 'serve'), '--secure-port', String(port), '--bind-address', '127.0.0.1'], /^kubeconfig: (.+)$/m);
  const kubeconfig = server.match[1].trim();
  let proxy: ChildProcess | undefined;
  try {
    const timings: string[] = [];
    const timed = <T>(label: string, f: () => T): T => { const t = Date.now(); const r = f(); timings.push(`${label} ${((Date.now() - t) / 1000).toFixed(1)}s`); return r; };
    const reference = timed('reference', () => run(path.join(work, 'reference'), ['--target', 'reference']));
    const kube = ['--target', 'kube', '--kubeconfig', kubeconfig, '--target-config', TARGET];
    const first = timed('kube #1', () => run(path.join(work, 'kube-1'), kube));
    sameVerdicts('first run', reference, first);
    const second = timed('kube #2', () => run(path.join(work, 'kube-2'), kube));
    sameVerdicts('second run on the same server', reference, second);
    const parallel = timed('kube --parallel 4', () => run(path.join(work, 'kube-p4'), [...kube, '--parallel', '4']));
    sameVerdicts('--parallel 4', reference, parallel);
    assert.ok([...first.values()].filter((v) => v.status === 'passed').length >= [...reference.values()].filter((v) => v.status === 'passed').length / 2, 'most scenarios are judged, not set aside');

    // Nothing of the runs is left: no labelled object, no node, no scenario namespace.
    const api = KubeconfigClient.fromFile(kubeconfig, coreRegistry());
    assert.deepEqual((await api.list({ resource: 'nodes' })).items.map((n) => n.metadata.name), []);
    const namespaces = (await api.list({ resource: 'namespaces' }, { labelSelector: LABEL_RUN })).items.filter((n) => !n.metadata.deletionTimestamp);
    assert.deepEqual(namespaces.map((n) => n.metadata.name), []);

    if (hasKubectl) {
      // Through `kubectl proxy`: plain HTTP, no credentials in the kubeconfig.
      const started = await startProcess('kubectl', ['proxy', '--port=0', '--kubeconfig', kubeconfig], /Starting to serve on 127\.0\.0\.1:(\d+)/);
      proxy = started.child;
      const viaProxy = path.join(work, 'proxy.kubeconfig');
      fs.writeFileSync(viaProxy, kubeconfigYaml(`http://127.0.0.1:${started.match[1]}`, 'proxy', {}));
      const proxied = timed('kube via kubectl proxy', () => run(path.join(work, 'kube-proxy'), ['--target', 'kube', '--kubeconfig', viaProxy, '--target-config', TARGET]));
      sameVerdicts('through kubectl proxy', reference, proxied);
    }
    console.log(timings.join(', '));
  } finally {
    if (proxy) await stopProcess(proxy);
    await stopProcess(server.child);
    fs.rmSync(work, { recursive: true, force: true });
  }
});

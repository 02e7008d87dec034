import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { median, printTable } from './table';
import { recordGoal } from './report';

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin/kubespec');
const RUNS = Number(process.env.RUNS ?? 3);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const req = https.get(
      { host: '127.0.0.1', port, path: '/version', rejectUnauthorized: false, timeout: 1000 },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      },
    );
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
  });

/** Milliseconds from spawning `kubespec serve` to its first 200 on GET /version over HTTPS. */
async function serveStart(dataDir: string, env: NodeJS.ProcessEnv): Promise<number> {
  const port = await freePort();
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--secure-port', String(port)], {
    stdio: 'ignore',
    env,
  });
  try {
    while (!(await answers(port))) {
      if (child.exitCode !== null) throw new Error(`kubespec serve exited with ${child.exitCode}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return Number(process.hrtime.bigint() - started) / 1e6;
  } finally {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

/**
 * How fast a `kubespec` process starts, compiled (dist/) and from the sources (ts-node): the
 * help text, and `kubespec serve` until it answers /version, in a new data directory (the CAs
 * and certificates made) and in one it used before (kept; the serve target's case after its
 * first scenario). Medians of RUNS (3) runs; the load average says how busy the machine was.
 */
export async function runStartupBenchmark(): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  const modes: [string, NodeJS.ProcessEnv][] = [
    ['compiled (dist/)', { ...process.env, KUBESPEC_FROM_SOURCE: '' }],
    ['sources (ts-node)', { ...process.env, KUBESPEC_FROM_SOURCE: '1' }],
  ];
  const built = spawnSync(process.execPath, [path.join(ROOT, 'bin/build.js')], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}${built.stderr}`);
  for (const [mode, env] of modes) {
    const help: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [BIN, '--help'], { env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`kubespec --help failed: ${r.stderr}`);
      help.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const fresh: number[] = [];
    const kept: number[] = [];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-bench-startup-'));
    try {
      for (let i = 0; i < RUNS; i++) {
        const own = path.join(dir, `new-${i}`);
        fresh.push(await serveStart(own, env));
        kept.push(await serveStart(own, env));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    rows.push({
      mode,
      runs: RUNS,
      'kubespec --help s': median(help) / 1000,
      'serve → /version s (new data dir)': median(fresh) / 1000,
      'serve → /version s (data dir kept)': median(kept) / 1000,
      'load average': os.loadavg()[0].toFixed(1),
    });
    if (mode.startsWith('compiled')) {
      recordGoal('kubespec --help (compiled)', median(help) / 1000, '<', 1, 's', RUNS);
      recordGoal('kubespec serve answering /version (compiled, data dir kept)', median(kept) / 1000, '<', 2, 's', RUNS);
    }
  }
  printTable('Process start (goals: --help < 1 s, serve answering /version < 2 s)', rows);
}

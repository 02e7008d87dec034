import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { readMessages } from '../src/report';
import { printTable } from './table';

const ROOT = path.resolve(__dirname, '..');

/**
 * The suite's own speed: wall time of a full run per profile, the cluster time the
 * scenarios simulate (read from the virtual clock each scenario reports), and the ratio.
 */
export async function runSuiteBenchmark(): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  for (const profile of ['seed', 'kubernetes-1.32']) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-bench-'));
    const started = process.hrtime.bigint();
    const r = spawnSync(
      process.execPath,
      [path.join(ROOT, 'bin/kubespec'), 'run', '--profile', profile, '--report-dir', dir, '--quiet-summary'],
      { encoding: 'utf8' },
    );
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.status !== 0) throw new Error(`suite failed on ${profile}:\n${r.stdout}\n${r.stderr}`);
    const { scenarios } = readMessages(path.join(dir, 'messages.ndjson'));
    let simulatedMs = 0;
    for (const s of scenarios) {
      const a = s.attachments.find((x) => x.mediaType === 'application/x.kubespec.clock+json');
      if (a) simulatedMs += (JSON.parse(a.body) as { simulatedMs: number }).simulatedMs;
    }
    const stepsMs = scenarios.reduce((t, s) => t + s.durationMs, 0);
    rows.push({
      profile,
      scenarios: scenarios.length,
      'wall s (process)': wallMs / 1000,
      'scenario time s': stepsMs / 1000,
      'simulated s': simulatedMs / 1000,
      'simulated/wall': simulatedMs / wallMs,
      'simulated/scenario time': stepsMs > 0 ? simulatedMs / stepsMs : 0,
    });
    fs.rmSync(dir, { recursive: true, force: true });
  }
  printTable('Suite on the reference target (virtual time)', rows);
}

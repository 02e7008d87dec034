// Judging one mutant: a scratch copy of the project, the mutant's edits applied there, the judge
// (mutants/judge.js) run on the scenarios its behaviours tag, and its verdict per profile.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyMutant, Mutant, ROOT, tagExpression } from './catalogue';
import { MutantProfileResult, MutantResult } from '../src/report/mutation';
import type { Options } from './options';
import { ProfileOutcome, ScenarioRef, WorkerRequest } from './worker';

/** Files and folders a judge needs; node_modules is linked, not copied. */
const COPIED = ['src', 'steps', 'features', 'profiles', 'targets', 'mutants', 'tsconfig.json', 'package.json'];

/** A scratch copy of the project the judges run in; removed at the end. */
export function makeScratch(base: string, n: number): string {
  const dir = path.join(base, `copy-${n}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const item of COPIED) fs.cpSync(path.join(ROOT, item), path.join(dir, item), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

interface JudgeOutput {
  outcomes?: ProfileOutcome[];
  loadMs?: number;
  error?: string;
  timedOut?: boolean;
}

/** Judges running now, stopped if the runner is interrupted. */
export const running = new Set<ReturnType<typeof spawn>>();

/** Runs the judge (mutants/judge.js) in a scratch copy and returns its one JSON line. */
export function judge(dir: string, request: WorkerRequest, timeoutS: number): Promise<JudgeOutput> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(dir, 'mutants', 'judge.js'), JSON.stringify(request)], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
    });
    running.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutS * 1000);
    child.on('close', () => {
      running.delete(child);
      clearTimeout(timer);
      if (timedOut) {
        resolve({ timedOut: true });
        return;
      }
      const line = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as JudgeOutput);
      } catch {
        resolve({ error: `the judge printed no result: ${(err || out).trim().slice(-1500)}` });
      }
    });
  });
}

function profileResult(o: ProfileOutcome): MutantProfileResult {
  const status = o.failed.length > 0 ? 'killed' : 'survived';
  return {
    status,
    ran: o.ran,
    notApplicable: o.notApplicable,
    failed: o.failed,
    ...(o.error && status === 'killed' ? { error: o.error } : {}),
    ...(o.byHint ? { byHint: true } : {}),
    ms: o.ms,
  };
}

/** Applies one mutant in a scratch copy, judges it on its profiles, and puts the copy back. */
export async function judgeMutant(
  dir: string,
  m: Mutant,
  o: Pick<Options, 'profiles' | 'timeoutS'>,
  hints?: Record<string, ScenarioRef[]>,
): Promise<MutantResult> {
  const started = Date.now();
  const originals = new Map<string, string>();
  const mutated = applyMutant(m, (f) => {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    originals.set(f, text);
    return text;
  });
  const profiles = m.profiles.filter((p) => o.profiles.includes(p));
  try {
    for (const [f, text] of mutated) fs.writeFileSync(path.join(dir, f), text);
    const out = await judge(
      dir,
      { tags: tagExpression(m.behaviours), profiles, failFast: true, ...(hints ? { hints } : {}) },
      o.timeoutS,
    );
    const results: Record<string, MutantProfileResult> = {};
    if (out.timedOut) {
      for (const p of profiles)
        results[p] = {
          status: 'killed',
          ran: 0,
          notApplicable: 0,
          failed: [],
          timedOut: true,
          error: `no verdict within ${o.timeoutS}s`,
          ms: o.timeoutS * 1000,
        };
    } else if (out.error || !out.outcomes) {
      for (const p of profiles)
        results[p] = { status: 'error', ran: 0, notApplicable: 0, failed: [], error: out.error ?? 'no outcome', ms: 0 };
    } else {
      for (const oc of out.outcomes) results[oc.profile] = profileResult(oc);
    }
    const statuses = Object.values(results).map((r) => r.status);
    const status = statuses.includes('error') ? 'error' : statuses.every((s) => s === 'killed') ? 'killed' : 'survived';
    return {
      id: m.id,
      title: m.title,
      behaviours: m.behaviours,
      files: [...new Set(m.edits.map((e) => e.file))],
      status,
      profiles: results,
      ms: Date.now() - started,
      ...(out.loadMs !== undefined ? { loadMs: out.loadMs } : {}),
    };
  } finally {
    for (const [f, text] of originals) fs.writeFileSync(path.join(dir, f), text);
  }
}

// `npm run mutants`: the mutation check. Applies each mutant of mutants/catalogue.yaml, one at a
// time, to a scratch copy of the project (the working tree is never edited), runs the scenarios
// tagged with the mutant's behaviours on each profile (reference target) and records whether at
// least one turned red (killed) or all stayed green (survived). Prints the table and writes
// reports/mutants.json, which the conformance report reads.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyMutant, loadMutants, Mutant, PROFILES, ROOT, tagExpression } from './catalogue';
import { loadCatalogue } from '../src/report/catalogue';
import {
  mergeMutationReports,
  MutantProfileResult,
  MutantResult,
  MutationReport,
  summarise,
} from '../src/report/mutation';
import { parseScenario, ProfileOutcome, ScenarioRef, WorkerRequest } from './worker';
import { seededRandom } from '../src/util/random';

const HELP = `npm run mutants -- [options]      (node mutants/main.js [options])

  --ids A,B            only these mutants (mutant ids, or behaviour IDs: every mutant naming one)
  --sample N           a deterministic sample of N mutants (--seed S, default 1)
  --shard I/N          every N-th mutant starting at the I-th (after --ids/--sample), for CI
  --profiles P,Q       judge on these profiles only (default: seed,kubernetes-1.32)
  --jobs N             judge N mutants at once, each in its own scratch copy (default 1)
  --timeout S          a judge running longer than S seconds is stopped; the mutant counts as
                       killed (it hung the scenarios), as Stryker does (default 180)
  --no-baseline        skip the check that the selected scenarios pass without a mutant (only
                       when they just passed, e.g. npm test on both profiles of the same tree)
  --hints FILE         a previous result file: each mutant first runs alone the scenarios that
                       killed it there, then (if none turns red) all its scenarios
                       (default: the --out file, when it exists)
  --no-hints           always run all of a mutant's scenarios
  --out FILE           where the results go (default reports/mutants.json)
  --list               print the selected mutants and exit
  merge A.json B.json… --out FILE   merge shard results into one file

Exit codes: 0 every judged mutant killed; 1 some survived or could not be judged; 2 bad usage,
a catalogue error, or a failing baseline.`;

/** Files and folders a judge needs; node_modules is linked, not copied. */
const COPIED = ['src', 'steps', 'features', 'profiles', 'targets', 'mutants', 'tsconfig.json', 'package.json'];

interface Options {
  ids?: string[];
  sample?: number;
  seed: number;
  shard?: [number, number];
  profiles: string[];
  jobs: number;
  timeoutS: number;
  baseline: boolean;
  out: string;
  hints?: string | false;
  list: boolean;
}

function parse(argv: string[]): Options | 'help' {
  const o: Options = {
    seed: 1,
    profiles: [...PROFILES],
    jobs: 1,
    timeoutS: 180,
    baseline: true,
    out: path.join(ROOT, 'reports', 'mutants.json'),
    list: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const int = (v: string, min: number): number => {
      if (!/^\d+$/.test(v) || Number(v) < min) throw new Error(`${arg} wants an integer ≥ ${min}, got "${v}"`);
      return Number(v);
    };
    switch (arg) {
      case '--help':
      case '-h':
        return 'help';
      case '--ids':
        o.ids = value()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case '--sample':
        o.sample = int(value(), 1);
        break;
      case '--seed':
        o.seed = int(value(), 0);
        break;
      case '--shard': {
        const v = value();
        const m = /^(\d+)\/(\d+)$/.exec(v);
        if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
          throw new Error(`--shard wants I/N with 1 ≤ I ≤ N, got "${v}"`);
        o.shard = [Number(m[1]), Number(m[2])];
        break;
      }
      case '--profiles': {
        o.profiles = value().split(',');
        for (const p of o.profiles)
          if (!(PROFILES as readonly string[]).includes(p))
            throw new Error(`--profiles: unknown profile "${p}" (known: ${PROFILES.join(', ')})`);
        break;
      }
      case '--jobs':
        o.jobs = int(value(), 1);
        break;
      case '--timeout':
        o.timeoutS = int(value(), 1);
        break;
      case '--no-baseline':
        o.baseline = false;
        break;
      case '--hints':
        o.hints = path.resolve(value());
        break;
      case '--no-hints':
        o.hints = false;
        break;
      case '--out':
        o.out = path.resolve(value());
        break;
      case '--list':
        o.list = true;
        break;
      default:
        throw new Error(`unknown option "${arg}"\n\n${HELP}`);
    }
  }
  return o;
}

export function select(
  all: Mutant[],
  o: Pick<Options, 'ids' | 'sample' | 'seed' | 'shard'>,
): { mutants: Mutant[]; selection: string } {
  let mutants = all;
  const parts: string[] = [];
  if (o.ids) {
    const unknown = o.ids.filter((id) => !all.some((m) => m.id === id || m.behaviours.includes(id)));
    if (unknown.length > 0) throw new Error(`--ids: no mutant is or names ${unknown.join(', ')}`);
    mutants = mutants.filter((m) => o.ids!.includes(m.id) || m.behaviours.some((b) => o.ids!.includes(b)));
    parts.push(`ids ${o.ids.join(',')}`);
  }
  if (o.sample !== undefined && o.sample < mutants.length) {
    const rnd = seededRandom(o.seed); // reproducible from --seed
    const order = mutants
      .map((m) => ({ m, k: rnd() }))
      .sort((a, b) => a.k - b.k)
      .slice(0, o.sample)
      .map((x) => x.m);
    mutants = mutants.filter((m) => order.includes(m)); // keep catalogue order
    parts.push(`sample ${o.sample} (seed ${o.seed})`);
  }
  if (o.shard) {
    const [i, n] = o.shard;
    mutants = mutants.filter((_, k) => k % n === i - 1);
    parts.push(`shard ${i}/${n}`);
  }
  return { mutants, selection: parts.length > 0 ? parts.join(', ') : 'all' };
}

/** A scratch copy of the project the judges run in; removed at the end. */
function makeScratch(base: string, n: number): string {
  const dir = path.join(base, `copy-${n}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const item of COPIED) fs.cpSync(path.join(ROOT, item), path.join(dir, item), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Per mutant and profile, the scenarios that killed it in a previous result file. */
export function loadHints(file: string): Map<string, Record<string, ScenarioRef[]>> {
  const hints = new Map<string, Record<string, ScenarioRef[]>>();
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as MutationReport;
  for (const m of report.mutants ?? []) {
    const perProfile: Record<string, ScenarioRef[]> = {};
    for (const [p, r] of Object.entries(m.profiles ?? {})) {
      const refs = (r.failed ?? []).map(parseScenario).filter((x): x is ScenarioRef => x !== undefined);
      if (r.status === 'killed' && refs.length > 0) perProfile[p] = refs;
    }
    if (Object.keys(perProfile).length > 0) hints.set(m.id, perProfile);
  }
  return hints;
}

interface JudgeOutput {
  outcomes?: ProfileOutcome[];
  loadMs?: number;
  error?: string;
  timedOut?: boolean;
}

/** Judges running now, stopped if the runner is interrupted. */
const running = new Set<ReturnType<typeof spawn>>();

/** Runs the judge (mutants/judge.js) in a scratch copy and returns its one JSON line. */
function judge(dir: string, request: WorkerRequest, timeoutS: number): Promise<JudgeOutput> {
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

async function judgeMutant(
  dir: string,
  m: Mutant,
  o: Options,
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

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function printTable(results: MutantResult[], profiles: string[]): void {
  const idW = Math.max(6, ...results.map((r) => r.id.length));
  console.log(`${pad('mutant', idW)}  ${profiles.map((p) => pad(p, 16)).join('  ')}  behaviours`);
  for (const r of results) {
    const cells = profiles.map((p) => {
      const pr = r.profiles[p];
      if (!pr) return pad('—', 16);
      const extra =
        pr.status === 'killed' ? (pr.timedOut ? ' (timeout)' : '') : pr.status === 'survived' ? ` (${pr.ran} ran)` : '';
      return pad(`${pr.status}${extra}`, 16);
    });
    console.log(`${pad(r.id, idW)}  ${cells.join('  ')}  ${r.behaviours.join(' ')}`);
  }
}

async function runAll(o: Options): Promise<number> {
  const catalogue = loadCatalogue(path.join(ROOT, 'features', 'behaviours.yaml'));
  const all = loadMutants();
  const { mutants, selection } = select(all, o);
  const named = new Set(all.flatMap((m) => m.behaviours));
  const withoutMutants = catalogue.filter((b) => !b.informative && !named.has(b.id)).map((b) => b.id);
  if (o.list) {
    for (const m of mutants) console.log(`${m.id}\t${m.behaviours.join(',')}\t${m.profiles.join(',')}\t${m.title}`);
    console.log(
      `${mutants.length} of ${all.length} mutants (${selection}); behaviours without a mutant: ${withoutMutants.join(', ') || 'none'}`,
    );
    return 0;
  }
  const started = Date.now();
  const hintsFile = o.hints === false ? undefined : (o.hints ?? (fs.existsSync(o.out) ? o.out : undefined));
  const hints = hintsFile ? loadHints(hintsFile) : new Map<string, Record<string, ScenarioRef[]>>();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-mutants-'));
  const cleanUp = (): void => {
    for (const child of running) child.kill('SIGKILL');
    fs.rmSync(base, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      cleanUp();
      process.exit(130);
    });
  try {
    const dirs = Array.from({ length: Math.min(o.jobs, Math.max(1, mutants.length)) }, (_, i) =>
      makeScratch(base, i + 1),
    );
    console.log(
      `mutants: ${mutants.length} of ${all.length} (${selection}), profiles ${o.profiles.join(', ')}, ${dirs.length} job(s)${hintsFile ? `, hints from ${path.relative(process.cwd(), hintsFile)} (${hints.size})` : ''}`,
    );
    let baselineMs: number | undefined;
    if (o.baseline && mutants.length > 0) {
      const baselineStarted = Date.now();
      const tags = tagExpression([...new Set(mutants.flatMap((m) => m.behaviours))]);
      const out = await judge(dirs[0], { tags, profiles: o.profiles, failFast: false }, o.timeoutS * 4);
      const red = out.outcomes?.flatMap((oc) => oc.failed.map((f) => `${oc.profile}: ${f}`)) ?? [];
      if (out.timedOut || out.error || red.length > 0) {
        console.error(
          `mutants: the selected scenarios do not pass without a mutant, so no mutant can be judged:\n  ${out.timedOut ? 'timed out' : (out.error ?? red.join('\n  '))}`,
        );
        return 2;
      }
      baselineMs = Date.now() - baselineStarted;
      console.log(
        `baseline: ${out.outcomes!.map((oc) => `${oc.profile} ${oc.ran} scenarios green (${(oc.ms / 1000).toFixed(1)}s)`).join(', ')}`,
      );
    }
    const results: MutantResult[] = new Array(mutants.length);
    let next = 0;
    let done = 0;
    await Promise.all(
      dirs.map(async (dir) => {
        while (next < mutants.length) {
          const k = next++;
          const r = await judgeMutant(dir, mutants[k], o, hints.get(mutants[k].id));
          results[k] = r;
          done++;
          const detail = Object.entries(r.profiles)
            .map(([p, pr]) => `${p} ${pr.status}${pr.byHint ? ' (hint)' : ''}`)
            .join(', ');
          console.log(
            `[${done}/${mutants.length}] ${r.status === 'killed' ? '✔' : '✘'} ${r.id} — ${detail} (${(r.ms / 1000).toFixed(1)}s)`,
          );
          if (r.status === 'error')
            console.log(`    ${Object.values(r.profiles)[0]?.error?.split('\n').slice(0, 6).join('\n    ')}`);
        }
      }),
    );
    const report: MutationReport = {
      generatedAt: new Date().toISOString(),
      durationMs: Date.now() - started,
      ...(baselineMs !== undefined ? { baselineMs } : {}),
      selection,
      catalogueSize: all.length,
      profiles: o.profiles,
      mutants: results,
      withoutMutants,
      ...summarise(results, o.profiles),
    };
    fs.mkdirSync(path.dirname(o.out), { recursive: true });
    fs.writeFileSync(o.out, `${JSON.stringify(report, null, 2)}\n`);
    console.log('');
    printTable(results, o.profiles);
    console.log('');
    const t = report.totals;
    console.log(
      `mutants: ${t.killed}/${t.mutants} killed, ${t.survived} survived, ${t.error} not judged — ${o.profiles.map((p) => `${p}: ${t.byProfile[p]?.killed ?? 0} killed, ${t.byProfile[p]?.survived ?? 0} survived`).join('; ')} — ${(report.durationMs / 1000).toFixed(0)}s`,
    );
    if (withoutMutants.length > 0)
      console.log(`behaviours without a mutant in the catalogue: ${withoutMutants.join(', ')}`);
    console.log(`written: ${path.relative(process.cwd(), o.out)}`);
    return t.survived === 0 && t.error === 0 ? 0 : 1;
  } finally {
    cleanUp();
  }
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'merge') {
    const outAt = argv.indexOf('--out');
    if (outAt < 0 || !argv[outAt + 1]) throw new Error('merge wants shard files and --out FILE');
    const files = argv.slice(1).filter((_, i) => i + 1 !== outAt && i + 1 !== outAt + 1);
    const all = mergeMutationReports(files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as MutationReport));
    // Results of mutants the catalogue no longer has (renamed or removed) are dropped.
    const current = new Set(loadMutants().map((m) => m.id));
    const dropped = all.mutants.filter((m) => !current.has(m.id)).map((m) => m.id);
    const kept = all.mutants.filter((m) => current.has(m.id));
    const merged: MutationReport = {
      ...all,
      catalogueSize: current.size,
      mutants: kept,
      ...summarise(kept, all.profiles),
    };
    if (dropped.length > 0) console.log(`dropped results of mutants no longer in the catalogue: ${dropped.join(', ')}`);
    const missing = [...current].filter((id) => !kept.some((m) => m.id === id));
    if (missing.length > 0) console.log(`not judged in these files: ${missing.join(', ')}`);
    fs.mkdirSync(path.dirname(path.resolve(argv[outAt + 1])), { recursive: true });
    fs.writeFileSync(argv[outAt + 1], `${JSON.stringify(merged, null, 2)}\n`);
    printTable(merged.mutants, merged.profiles);
    console.log(`merged ${files.length} file(s): ${merged.totals.killed}/${merged.totals.mutants} killed`);
    return merged.totals.survived === 0 && merged.totals.error === 0 ? 0 : 1;
  }
  const o = parse(argv);
  if (o === 'help') {
    console.log(HELP);
    return 0;
  }
  return runAll(o);
}

// `npm run mutants`: the mutation check. Applies each mutant of mutants/catalogue.yaml, one at a
// time, to a scratch copy of the project (the working tree is never edited), runs the scenarios
// tagged with the mutant's behaviours on each profile (reference target) and records whether at
// least one turned red (killed) or all stayed green (survived). Prints the table and writes
// reports/mutants.json, which the conformance report reads.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadMutants, ROOT, tagExpression } from './catalogue';
import { judge, judgeMutant, makeScratch, running } from './judging';
import { HELP, Options, parse, select } from './options';
import { loadCatalogue } from '../src/report/catalogue';
import { mergeMutationReports, MutantResult, MutationReport, summarise } from '../src/report/mutation';
import { parseScenario, ScenarioRef } from './worker';

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

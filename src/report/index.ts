// Reports from Cucumber messages: what the CLI (`kubespec run`, `kubespec report dirA dirB`) needs.
//
// A run's report directory holds `messages.ndjson` (Cucumber's `message` formatter) and
// `run.json` ({ target, profile, label? }); several directories merge side by side.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCatalogue, type Behaviour } from './catalogue';
import { buildConformance, writeConformanceReports, type WrittenReports } from './conformance';
import { type ConformanceReport, type RunResult } from './model';
import { readMessages } from './messages';
import { readMutationReport, type MutationReport } from './mutation';

export {
  BEHAVIOUR_ID,
  BEHAVIOUR_TAG,
  behaviourIdFromTag,
  CatalogueError,
  DEFAULT_CATALOGUE_PATH,
  loadCatalogue,
  parseCatalogue,
} from './catalogue';
export type { Behaviour, SeedCitation } from './catalogue';
export { DECISION_MEDIA_TYPE } from './model';
export { NOT_APPLICABLE_MEDIA_TYPE, parseMessages, readMessages } from './messages';
export type {
  ParsedMessages,
  RunMetadata,
  RunMetaInfo,
  ScenarioAttachment,
  ScenarioResult,
  ScenarioStatus,
  StepResult,
  StepStatus,
} from './messages';
export { buildConformance, formatSummary, isEmbeddableSvg, writeConformanceReports } from './conformance';
export { mergeMutationReports, readMutationReport, summarise } from './mutation';
export type { BehaviourMutation, MutantResult, MutantStatus, MutationReport } from './mutation';
export type {
  BehaviourMutants,
  BehaviourRow,
  BehaviourRunResult,
  BehaviourStatus,
  ConformanceReport,
  RunResult,
  RunSummary,
  RunTotals,
  ScenarioEntry,
  UnknownTag,
} from './model';
export type { WrittenReports } from './conformance';
export { junitXml } from './junit';
export type { JunitSuite } from './junit';

export const MESSAGES_FILE = 'messages.ndjson';
export const RUN_INFO_FILE = 'run.json';

/** What a run ran against; stored as run.json beside messages.ndjson. */
export interface RunInfo {
  target: string;
  profile: string;
  /** column heading; defaults to "<target> · <profile>" */
  label?: string;
  /**
   * The run was stopped by a signal: which, and when. Its scenarios that had not finished by
   * then (or failed after it, as their servers were being stopped) are not counted at all.
   */
  interrupted?: { signal: string; at: string };
}

/** Reads one run's message stream into a RunResult. */
export function reportFromMessages(messagesPath: string, info: RunInfo): RunResult {
  const parsed = readMessages(messagesPath);
  const { run, defined } = parsed;
  let { scenarios } = parsed;
  let interrupted: string | undefined;
  if (info.interrupted) {
    const at = Date.parse(info.interrupted.at);
    const finished = scenarios.filter((s) => s.finishedAtMs !== undefined && s.finishedAtMs <= at);
    const unfinished = scenarios.filter((s) => !finished.includes(s) && s.status !== 'skipped').length;
    const notStarted = scenarios.length - finished.length - unfinished;
    interrupted = `interrupted by ${info.interrupted.signal}: ${unfinished} unfinished and ${notStarted} not started scenario(s) not counted`;
    scenarios = finished;
    // The run's own "did not finish" is the interruption, said above.
    run.problems = run.problems.filter((p) => !p.startsWith('the run did not finish'));
  }
  return {
    label: info.label ?? defaultLabel(info),
    target: info.target,
    profile: info.profile,
    scenarios,
    meta: run,
    defined,
    ...(interrupted ? { interrupted } : {}),
  };
}

/** `kubespec run --rerun-failed` keeps each rerun's messages beside the run's: messages.rerun-N.ndjson. */
const RERUN_FILE = /^messages\.rerun-(\d+)\.ndjson$/;

/** The message files of a report directory, the run's first and then its reruns in order. */
export function messageFiles(dir: string): string[] {
  const reruns = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .map((f) => RERUN_FILE.exec(f))
        .filter((m): m is RegExpExecArray => m !== null)
        .sort((a, b) => Number(a[1]) - Number(b[1]))
        .map((m) => path.join(dir, m[0]))
    : [];
  return [path.join(dir, MESSAGES_FILE), ...reruns];
}

/** Where the next rerun of the run in dir keeps its messages. */
export function nextRerunFile(dir: string): string {
  return path.join(dir, `messages.rerun-${messageFiles(dir).length}.ndjson`);
}

/**
 * Reads a report directory: dir/messages.ndjson with its reruns' messages merged over it (a
 * scenario rerun replaces its earlier result), and dir/run.json when present.
 */
export function loadRun(dir: string): RunResult {
  const messages = path.join(dir, MESSAGES_FILE);
  if (!fs.existsSync(messages)) {
    throw new Error(
      `${dir}: no ${MESSAGES_FILE} (expected the output of a kubespec run, or of cucumber --format message:${MESSAGES_FILE})`,
    );
  }
  const info = readRunInfo(dir) ?? { target: 'unknown', profile: 'unknown', label: path.basename(path.resolve(dir)) };
  // Only the run the interruption stopped is cut at it: a rerun's own run.json is the last one.
  const files = messageFiles(dir);
  const runs = files.map((f, i) =>
    reportFromMessages(f, i === files.length - 1 ? info : { ...info, interrupted: undefined }),
  );
  return mergeShards(runs)[0];
}

/** Writes dir/run.json so that `loadRun(dir)` knows the target and profile later. */
export function writeRunInfo(dir: string, info: RunInfo): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, RUN_INFO_FILE);
  fs.writeFileSync(file, `${JSON.stringify(info, null, 2)}\n`);
  return file;
}

export interface WriteReportsOptions {
  /** the catalogue to report against; loaded from features/behaviours.yaml when omitted */
  catalogue?: Behaviour[];
  generatedAt?: Date;
  /** the mutation check's results; read from outDir/mutants.json, else reports/mutants.json, when omitted */
  mutation?: MutationReport | null;
}

/** The project's default place for `npm run mutants` results. */
export const DEFAULT_MUTATION_REPORT = path.resolve(__dirname, '../..', 'reports', 'mutants.json');

/**
 * The mutation results the conformance report of outDir shows: outDir/mutants.json, else, for
 * a report inside the project's reports/ folder, reports/mutants.json.
 */
export function findMutationReport(outDir: string): MutationReport | undefined {
  const local = path.join(outDir, 'mutants.json');
  if (fs.existsSync(local)) return readMutationReport(local);
  const reports = path.dirname(DEFAULT_MUTATION_REPORT);
  const inside = path.relative(reports, path.resolve(outDir));
  return inside.startsWith('..') || path.isAbsolute(inside) ? undefined : readMutationReport(DEFAULT_MUTATION_REPORT);
}

/** Builds the conformance matrix of the runs and writes conformance.json and conformance.html into outDir. */
export function writeReports(
  runs: RunResult[],
  outDir: string,
  options: WriteReportsOptions = {},
): { report: ConformanceReport; files: WrittenReports } {
  const catalogue = options.catalogue ?? loadCatalogue();
  const mutation = options.mutation === null ? undefined : (options.mutation ?? findMutationReport(outDir));
  const report = buildConformance(catalogue, runs, {
    ...(options.generatedAt ? { generatedAt: options.generatedAt } : {}),
    ...(mutation ? { mutation } : {}),
  });
  return { report, files: writeConformanceReports(report, outDir) };
}

function readRunInfo(dir: string): RunInfo | undefined {
  const file = path.join(dir, RUN_INFO_FILE);
  if (!fs.existsSync(file)) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: not valid JSON: ${(err as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new Error(`${file}: expected { "target", "profile" }`);
  const o = doc as Record<string, unknown>;
  for (const key of ['target', 'profile'] as const) {
    if (typeof o[key] !== 'string' || o[key] === '') throw new Error(`${file}: missing "${key}" (a string)`);
  }
  if (o.label !== undefined && typeof o.label !== 'string') throw new Error(`${file}: "label" must be a string`);
  const info: RunInfo = { target: o.target as string, profile: o.profile as string };
  if (typeof o.label === 'string' && o.label !== '') info.label = o.label;
  const i = o.interrupted as { signal?: unknown; at?: unknown } | undefined;
  if (i !== undefined) {
    if (typeof i !== 'object' || i === null || typeof i.signal !== 'string' || typeof i.at !== 'string')
      throw new Error(`${file}: "interrupted" must be { "signal", "at" } (strings)`);
    info.interrupted = { signal: i.signal, at: i.at };
  }
  return info;
}

function defaultLabel(info: RunInfo): string {
  return `${info.target} · ${info.profile}`;
}

/**
 * Shards of one run (same target and profile, split with --shard) become one column; runs
 * of different targets or profiles stay side by side. A later run of the same column that
 * judged a scenario again (a rerun of some scenarios into another report directory) replaces
 * the earlier result — matched by location or, as lines move when a feature is edited, by
 * file and name — and a scenario its feature files no longer define is dropped.
 */
export function mergeShards(runs: RunResult[]): RunResult[] {
  const byLabel = new Map<string, RunResult>();
  for (const run of runs) {
    const have = byLabel.get(run.label);
    if (!have) {
      byLabel.set(run.label, run);
      continue;
    }
    const again = new Set(run.scenarios.flatMap((s) => [`${s.uri}:${s.line}`, `${s.uri}\u0000${s.name}`]));
    const kept = have.scenarios.filter(
      (s) =>
        !again.has(`${s.uri}:${s.line}`) &&
        !again.has(`${s.uri}\u0000${s.name}`) &&
        !(run.defined?.has(s.uri) && !run.defined.get(s.uri)!.has(s.name)),
    );
    const interrupted = have.interrupted ?? run.interrupted;
    byLabel.set(run.label, {
      ...have,
      scenarios: [...kept, ...run.scenarios],
      ...(interrupted ? { interrupted } : {}),
    });
  }
  return [...byLabel.values()];
}

/** Locations (uri:line) of the scenarios that did not pass in a report directory's run (its reruns merged). */
/**
 * What each scenario of the run recorded in `dir` took, in seconds by "uri:line", for the next
 * parallel run's order (cli/longest-first.ts); empty when there is none or it cannot be read
 * (an order is a hint: a run must not fail for want of one).
 */
export function measuredSeconds(dir: string): Record<string, number> {
  const measured: Record<string, number> = {};
  try {
    for (const f of messageFiles(dir).filter((m) => fs.existsSync(m)))
      for (const s of reportFromMessages(f, { target: '', profile: '' }).scenarios)
        measured[`${s.uri}:${s.line}`] = Math.max(measured[`${s.uri}:${s.line}`] ?? 0, s.durationMs / 1000);
  } catch {
    return {};
  }
  return measured;
}

export function failedLocations(dir: string): string[] {
  const { scenarios } = mergeShards(
    messageFiles(dir).map((f) => reportFromMessages(f, { target: '', profile: '' })),
  )[0];
  return [
    ...new Set(
      scenarios.filter((s) => s.status !== 'passed' && s.status !== 'not-applicable').map((s) => `${s.uri}:${s.line}`),
    ),
  ];
}

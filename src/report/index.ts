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

export const MESSAGES_FILE = 'messages.ndjson';
export const RUN_INFO_FILE = 'run.json';

/** What a run ran against; stored as run.json beside messages.ndjson. */
export interface RunInfo {
  target: string;
  profile: string;
  /** column heading; defaults to "<target> · <profile>" */
  label?: string;
}

/** Reads one run's message stream into a RunResult. */
export function reportFromMessages(messagesPath: string, info: RunInfo): RunResult {
  const { scenarios, run, defined } = readMessages(messagesPath);
  return {
    label: info.label ?? defaultLabel(info),
    target: info.target,
    profile: info.profile,
    scenarios,
    meta: run,
    defined,
  };
}

/** Reads a report directory: dir/messages.ndjson, and dir/run.json when present. */
export function loadRun(dir: string): RunResult {
  const messages = path.join(dir, MESSAGES_FILE);
  if (!fs.existsSync(messages)) {
    throw new Error(
      `${dir}: no ${MESSAGES_FILE} (expected the output of a kubespec run, or of cucumber --format message:${MESSAGES_FILE})`,
    );
  }
  const info = readRunInfo(dir);
  return reportFromMessages(
    messages,
    info ?? { target: 'unknown', profile: 'unknown', label: path.basename(path.resolve(dir)) },
  );
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
    byLabel.set(run.label, { ...have, scenarios: [...kept, ...run.scenarios] });
  }
  return [...byLabel.values()];
}

/** Locations (uri:line) of the scenarios that did not pass in a previous run's messages. */
export function failedLocations(messagesPath: string): string[] {
  const { scenarios } = readMessages(messagesPath);
  return [
    ...new Set(
      scenarios.filter((s) => s.status !== 'passed' && s.status !== 'not-applicable').map((s) => `${s.uri}:${s.line}`),
    ),
  ];
}

// The mutation check's results (reports/mutants.json, written by `npm run mutants`): for each
// named break of the reference implementation, whether the scenarios of its behaviours noticed it
// on each profile. The conformance report shows, per behaviour, whether all its mutants died.
import * as fs from 'node:fs';

/**
 * killed     at least one scenario of the mutant's behaviours failed (or the judge timed out)
 * survived   the scenarios ran and all passed: the break went unnoticed
 * error      the mutant could not be judged (it does not load, or the judge crashed)
 */
export type MutantStatus = 'killed' | 'survived' | 'error';

export interface MutantProfileResult {
  status: MutantStatus;
  /** scenarios that ran (not counting not-applicable ones) */
  ran: number;
  notApplicable: number;
  /** the failing scenarios (uri: name), when killed */
  failed: string[];
  error?: string;
  timedOut?: boolean;
  /** the verdict came from the scenarios that killed the mutant last time, run alone first */
  byHint?: boolean;
  ms: number;
}

export interface MutantResult {
  id: string;
  title: string;
  behaviours: string[];
  files: string[];
  /** killed when killed on every profile it is judged on */
  status: MutantStatus;
  profiles: Record<string, MutantProfileResult>;
  /** wall time of the mutant's judging, all profiles */
  ms: number;
  /** of which starting the judge: node, cucumber, and loading src/ through the steps */
  loadMs?: number;
}

export interface BehaviourMutation {
  mutants: number;
  killed: number;
  /** per profile: mutants judged there, and how many died */
  profiles: Record<string, { mutants: number; killed: number }>;
  allKilled: boolean;
}

export interface MutationReport {
  generatedAt: string;
  durationMs: number;
  /** of which the baseline: the selected scenarios without a mutant, on each profile */
  baselineMs?: number;
  /** which share of the catalogue ran, e.g. "shard 1/4", "sample 20 (seed 1)", "all" */
  selection: string;
  catalogueSize: number;
  profiles: string[];
  mutants: MutantResult[];
  /** per behaviour ID with at least one judged mutant */
  behaviours: Record<string, BehaviourMutation>;
  /** catalogued behaviour IDs no mutant in the catalogue names */
  withoutMutants: string[];
  totals: {
    mutants: number;
    killed: number;
    survived: number;
    error: number;
    byProfile: Record<string, { killed: number; survived: number; error: number }>;
  };
}

/** Per-behaviour figures and totals of a list of judged mutants. */
export function summarise(mutants: MutantResult[], profiles: string[]): Pick<MutationReport, 'behaviours' | 'totals'> {
  const behaviours: Record<string, BehaviourMutation> = {};
  const totals: MutationReport['totals'] = { mutants: 0, killed: 0, survived: 0, error: 0, byProfile: {} };
  for (const p of profiles) totals.byProfile[p] = { killed: 0, survived: 0, error: 0 };
  for (const m of mutants) {
    totals.mutants++;
    totals[m.status]++;
    for (const [p, r] of Object.entries(m.profiles)) {
      totals.byProfile[p] ??= { killed: 0, survived: 0, error: 0 };
      totals.byProfile[p][r.status]++;
    }
    for (const id of m.behaviours) {
      const b = (behaviours[id] ??= { mutants: 0, killed: 0, profiles: {}, allKilled: true });
      b.mutants++;
      if (m.status === 'killed') b.killed++;
      else b.allKilled = false;
      for (const [p, r] of Object.entries(m.profiles)) {
        const bp = (b.profiles[p] ??= { mutants: 0, killed: 0 });
        bp.mutants++;
        if (r.status === 'killed') bp.killed++;
      }
    }
  }
  return { behaviours, totals };
}

/** Reads reports/mutants.json (or merges several shard files); undefined when none exists. */
export function readMutationReport(...files: string[]): MutationReport | undefined {
  const reports = files
    .filter((f) => fs.existsSync(f))
    .map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as MutationReport);
  if (reports.length === 0) return undefined;
  if (reports.length === 1) return reports[0];
  return mergeMutationReports(reports);
}

/** One report from the shards of a mutation run (a mutant judged twice keeps its last result). */
export function mergeMutationReports(reports: MutationReport[]): MutationReport {
  const byId = new Map<string, MutantResult>();
  for (const r of reports) for (const m of r.mutants) byId.set(m.id, m);
  const profiles = [...new Set(reports.flatMap((r) => r.profiles))];
  const mutants = [...byId.values()];
  return {
    generatedAt: reports
      .map((r) => r.generatedAt)
      .sort()
      .at(-1)!,
    durationMs: reports.reduce((s, r) => s + r.durationMs, 0),
    selection: reports.map((r) => r.selection).join(' + '),
    catalogueSize: Math.max(...reports.map((r) => r.catalogueSize)),
    profiles,
    mutants,
    withoutMutants: reports[0].withoutMutants,
    ...summarise(mutants, profiles),
  };
}

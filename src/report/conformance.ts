// The conformance matrix: one row per catalogued behaviour, one column per run (a target with a
// profile), built from per-scenario results. Written as conformance.json and conformance.html.
//
// A behaviour's status on a run:
// - pass            it has at least one scenario, and each passed (or, for some, is not applicable there)
// - fail            any of its scenarios failed, or is undefined, pending, ambiguous or skipped without a reason
// - not-applicable  every one of its scenarios is not applicable there (or it is informative and has none)
// - not-covered     no scenario of the run cites it
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Behaviour } from './catalogue';
import type { ScenarioResult, ScenarioStatus } from './messages';
import { isEmbeddableSvg, renderConformanceHtml } from './html';
import type { MutationReport } from './mutation';
import type { SchedulingDecision } from '../scheduler/decision';
import {
  BEHAVIOUR_STATUSES,
  BehaviourRow,
  BehaviourRunResult,
  BehaviourStatus,
  ConformanceReport,
  RunResult,
  RunSummary,
  RunTotals,
  SCENARIO_STATUSES,
  ScenarioEntry,
  DECISION_MEDIA_TYPE,
} from './model';

export { isEmbeddableSvg };

export interface BuildOptions {
  generatedAt?: Date;
  /** reports/mutants.json, for the per-behaviour "mutants all killed" column */
  mutation?: MutationReport;
}

export function buildConformance(
  catalogue: Behaviour[],
  runs: RunResult[],
  options: BuildOptions = {},
): ConformanceReport {
  const known = new Set(catalogue.map((b) => b.id));
  const rows: BehaviourRow[] = catalogue.map((b) => {
    const row: BehaviourRow = {
      id: b.id,
      title: b.title,
      area: b.area,
      seed: b.seed.map((s) => ({ ...s })),
      informative: b.informative,
      results: runs.map((run) =>
        behaviourResult(
          b,
          run.scenarios.filter((s) => s.behaviourIds.includes(b.id)),
        ),
      ),
    };
    if (b.upstream !== undefined) row.upstream = b.upstream;
    if (options.mutation) {
      const judged = options.mutation.mutants.filter((m) => m.behaviours.includes(b.id));
      const survivors = judged.filter((m) => m.status !== 'killed').map((m) => m.id);
      row.mutants = {
        total: judged.length,
        killed: judged.length - survivors.length,
        allKilled: judged.length > 0 && survivors.length === 0,
        survivors,
      };
    }
    return row;
  });

  const unknown = new Map<string, Set<string>>();
  for (const run of runs) {
    for (const s of run.scenarios) {
      for (const id of s.behaviourIds) {
        if (known.has(id)) continue;
        const set = unknown.get(id) ?? new Set<string>();
        set.add(locationOf(s));
        unknown.set(id, set);
      }
    }
  }

  return {
    generatedAt: (options.generatedAt ?? new Date()).toISOString(),
    behaviours: catalogue.length,
    areas: [...new Set(catalogue.map((b) => b.area))],
    runs: runs.map((run, i) => {
      const summary: RunSummary = {
        label: run.label,
        target: run.target,
        profile: run.profile,
        totals: totalsFor(
          rows.map((r) => r.results[i] as BehaviourRunResult),
          run.scenarios,
        ),
        untagged: run.scenarios.filter((s) => s.behaviourIds.length === 0).map(locationOf),
      };
      if (run.meta) summary.meta = run.meta;
      if (run.interrupted) summary.interrupted = run.interrupted;
      return summary;
    }),
    rows,
    unknownTags: [...unknown.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([id, locations]) => ({ id, locations: [...locations] })),
    ...(options.mutation
      ? {
          mutation: {
            generatedAt: options.mutation.generatedAt,
            selection: options.mutation.selection,
            mutants: options.mutation.totals.mutants,
            killed: options.mutation.totals.killed,
          },
        }
      : {}),
  };
}

function behaviourResult(b: Behaviour, scenarios: ScenarioResult[]): BehaviourRunResult {
  const entries = scenarios.map(toEntry);
  const durationMs = round(scenarios.reduce((sum, s) => sum + s.durationMs, 0));
  if (scenarios.length === 0) {
    return b.informative
      ? { status: 'not-applicable', reason: b.notApplicableReason, durationMs, scenarios: entries }
      : { status: 'not-covered', durationMs, scenarios: entries };
  }
  if (scenarios.some((s) => s.status !== 'passed' && s.status !== 'not-applicable')) {
    return { status: 'fail', durationMs, scenarios: entries };
  }
  if (scenarios.every((s) => s.status === 'not-applicable')) {
    const reasons = [...new Set(scenarios.map((s) => s.notApplicableReason ?? '').filter((r) => r !== ''))];
    const reason = reasons.length > 0 ? reasons.join('; ') : b.notApplicableReason;
    return reason !== undefined
      ? { status: 'not-applicable', reason, durationMs, scenarios: entries }
      : { status: 'not-applicable', durationMs, scenarios: entries };
  }
  return { status: 'pass', durationMs, scenarios: entries };
}

function toEntry(s: ScenarioResult): ScenarioEntry {
  const entry: ScenarioEntry = {
    name: s.name,
    location: locationOf(s),
    status: s.status,
    durationMs: s.durationMs,
    attempts: s.attempts,
    timelines: s.attachments
      .filter((a) => a.mediaType === 'image/svg+xml' && a.encoding === 'identity')
      .map((a) => a.body.trim())
      .filter(isEmbeddableSvg),
  };
  const decisions = s.attachments
    .filter((a) => a.mediaType === DECISION_MEDIA_TYPE)
    .flatMap((a) => parseDecision(a.body));
  if (decisions.length > 0) entry.decisions = decisions;
  const culprit =
    s.status === 'passed' || s.status === 'not-applicable'
      ? undefined
      : s.steps.find((st) => st.status !== 'passed' && st.status !== 'skipped' && st.status !== 'unknown');
  if (culprit) entry.failedStep = culprit.keyword ? `${culprit.keyword} ${culprit.text}` : culprit.text;
  if (s.error !== undefined) entry.error = s.error;
  if (s.notApplicableReason !== undefined) entry.reason = s.notApplicableReason;
  return entry;
}

function totalsFor(results: BehaviourRunResult[], scenarios: ScenarioResult[]): RunTotals {
  const byStatus = Object.fromEntries(BEHAVIOUR_STATUSES.map((s) => [s, 0])) as Record<BehaviourStatus, number>;
  for (const r of results) byStatus[r.status] += 1;
  const scenarioCounts = Object.fromEntries(SCENARIO_STATUSES.map((s) => [s, 0])) as Record<ScenarioStatus, number>;
  for (const s of scenarios) scenarioCounts[s.status] += 1;
  return {
    behaviours: results.length,
    covered: byStatus.pass,
    byStatus,
    scenarios: { total: scenarios.length, byStatus: scenarioCounts },
    durationMs: round(scenarios.reduce((sum, s) => sum + s.durationMs, 0)),
  };
}

/** One line per run, e.g. "reference · seed: 12/73 behaviours covered — 31 scenarios: 30 passed, 0 failed, 1 not applicable". */
export function formatSummary(report: ConformanceReport): string {
  const lines = report.runs.map((run) => {
    const t = run.totals;
    const sc = t.scenarios.byStatus;
    const parts = [`${sc.passed} passed`, `${sc.failed} failed`, `${sc['not-applicable']} not applicable`];
    for (const s of ['undefined', 'pending', 'ambiguous', 'skipped'] as const) {
      if (sc[s] > 0) parts.push(`${sc[s]} ${s}${s === 'skipped' ? ' without a reason' : ''}`);
    }
    const failing = t.byStatus.fail > 0 ? `, ${t.byStatus.fail} failing` : '';
    const plural = t.scenarios.total === 1 ? 'scenario' : 'scenarios';
    const interrupted = run.interrupted ? ` (${run.interrupted})` : '';
    return `${run.label}${interrupted}: ${t.covered}/${t.behaviours} behaviours covered${failing} — ${t.scenarios.total} ${plural}: ${parts.join(', ')}`;
  });
  if (report.unknownTags.length > 0) {
    lines.push(
      `unknown behaviour tags (not in the catalogue): ${report.unknownTags
        .map((u) => `@${u.id} (${u.locations.join(', ')})`)
        .join('; ')}`,
    );
  }
  return lines.join('\n');
}

export interface WrittenReports {
  json: string;
  html: string;
}

/** Writes conformance.json and conformance.html into outDir (created if missing). */
export function writeConformanceReports(report: ConformanceReport, outDir: string): WrittenReports {
  fs.mkdirSync(outDir, { recursive: true });
  const json = path.join(outDir, 'conformance.json');
  const html = path.join(outDir, 'conformance.html');
  fs.writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(html, renderConformanceHtml(report));
  return { json, html };
}

function locationOf(s: ScenarioResult): string {
  return `${s.uri}:${s.line}`;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** A decision attachment, or nothing (with a warning) when its JSON is not one. */
function parseDecision(body: string): SchedulingDecision[] {
  try {
    const d = JSON.parse(body) as SchedulingDecision;
    if (typeof d?.pod === 'string' && Array.isArray(d.nodes)) return [d];
    console.warn(`kubespec: a scheduling-decision attachment is not a decision: ${body.slice(0, 80)}`);
  } catch (err) {
    console.warn(`kubespec: a scheduling-decision attachment is not JSON: ${(err as Error).message}`);
  }
  return [];
}

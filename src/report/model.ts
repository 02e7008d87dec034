// The conformance report's shape: what conformance.ts builds and html.ts renders.
import type { Behaviour } from './catalogue';
import type { RunMetadata, ScenarioResult, ScenarioStatus } from './messages';
import type { SchedulingDecision } from '../scheduler/decision';

/** Media type of a scheduling decision a scenario attaches (JSON): the documentation draws it as a table. */
export const DECISION_MEDIA_TYPE = 'application/vnd.kubespec.scheduling-decision+json';

export type BehaviourStatus = 'pass' | 'fail' | 'not-applicable' | 'not-covered';

export const BEHAVIOUR_STATUSES: readonly BehaviourStatus[] = ['pass', 'fail', 'not-applicable', 'not-covered'];
export const SCENARIO_STATUSES: readonly ScenarioStatus[] = [
  'passed',
  'failed',
  'not-applicable',
  'undefined',
  'pending',
  'skipped',
  'ambiguous',
];

/** One run's scenarios and what it ran against. */
export interface RunResult {
  /** column heading, e.g. "reference · seed" */
  label: string;
  target: string;
  profile: string;
  scenarios: ScenarioResult[];
  meta?: RunMetadata;
  /** Every scenario its feature files defined, uri → names (for merging a rerun over a run). */
  defined?: Map<string, Set<string>>;
  /** The run was stopped by a signal: what it says, e.g. "interrupted by SIGINT: 2 unfinished scenarios not counted". */
  interrupted?: string;
}

export interface ScenarioEntry {
  name: string;
  /** uri:line */
  location: string;
  status: ScenarioStatus;
  durationMs: number;
  attempts: number;
  /** the step that failed (or is undefined, pending, ambiguous), e.g. 'When 16 more seconds pass' */
  failedStep?: string;
  error?: string;
  /** why it is not applicable */
  reason?: string;
  /** SVG timelines the scenario attached (only plain `<svg` documents are kept) */
  timelines: string[];
  /** the scheduler's decisions the scenario attached (DECISION_MEDIA_TYPE) */
  decisions?: SchedulingDecision[];
}

export interface BehaviourRunResult {
  status: BehaviourStatus;
  /** for not-applicable: why */
  reason?: string;
  durationMs: number;
  scenarios: ScenarioEntry[];
}

export interface BehaviourRow extends Omit<Behaviour, 'notApplicableReason'> {
  /** index-aligned with ConformanceReport.runs */
  results: BehaviourRunResult[];
  /** the mutation check's verdict for the behaviour, when a mutation report was given */
  mutants?: BehaviourMutants;
}

/** Whether the scenarios of a behaviour killed every mutant that names it (npm run mutants). */
export interface BehaviourMutants {
  /** mutants judged / killed, over all profiles */
  total: number;
  killed: number;
  allKilled: boolean;
  /** ids of the mutants that survived or could not be judged */
  survivors: string[];
}

export interface RunTotals {
  behaviours: number;
  /** behaviours that pass */
  covered: number;
  byStatus: Record<BehaviourStatus, number>;
  scenarios: { total: number; byStatus: Record<ScenarioStatus, number> };
  /** sum of scenario durations */
  durationMs: number;
}

export interface RunSummary {
  label: string;
  target: string;
  profile: string;
  meta?: RunMetadata;
  totals: RunTotals;
  /** scenarios (uri:line) that cite no behaviour ID */
  untagged: string[];
  /** the run was stopped by a signal (what ran is reported; what had not finished is not counted) */
  interrupted?: string;
}

export interface UnknownTag {
  /** the ID as tagged, without the @ */
  id: string;
  /** scenarios (uri:line) carrying it */
  locations: string[];
}

export interface ConformanceReport {
  /** ISO 8601 */
  generatedAt: string;
  behaviours: number;
  /** catalogue areas, in catalogue order */
  areas: string[];
  runs: RunSummary[];
  rows: BehaviourRow[];
  /** behaviour-like tags (@FOO-BAR) that are not in the catalogue: typos or missing entries */
  unknownTags: UnknownTag[];
  /** the mutation check the rows' `mutants` come from */
  mutation?: { generatedAt: string; selection: string; mutants: number; killed: number };
}

// Reads a Cucumber message stream (NDJSON, the `message` formatter's output) into one result per
// scenario (pickle). Only the few message fields the reports need are read, defensively: the
// stream is external input and may be cut short by a crashed run.
//
// Rules kubespec adds on top of Cucumber's statuses:
// - a scenario is *not applicable* when it ended skipped and one of its steps attached a reason
//   with media type `text/x.kubespec.not-applicable`; any other skip is not a pass;
// - with retries, the last attempt counts.
// Kept in one file: one reader of one stream, whose rules read the same message index.
import * as fs from 'node:fs';
import { behaviourIdFromTag } from './catalogue';

/** Media type of the attachment that marks a skipped scenario as not applicable; the body is the reason. */
export const NOT_APPLICABLE_MEDIA_TYPE = 'text/x.kubespec.not-applicable';

export type ScenarioStatus = 'passed' | 'failed' | 'not-applicable' | 'undefined' | 'pending' | 'skipped' | 'ambiguous';
export type StepStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'undefined' | 'ambiguous' | 'unknown';

export interface StepResult {
  /** Gherkin keyword ("Given", "And", …); absent for hooks */
  keyword?: string;
  /** the step's text, or "Before hook" / "After hook: <name>" for hooks */
  text: string;
  hook?: boolean;
  status: StepStatus;
  durationMs: number;
  error?: string;
}

export interface ScenarioAttachment {
  mediaType: string;
  /** text for textual media types (decoded if it was sent as base64), else base64 */
  body: string;
  encoding: 'identity' | 'base64';
  fileName?: string;
  /** text of the step (or hook) that attached it */
  step?: string;
}

export interface ScenarioResult {
  /** the pickle id */
  id: string;
  name: string;
  uri: string;
  line: number;
  tags: string[];
  /** behaviour IDs from tags such as @NODE-CIDR, without the @ */
  behaviourIds: string[];
  status: ScenarioStatus;
  durationMs: number;
  /** how many attempts ran (more than 1 with retries); the last one is reported */
  attempts: number;
  steps: StepResult[];
  error?: string;
  notApplicableReason?: string;
  attachments: ScenarioAttachment[];
  /** when its last attempt finished (ms since the epoch); absent when it did not */
  finishedAtMs?: number;
}

export interface Product {
  name: string;
  version?: string;
}

/** The stream's `meta` message (who produced it, where). */
export interface RunMetaInfo {
  protocolVersion?: string;
  implementation?: Product;
  runtime?: Product;
  os?: Product;
  cpu?: Product;
  ci?: {
    name: string;
    url?: string;
    buildNumber?: string;
    git?: { remote: string; revision: string; branch?: string; tag?: string };
  };
}

export interface RunMetadata {
  /** ISO 8601 */
  startedAt?: string;
  finishedAt?: string;
  durationMs?: number;
  /** Cucumber's own verdict on the run (testRunFinished.success) */
  success?: boolean;
  cucumberVersion?: string;
  meta?: RunMetaInfo;
  /** things that went wrong outside scenarios: parse errors, failed BeforeAll/AfterAll hooks, a truncated stream */
  problems: string[];
}

export interface ParsedMessages {
  scenarios: ScenarioResult[];
  run: RunMetadata;
  /** Every scenario the run's feature files defined (run or filtered out), as uri → names. */
  defined: Map<string, Set<string>>;
}

/** Reads an NDJSON message file. */
export function readMessages(file: string): ParsedMessages {
  return parseMessages(fs.readFileSync(file, 'utf8'), file);
}

// ── the subset of @cucumber/messages that is read ───────────────────────────────────────────

interface Timestamp {
  seconds: number;
  nanos: number;
}
interface Location {
  line: number;
}
interface TestStepResult {
  status: string;
  duration?: Timestamp;
  message?: string;
  exception?: { type?: string; message?: string };
}
interface PickleMsg {
  id: string;
  uri: string;
  name: string;
  location?: Location;
  astNodeIds?: string[];
  tags?: Array<{ name: string }>;
  steps?: Array<{ id: string; text: string; astNodeIds?: string[] }>;
}
interface TestCaseMsg {
  id: string;
  pickleId: string;
  testSteps?: Array<{ id: string; pickleStepId?: string; hookId?: string }>;
}
interface HookMsg {
  id: string;
  name?: string;
  type?: string;
}
interface AttemptMsg {
  id: string;
  testCaseId: string;
  attempt?: number;
  timestamp?: Timestamp;
}
interface AttachmentMsg {
  body?: string;
  contentEncoding?: string;
  mediaType?: string;
  fileName?: string;
  testCaseStartedId?: string;
  testStepId?: string;
}
interface GherkinNode {
  id?: string;
  location?: Location;
  keyword?: string;
  steps?: GherkinNode[];
  examples?: GherkinNode[];
  tableBody?: GherkinNode[];
  children?: GherkinChild[];
  scenario?: GherkinNode;
  background?: GherkinNode;
  rule?: GherkinNode;
}
type GherkinChild = { scenario?: GherkinNode; background?: GherkinNode; rule?: GherkinNode };

interface Attempt {
  started: AttemptMsg;
  order: number;
  steps: Map<string, TestStepResult>;
  attachments: AttachmentMsg[];
  finished: boolean;
  finishedAtMs?: number;
}

const WORST_ORDER: StepStatus[] = ['unknown', 'passed', 'skipped', 'pending', 'undefined', 'ambiguous', 'failed'];

/** Parses an NDJSON message stream; `source` names it in errors. */
export function parseMessages(ndjson: string, source = 'messages'): ParsedMessages {
  const pickles: PickleMsg[] = [];
  const testCases = new Map<string, TestCaseMsg>(); // by pickle id
  const hooks = new Map<string, HookMsg>();
  const attempts = new Map<string, Attempt>(); // by testCaseStarted id
  const keywords = new Map<string, string>(); // gherkin step id → keyword
  const locations = new Map<string, number>(); // gherkin scenario / example row id → line
  const run: RunMetadata = { problems: [] };
  let startedMs: number | undefined;
  let finishedMs: number | undefined;

  const lines = ndjson.split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let envelope: unknown;
    try {
      envelope = JSON.parse(line);
    } catch {
      const last = lines.slice(i + 1).every((l) => l.trim() === '');
      const msg = `${source}:${i + 1}: not a JSON message${last ? ' (the stream is truncated: did the run crash?)' : ''}`;
      if (!last) throw new Error(msg);
      run.problems.push(msg);
      return;
    }
    if (!isRecord(envelope)) throw new Error(`${source}:${i + 1}: expected a message object`);
    const e = envelope;
    if (isRecord(e.meta)) {
      run.meta = e.meta as RunMetaInfo;
      run.cucumberVersion = run.meta.implementation?.version;
    } else if (isRecord(e.gherkinDocument)) {
      indexGherkin(e.gherkinDocument as { feature?: GherkinNode }, keywords, locations);
    } else if (isRecord(e.pickle)) {
      pickles.push(e.pickle as unknown as PickleMsg);
    } else if (isRecord(e.hook)) {
      const h = e.hook as unknown as HookMsg;
      hooks.set(h.id, h);
    } else if (isRecord(e.testCase)) {
      const tc = e.testCase as unknown as TestCaseMsg;
      testCases.set(tc.pickleId, tc);
    } else if (isRecord(e.testCaseStarted)) {
      const s = e.testCaseStarted as unknown as AttemptMsg;
      attempts.set(s.id, { started: s, order: attempts.size, steps: new Map(), attachments: [], finished: false });
    } else if (isRecord(e.testStepFinished)) {
      const f = e.testStepFinished as { testCaseStartedId: string; testStepId: string; testStepResult: TestStepResult };
      attempts.get(f.testCaseStartedId)?.steps.set(f.testStepId, f.testStepResult);
    } else if (isRecord(e.attachment)) {
      const a = e.attachment as AttachmentMsg;
      if (a.testCaseStartedId) attempts.get(a.testCaseStartedId)?.attachments.push(a);
    } else if (isRecord(e.testCaseFinished)) {
      const f = e.testCaseFinished as { testCaseStartedId: string; timestamp?: Timestamp };
      const attempt = attempts.get(f.testCaseStartedId);
      if (attempt) {
        attempt.finished = true;
        attempt.finishedAtMs = toMs(f.timestamp);
      }
    } else if (isRecord(e.testRunStarted)) {
      const ts = toMs(e.testRunStarted.timestamp);
      if (ts !== undefined && (startedMs === undefined || ts < startedMs)) startedMs = ts;
    } else if (isRecord(e.testRunFinished)) {
      const f = e.testRunFinished as {
        timestamp?: Timestamp;
        success?: boolean;
        message?: string;
        exception?: { message?: string };
      };
      const ts = toMs(f.timestamp);
      if (ts !== undefined && (finishedMs === undefined || ts > finishedMs)) finishedMs = ts;
      run.success = run.success === false ? false : f.success;
      const why = f.exception?.message ?? f.message;
      if (why) run.problems.push(`the run ended with an error: ${why}`);
    } else if (isRecord(e.testRunHookFinished)) {
      const r = e.testRunHookFinished.result as TestStepResult | undefined;
      if (r && r.status !== 'PASSED') {
        run.problems.push(`a BeforeAll/AfterAll hook ended ${r.status.toLowerCase()}: ${errorOf(r) ?? 'no message'}`);
      }
    } else if (isRecord(e.parseError)) {
      const p = e.parseError as { message?: string; source?: { uri?: string; location?: Location } };
      const at = p.source?.uri ? `${p.source.uri}${p.source.location ? `:${p.source.location.line}` : ''}: ` : '';
      run.problems.push(`parse error: ${at}${p.message ?? 'unknown'}`);
    }
  });

  if (startedMs !== undefined) run.startedAt = new Date(startedMs).toISOString();
  if (finishedMs !== undefined) run.finishedAt = new Date(finishedMs).toISOString();
  if (startedMs !== undefined && finishedMs !== undefined) run.durationMs = finishedMs - startedMs;
  if (startedMs !== undefined && finishedMs === undefined)
    run.problems.push('the run did not finish (no testRunFinished message)');

  // the last attempt of each test case
  const lastAttempt = new Map<string, { attempt: Attempt; count: number }>();
  for (const a of attempts.values()) {
    const prev = lastAttempt.get(a.started.testCaseId);
    const count = (prev?.count ?? 0) + 1;
    const newer =
      !prev ||
      (a.started.attempt ?? 0) > (prev.attempt.started.attempt ?? 0) ||
      ((a.started.attempt ?? 0) === (prev.attempt.started.attempt ?? 0) && a.order > prev.attempt.order);
    lastAttempt.set(a.started.testCaseId, { attempt: newer ? a : prev.attempt, count });
  }

  const scenarios: ScenarioResult[] = [];
  const defined = new Map<string, Set<string>>();
  for (const pickle of pickles) {
    if (!defined.has(pickle.uri)) defined.set(pickle.uri, new Set());
    defined.get(pickle.uri)!.add(pickle.name);
    const testCase = testCases.get(pickle.id);
    if (!testCase) continue; // filtered out of this run
    const last = lastAttempt.get(testCase.id);
    scenarios.push(buildScenario(pickle, testCase, last?.attempt, last?.count ?? 0, hooks, keywords, locations));
  }
  return { scenarios, run, defined };
}

function buildScenario(
  pickle: PickleMsg,
  testCase: TestCaseMsg,
  attempt: Attempt | undefined,
  attempts: number,
  hooks: Map<string, HookMsg>,
  keywords: Map<string, string>,
  locations: Map<string, number>,
): ScenarioResult {
  const tags = unique((pickle.tags ?? []).map((t) => t.name));
  const behaviourIds = unique(tags.map(behaviourIdFromTag).filter((id): id is string => id !== undefined));
  const pickleSteps = new Map((pickle.steps ?? []).map((s) => [s.id, s]));
  const astIds = pickle.astNodeIds ?? [];
  const line = pickle.location?.line ?? locations.get(astIds[astIds.length - 1] ?? '') ?? 0;

  const stepText = new Map<string, string>();
  const steps: StepResult[] = (testCase.testSteps ?? []).map((ts) => {
    const result = attempt?.steps.get(ts.id);
    const status = result ? stepStatus(result.status) : attempt ? 'unknown' : 'skipped';
    const step: StepResult =
      ts.hookId !== undefined
        ? { text: hookText(hooks.get(ts.hookId)), hook: true, status, durationMs: 0 }
        : stepFromPickle(pickleSteps.get(ts.pickleStepId ?? ''), keywords, status);
    step.durationMs = result ? durationMs(result.duration) : 0;
    const error = result ? errorOf(result) : undefined;
    if (error !== undefined && status !== 'passed') step.error = error;
    stepText.set(ts.id, step.keyword ? `${step.keyword} ${step.text}` : step.text);
    return step;
  });

  const attachments: ScenarioAttachment[] = (attempt?.attachments ?? []).map((a) => toAttachment(a, stepText));
  const scenario: ScenarioResult = {
    id: pickle.id,
    name: pickle.name,
    uri: pickle.uri,
    line,
    tags,
    behaviourIds,
    status: 'passed',
    durationMs: round(steps.reduce((sum, s) => sum + s.durationMs, 0)),
    attempts,
    steps,
    attachments,
    ...(attempt?.finishedAtMs !== undefined ? { finishedAtMs: attempt.finishedAtMs } : {}),
  };

  if (!attempt) {
    scenario.status = 'skipped';
    scenario.error = 'the scenario did not run (the run stopped before it started)';
    return scenario;
  }
  if (!attempt.finished) {
    scenario.status = 'failed';
    scenario.error = 'the scenario did not finish (the run stopped while it was running)';
    return scenario;
  }
  const worst = steps.reduce<StepStatus>(
    (w, s) => (WORST_ORDER.indexOf(s.status) > WORST_ORDER.indexOf(w) ? s.status : w),
    'unknown',
  );
  const culprit = steps.find((s) => s.status === worst);
  const label = culprit ? `"${culprit.keyword ? `${culprit.keyword} ${culprit.text}` : culprit.text}"` : '';
  switch (worst) {
    case 'passed':
      break;
    case 'unknown':
      scenario.status = 'undefined';
      scenario.error = steps.length === 0 ? 'the scenario has no steps' : 'no step reported a result';
      break;
    case 'skipped': {
      const reasons = unique(
        attachments
          .filter((a) => a.mediaType === NOT_APPLICABLE_MEDIA_TYPE)
          .map((a) => a.body.trim())
          .filter((r) => r !== ''),
      );
      if (reasons.length > 0) {
        scenario.status = 'not-applicable';
        scenario.notApplicableReason = reasons.join('; ');
      } else {
        scenario.status = 'skipped';
        scenario.error = `skipped at ${label} without a not-applicable reason (attach one with media type ${NOT_APPLICABLE_MEDIA_TYPE})`;
      }
      break;
    }
    case 'undefined':
      scenario.status = 'undefined';
      scenario.error = `undefined step: ${label}`;
      break;
    case 'pending':
      scenario.status = 'pending';
      scenario.error = culprit?.error ?? `pending step: ${label}`;
      break;
    case 'ambiguous':
      scenario.status = 'ambiguous';
      scenario.error = culprit?.error ?? `ambiguous step: ${label}`;
      break;
    case 'failed':
      scenario.status = 'failed';
      scenario.error = culprit?.error ?? `failed at ${label}`;
      break;
  }
  return scenario;
}

function stepFromPickle(
  step: { id: string; text: string; astNodeIds?: string[] } | undefined,
  keywords: Map<string, string>,
  status: StepStatus,
): StepResult {
  if (!step) return { text: '(unknown step)', status, durationMs: 0 };
  const keyword = keywords.get(step.astNodeIds?.[0] ?? '');
  return keyword ? { keyword, text: step.text, status, durationMs: 0 } : { text: step.text, status, durationMs: 0 };
}

function hookText(hook: HookMsg | undefined): string {
  const kind =
    hook?.type === 'AFTER_TEST_CASE' ? 'After hook' : hook?.type === 'BEFORE_TEST_CASE' ? 'Before hook' : 'Hook';
  return hook?.name ? `${kind}: ${hook.name}` : kind;
}

const TEXTUAL = /^(text\/|application\/(json|xml|x-ndjson)|image\/svg\+xml|[^;]*\+(xml|json))/i;

function toAttachment(a: AttachmentMsg, stepText: Map<string, string>): ScenarioAttachment {
  const mediaType = a.mediaType ?? 'application/octet-stream';
  let body = a.body ?? '';
  let encoding: 'identity' | 'base64' = a.contentEncoding === 'BASE64' ? 'base64' : 'identity';
  if (encoding === 'base64' && TEXTUAL.test(mediaType)) {
    body = Buffer.from(body, 'base64').toString('utf8');
    encoding = 'identity';
  }
  const out: ScenarioAttachment = { mediaType, body, encoding };
  if (a.fileName) out.fileName = a.fileName;
  const step = a.testStepId ? stepText.get(a.testStepId) : undefined;
  if (step) out.step = step;
  return out;
}

function indexGherkin(
  doc: { feature?: GherkinNode },
  keywords: Map<string, string>,
  locations: Map<string, number>,
): void {
  const visitScenario = (node: GherkinNode): void => {
    if (node.id && node.location) locations.set(node.id, node.location.line);
    for (const s of node.steps ?? []) if (s.id && s.keyword) keywords.set(s.id, s.keyword.trim());
    for (const ex of node.examples ?? []) {
      for (const row of ex.tableBody ?? []) if (row.id && row.location) locations.set(row.id, row.location.line);
    }
  };
  const visitChildren = (children: GherkinChild[] | undefined): void => {
    for (const c of children ?? []) {
      if (c.scenario) visitScenario(c.scenario);
      if (c.background) visitScenario(c.background);
      if (c.rule) visitChildren(c.rule.children);
    }
  };
  visitChildren(doc.feature?.children);
}

function stepStatus(s: string): StepStatus {
  const lower = s.toLowerCase();
  return (WORST_ORDER as string[]).includes(lower) ? (lower as StepStatus) : 'unknown';
}

function errorOf(r: TestStepResult): string | undefined {
  return r.message ?? r.exception?.message;
}

function durationMs(d: Timestamp | undefined): number {
  return d ? round(d.seconds * 1000 + d.nanos / 1e6) : 0;
}

function toMs(t: unknown): number | undefined {
  if (!isRecord(t) || typeof t.seconds !== 'number') return undefined;
  return t.seconds * 1000 + Math.round((typeof t.nanos === 'number' ? t.nanos : 0) / 1e6);
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

import { Formatter, IFormatterOptions, formatterHelpers } from '@cucumber/cucumber';
import * as messages from '@cucumber/messages';

const BEHAVIOUR_TAG = /^@([A-Z][A-Z0-9-]+)$/;
const NOT_APPLICABLE = 'text/x.kubespec.not-applicable';

/** How long a scenario runs before a heartbeat line says it still does (and then as often again). */
export const HEARTBEAT_MS = Number(process.env.KUBESPEC_HEARTBEAT_MS ?? 30_000);

/**
 * Progress for long runs: one line per scenario as it finishes — its number out of the
 * total, the behaviour IDs it checks, its verdict, file:line (the rows of an Outline differ)
 * and how long it took — and each failure in full at once, so a CI log shows what broke
 * without waiting for the end; while a scenario runs longer than HEARTBEAT_MS (a real clock
 * waits in earnest) a line every HEARTBEAT_MS says which, and for how long so far. Every line
 * also says how long the run has taken so far (and a heartbeat how many scenarios run at once),
 * so a long parallel run shows where it is and what it still waits for.
 */
export default class ProgressFormatter extends Formatter {
  static override readonly documentation = 'kubespec progress: scenario n/N, behaviour IDs, failures as they happen';
  private total = 0;
  private done = 0;
  private readonly counts = { passed: 0, failed: 0, 'not applicable': 0 };
  private readonly notApplicable = new Set<string>();
  private readonly running = new Map<string, { since: number; timer: NodeJS.Timeout }>();
  private readonly started = Date.now();

  constructor(options: IFormatterOptions) {
    super(options);
    options.eventBroadcaster.on('envelope', (envelope: messages.Envelope) => this.onEnvelope(envelope));
  }

  private onEnvelope(envelope: messages.Envelope): void {
    if (envelope.testCase) this.total++;
    if (envelope.attachment?.mediaType === NOT_APPLICABLE && envelope.attachment.testCaseStartedId) {
      this.notApplicable.add(envelope.attachment.testCaseStartedId);
    }
    if (envelope.testCaseStarted) this.onStarted(envelope.testCaseStarted.id);
    if (envelope.testCaseFinished) {
      const run = this.running.get(envelope.testCaseFinished.testCaseStartedId);
      if (run) clearInterval(run.timer);
      this.running.delete(envelope.testCaseFinished.testCaseStartedId);
      if (!envelope.testCaseFinished.willBeRetried) this.onFinished(envelope.testCaseFinished.testCaseStartedId);
    }
    if (envelope.testRunFinished) {
      for (const { timer } of this.running.values()) clearInterval(timer);
      this.running.clear();
      this.log(
        `\n${this.done} scenarios: ${this.counts.passed} passed, ${this.counts.failed} failed, ${this.counts['not applicable']} not applicable (${elapsed(Date.now() - this.started)})\n`,
      );
    }
  }

  private onStarted(testCaseStartedId: string): void {
    const since = Date.now();
    const timer = setInterval(() => {
      const attempt = this.eventDataCollector.getTestCaseAttempt(testCaseStartedId);
      this.log(
        `      … still running (${elapsed(Date.now() - since)}): ${attempt.pickle.name} — ${locationOf(attempt)} [run at ${elapsed(Date.now() - this.started)}, ${this.running.size} running]\n`,
      );
    }, HEARTBEAT_MS);
    timer.unref();
    this.running.set(testCaseStartedId, { since, timer });
  }

  private onFinished(testCaseStartedId: string): void {
    const attempt = this.eventDataCollector.getTestCaseAttempt(testCaseStartedId);
    const { pickle, worstTestStepResult } = attempt;
    this.done++;
    const ids = pickle.tags
      .map((t) => BEHAVIOUR_TAG.exec(t.name)?.[1])
      .filter(Boolean)
      .join(' ');
    const status = worstTestStepResult.status;
    const n = `[${String(this.done).padStart(String(this.total).length)}/${this.total}]`;
    const where = `${locationOf(attempt)} (${elapsed(durationOf(attempt))}; run at ${elapsed(Date.now() - this.started)})`;
    let mark: string;
    if (status === 'PASSED') {
      mark = this.colorFns.forStatus(messages.TestStepResultStatus.PASSED)('✔');
      this.counts.passed++;
    } else if (status === 'SKIPPED' && this.notApplicable.has(testCaseStartedId)) {
      mark = this.colorFns.forStatus(messages.TestStepResultStatus.SKIPPED)('○ n/a');
      this.counts['not applicable']++;
    } else {
      mark = this.colorFns.forStatus(messages.TestStepResultStatus.FAILED)('✖');
      this.counts.failed++;
    }
    this.log(`${n} ${mark} ${ids ? `${ids}  ` : ''}${pickle.name} — ${where}\n`);
    if (mark.includes('✖')) {
      const text = formatterHelpers.formatIssue({
        colorFns: this.colorFns,
        number: this.counts.failed,
        snippetBuilder: this.snippetBuilder,
        supportCodeLibrary: this.supportCodeLibrary,
        testCaseAttempt: attempt,
        printAttachments: true,
      });
      this.log(`${text.replace(/^/gm, '      ')}\n`);
    }
  }
}

type Attempt = ReturnType<ProgressFormatter['eventDataCollector']['getTestCaseAttempt']>;

function locationOf(attempt: Attempt): string {
  const { pickle, gherkinDocument } = attempt;
  const line =
    pickle.location?.line ?? formatterHelpers.PickleParser.getPickleLocation({ gherkinDocument, pickle }).line;
  return `${pickle.uri}:${line}`;
}

function durationOf(attempt: Attempt): number {
  let ms = 0;
  for (const r of Object.values(attempt.stepResults)) ms += r.duration.seconds * 1000 + r.duration.nanos / 1e6;
  return ms;
}

/** 0.4 s, 12 s, 2m05s */
function elapsed(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

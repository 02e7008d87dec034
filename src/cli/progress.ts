import { Formatter, IFormatterOptions, formatterHelpers } from '@cucumber/cucumber';
import * as messages from '@cucumber/messages';

const BEHAVIOUR_TAG = /^@([A-Z][A-Z0-9-]+)$/;
const NOT_APPLICABLE = 'text/x.kubespec.not-applicable';

/**
 * Progress for long runs: one line per scenario as it finishes — its number out of the
 * total, the behaviour IDs it checks, its verdict — and each failure in full at once, so a
 * CI log shows what broke without waiting for the end.
 */
export default class ProgressFormatter extends Formatter {
  static override readonly documentation = 'kubespec progress: scenario n/N, behaviour IDs, failures as they happen';
  private total = 0;
  private done = 0;
  private readonly counts = { passed: 0, failed: 0, 'not applicable': 0 };
  private readonly notApplicable = new Set<string>();

  constructor(options: IFormatterOptions) {
    super(options);
    options.eventBroadcaster.on('envelope', (envelope: messages.Envelope) => this.onEnvelope(envelope));
  }

  private onEnvelope(envelope: messages.Envelope): void {
    if (envelope.testCase) this.total++;
    if (envelope.attachment?.mediaType === NOT_APPLICABLE && envelope.attachment.testCaseStartedId) {
      this.notApplicable.add(envelope.attachment.testCaseStartedId);
    }
    if (envelope.testCaseFinished && !envelope.testCaseFinished.willBeRetried)
      this.onFinished(envelope.testCaseFinished.testCaseStartedId);
    if (envelope.testRunFinished) {
      this.log(
        `\n${this.done} scenarios: ${this.counts.passed} passed, ${this.counts.failed} failed, ${this.counts['not applicable']} not applicable\n`,
      );
    }
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
    const where = `${pickle.uri}`;
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

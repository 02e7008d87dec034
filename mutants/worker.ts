// One mutant's judge, run as a child process inside a scratch copy of the project (its cwd):
// loads the step definitions (and through them src/, with the mutant already written into the
// copy) once, then runs the scenarios tagged with the mutant's behaviours on each profile in
// turn, stopping at the first failure. Prints one JSON line: per profile, killed or survived and
// the scenarios that failed. The runner (mutants/run.ts) never lets it touch the working tree.
import * as path from 'node:path';
import { loadConfiguration, loadSupport, runCucumber } from '@cucumber/cucumber/api';
import type { Envelope } from '@cucumber/messages';
import { Writable } from 'node:stream';

export interface WorkerRequest {
  /** Cucumber tag expression */
  tags: string;
  profiles: string[];
  /** stop each profile's run at its first failing scenario (a killed mutant needs one) */
  failFast: boolean;
}

export interface ProfileOutcome {
  profile: string;
  /** scenarios that ran (not counting not-applicable ones) */
  ran: number;
  notApplicable: number;
  /** names (uri:line name) of scenarios that failed */
  failed: string[];
  /** first failure message, shortened */
  error?: string;
  ms: number;
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2]) as WorkerRequest;
  const root = process.cwd();
  // Cucumber's own formatter output is not wanted: the outcome is the one JSON line.
  const discard = new Writable({ write(_chunk, _encoding, done) { done(); } });
  const environment = { cwd: root, stdout: discard, stderr: process.stderr };
  const { runConfiguration } = await loadConfiguration({
    provided: {
      paths: [path.join(root, 'features/**/*.feature')],
      require: [path.join(root, 'steps/**/*.ts')],
      requireModule: [],
      format: [],
      tags: request.tags,
      failFast: request.failFast,
      strict: true,
    },
  }, environment);
  const support = await loadSupport(runConfiguration, environment);
  const outcomes: ProfileOutcome[] = [];
  for (const profile of request.profiles) {
    const started = Date.now();
    const names = new Map<string, string>(); // pickleId → "uri:line name"
    const pickleOf = new Map<string, string>(); // testCaseId → pickleId
    const caseOf = new Map<string, string>(); // testCaseStartedId → testCaseId
    const notApplicable = new Set<string>();
    const outcome: ProfileOutcome = { profile, ran: 0, notApplicable: 0, failed: [], ms: 0 };
    const onMessage = (m: Envelope): void => {
      if (m.pickle) names.set(m.pickle.id, `${m.pickle.uri}: ${m.pickle.name}`);
      else if (m.testCase) pickleOf.set(m.testCase.id, m.testCase.pickleId);
      else if (m.testCaseStarted) caseOf.set(m.testCaseStarted.id, m.testCaseStarted.testCaseId);
      else if (m.attachment?.mediaType === 'text/x.kubespec.not-applicable' && m.attachment.testCaseStartedId) notApplicable.add(m.attachment.testCaseStartedId);
      else if (m.testStepFinished && m.testStepFinished.testStepResult.status === 'FAILED' && !outcome.error) {
        outcome.error = (m.testStepFinished.testStepResult.message ?? '').split('\n').slice(0, 3).join(' ').slice(0, 400);
      } else if (m.testCaseFinished && !m.testCaseFinished.willBeRetried) {
        const started = m.testCaseFinished.testCaseStartedId;
        if (notApplicable.has(started)) { outcome.notApplicable++; return; }
        outcome.ran++;
        finishedCases.add(started);
      }
    };
    // A test case failed when any of its steps failed; collected per testCaseStarted.
    const failedSteps = new Set<string>();
    const finishedCases = new Set<string>();
    const wrapped = (m: Envelope): void => {
      if (m.testStepFinished && m.testStepFinished.testStepResult.status !== 'PASSED' && m.testStepFinished.testStepResult.status !== 'SKIPPED') {
        failedSteps.add(m.testStepFinished.testCaseStartedId);
      }
      onMessage(m);
    };
    const { success } = await runCucumber({
      ...runConfiguration,
      support,
      runtime: { ...runConfiguration.runtime, worldParameters: { target: 'reference', profile } },
    }, environment, wrapped);
    for (const started of finishedCases) {
      if (!failedSteps.has(started)) continue;
      const testCase = caseOf.get(started);
      outcome.failed.push(names.get(pickleOf.get(testCase ?? '') ?? '') ?? started);
    }
    if (!success && outcome.failed.length === 0) outcome.failed.push('(the run failed without a failing scenario)');
    outcome.ms = Date.now() - started;
    outcomes.push(outcome);
  }
  process.stdout.write(`${JSON.stringify({ outcomes })}\n`);
}

main().then(() => process.exit(0), (err) => {
  process.stdout.write(`${JSON.stringify({ error: String(err && err.stack ? err.stack : err).slice(0, 2000) })}\n`);
  process.exit(3);
});

// One mutant's judge, run as a child process inside a scratch copy of the project (its cwd):
// loads the step definitions (and through them src/, with the mutant already written into the
// copy) once, then runs the scenarios tagged with the mutant's behaviours on each profile in
// turn, stopping at the first failure. Prints one JSON line: per profile, killed or survived and
// the scenarios that failed. The runner (mutants/run.ts) never lets it touch the working tree.
import * as path from 'node:path';
import { loadConfiguration, loadSupport, runCucumber } from '@cucumber/cucumber/api';
import type { IRunConfiguration, ISupportCodeLibrary } from '@cucumber/cucumber/api';
import type { Envelope } from '@cucumber/messages';
import { Writable } from 'node:stream';

/** A scenario named as the judge reports it: the feature file and the scenario's name. */
export interface ScenarioRef {
  uri: string;
  name: string;
}

export interface WorkerRequest {
  /** Cucumber tag expression */
  tags: string;
  profiles: string[];
  /** stop each profile's run at its first failing scenario (a killed mutant needs one) */
  failFast: boolean;
  /** per profile, scenarios to try alone first (those that killed the mutant last time) */
  hints?: Record<string, ScenarioRef[]>;
}

export interface ProfileOutcome {
  profile: string;
  /** scenarios that ran (not counting not-applicable ones) */
  ran: number;
  notApplicable: number;
  /** names ("uri: name") of scenarios that failed */
  failed: string[];
  /** first failure message, shortened */
  error?: string;
  /** the verdict came from the hinted scenarios alone */
  byHint?: boolean;
  ms: number;
}

/** "uri: name", the form `failed` holds; the inverse is parseScenario. */
export function scenarioName(uri: string, name: string): string {
  return `${uri}: ${name}`;
}

export function parseScenario(failed: string): ScenarioRef | undefined {
  const at = failed.indexOf('.feature: ');
  if (at < 0) return undefined;
  return { uri: failed.slice(0, at + '.feature'.length), name: failed.slice(at + '.feature: '.length) };
}

/** A regular expression matching exactly this name (cucumber's `names` filter is a regex search). */
function exactly(name: string): string {
  return `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
}

// Cucumber's own formatter output is not wanted: the outcome is the one JSON line.
const discard = new Writable({
  write(_chunk, _encoding, done) {
    done();
  },
});

async function runProfile(
  profile: string,
  runConfiguration: IRunConfiguration,
  support: ISupportCodeLibrary,
  root: string,
): Promise<ProfileOutcome> {
  const environment = { cwd: root, stdout: discard, stderr: process.stderr };
  const started = Date.now();
  const names = new Map<string, string>(); // pickleId → "uri: name"
  const pickleOf = new Map<string, string>(); // testCaseId → pickleId
  const caseOf = new Map<string, string>(); // testCaseStartedId → testCaseId
  const notApplicable = new Set<string>();
  // A test case failed when any of its steps did not pass (failed, undefined, ambiguous, pending).
  const failedSteps = new Set<string>();
  const finishedCases = new Set<string>();
  const outcome: ProfileOutcome = { profile, ran: 0, notApplicable: 0, failed: [], ms: 0 };
  const onMessage = (m: Envelope): void => {
    if (
      m.testStepFinished &&
      m.testStepFinished.testStepResult.status !== 'PASSED' &&
      m.testStepFinished.testStepResult.status !== 'SKIPPED'
    ) {
      failedSteps.add(m.testStepFinished.testCaseStartedId);
    }
    if (m.pickle) names.set(m.pickle.id, scenarioName(m.pickle.uri, m.pickle.name));
    else if (m.testCase) pickleOf.set(m.testCase.id, m.testCase.pickleId);
    else if (m.testCaseStarted) caseOf.set(m.testCaseStarted.id, m.testCaseStarted.testCaseId);
    else if (m.attachment?.mediaType === 'text/x.kubespec.not-applicable' && m.attachment.testCaseStartedId)
      notApplicable.add(m.attachment.testCaseStartedId);
    else if (m.testStepFinished && m.testStepFinished.testStepResult.status === 'FAILED' && !outcome.error) {
      outcome.error = (m.testStepFinished.testStepResult.message ?? '').split('\n').slice(0, 3).join(' ').slice(0, 400);
    } else if (m.testCaseFinished && !m.testCaseFinished.willBeRetried) {
      const id = m.testCaseFinished.testCaseStartedId;
      if (notApplicable.has(id)) {
        outcome.notApplicable++;
        return;
      }
      outcome.ran++;
      finishedCases.add(id);
    }
  };
  const { success } = await runCucumber(
    {
      ...runConfiguration,
      support,
      runtime: { ...runConfiguration.runtime, worldParameters: { target: 'reference', profile } },
    },
    environment,
    onMessage,
  );
  for (const id of finishedCases) {
    if (!failedSteps.has(id)) continue;
    const testCase = caseOf.get(id);
    outcome.failed.push(names.get(pickleOf.get(testCase ?? '') ?? '') ?? id);
  }
  if (!success && outcome.failed.length === 0) outcome.failed.push('(the run failed without a failing scenario)');
  outcome.ms = Date.now() - started;
  return outcome;
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2]) as WorkerRequest;
  const root = process.cwd();
  const environment = { cwd: root, stdout: discard, stderr: process.stderr };
  const { runConfiguration } = await loadConfiguration(
    {
      provided: {
        paths: [path.join(root, 'features/**/*.feature')],
        require: [path.join(root, 'steps/**/*.ts')],
        requireModule: [],
        format: [],
        tags: request.tags,
        failFast: request.failFast,
        strict: true,
      },
    },
    environment,
  );
  const support = await loadSupport(runConfiguration, environment);
  // From the process's start: node, cucumber, and src/ through the steps (the fixed cost of a judge).
  const loadMs = Math.round(process.uptime() * 1000);
  const outcomes: ProfileOutcome[] = [];
  for (const profile of request.profiles) {
    const started = Date.now();
    // The scenarios that killed this mutant last time, alone first: when one still turns red the
    // verdict costs those scenarios instead of every tagged scenario run before them. The
    // mutant's tag expression still applies, so a hint can only pick scenarios the baseline saw
    // pass; when none turns red, every tagged scenario runs as without hints.
    const hints = request.hints?.[profile] ?? [];
    if (hints.length > 0) {
      const hinted = await runProfile(
        profile,
        {
          ...runConfiguration,
          sources: {
            ...runConfiguration.sources,
            paths: [...new Set(hints.map((h) => path.join(root, h.uri)))],
            names: hints.map((h) => exactly(h.name)),
          },
        },
        support,
        root,
      );
      if (hinted.failed.length > 0) {
        outcomes.push({ ...hinted, byHint: true, ms: Date.now() - started });
        continue;
      }
    }
    const outcome = await runProfile(profile, runConfiguration, support, root);
    outcomes.push({ ...outcome, ms: Date.now() - started });
  }
  process.stdout.write(`${JSON.stringify({ outcomes, loadMs })}\n`);
}

/** Judges as the request in argv[2] says; mutants/judge.js calls it (the runner imports this module's helpers). */
export function judgeMain(): void {
  main().then(
    () => process.exit(0),
    (err) => {
      process.stdout.write(`${JSON.stringify({ error: String(err?.stack ? err.stack : err).slice(0, 2000) })}\n`);
      process.exit(3);
    },
  );
}

import {
  After,
  Before,
  BeforeStep,
  ITestCaseHookParameter,
  ITestStepHookParameter,
  setDefaultTimeout,
  setWorldConstructor,
} from '@cucumber/cucumber';
import { KubeWorld, NOT_APPLICABLE } from './world';
import { CAPABILITY_NAMES, Capabilities } from '../src/drivers';
import { applicability } from '../src/report/applicability';

// Cucumber's registrations live here, with the hooks: the step helpers (support.ts, world.ts)
// stay plain modules that unit tests import outside a Cucumber run.
setWorldConstructor(KubeWorld);

// Steps on real targets wait for real time (a server starting, "41 seconds pass"); how
// long a scenario may take there is the target's maxScenarioTime (upstream's: 20 min), not
// Cucumber's 5 s. Above the longest a step may wait ("15 minutes pass" timed out at 15 min).
setDefaultTimeout(25 * 60 * 1000);

type Capability = keyof Capabilities;

/**
 * Scenarios tagged @profile-<name> describe one release's semantics; in a run on another
 * profile they are not applicable. @needs-<capability> likewise asks the target for a
 * capability (virtual-time, hollow-kubelets, cloud-provider, configurable-flags). On a real
 * clock a scenario whose stated waits alone exceed the target's maxScenarioTime is not
 * applicable from the start, instead of after waiting. The rule is src/report/applicability.ts
 * (`kubespec run --dry-run` lists its verdicts).
 */
Before(function (this: KubeWorld, { pickle }: ITestCaseHookParameter) {
  const { reason, needed } = applicability(
    pickle.tags.map((t) => t.name),
    pickle.steps.map((s) => s.text),
    {
      target: this.driver.target,
      profile: this.profileName,
      capabilities: this.driver.capabilities as unknown as Record<string, boolean>,
      capabilityNames: CAPABILITY_NAMES,
      maxScenarioTimeMs: (this.driver as { declaration?: { maxScenarioTimeMs?: number } }).declaration
        ?.maxScenarioTimeMs,
    },
  );
  if (reason) {
    this.attach(reason, NOT_APPLICABLE);
    return 'skipped';
  }
  this.driver.need?.(needed as Capability[]);
  return undefined;
});

/** Cluster time the scenario covered, for the benchmark's simulated/wall ratio. */
export const CLOCK_MEDIA_TYPE = 'application/x.kubespec.clock+json';

After(async function (this: KubeWorld, { result }: ITestCaseHookParameter) {
  if (this.isStarted) {
    if (result?.status === 'FAILED') await this.attachDiagnostics();
    this.attach(JSON.stringify({ simulatedMs: this.driver.now() - this.startedAt }), CLOCK_MEDIA_TYPE);
  }
  await this.driver.stop();
  const handled = this.driver.unexpectedErrors?.() ?? [];
  if (handled.length > 0)
    this.attach(
      `${handled.length} error(s) the components handled in the background (HandleError) while this scenario ran:\n${handled.join('\n')}`,
      'text/plain',
    );
});

/** Outcomes (Then steps) are eventually consistent on a real clock (see step() in support.ts). */
BeforeStep(function (this: KubeWorld, { pickleStep }: ITestStepHookParameter) {
  this.stepType = pickleStep.type;
});

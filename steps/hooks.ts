import { After, Before, BeforeStep, ITestCaseHookParameter, ITestStepHookParameter } from '@cucumber/cucumber';
import { KubeWorld, NOT_APPLICABLE } from './world';
import { CAPABILITY_NAMES, Capabilities } from '../src/drivers';
import { durationMs } from './parameters';

type Capability = keyof Capabilities;

const PROFILE_TAG = /^@profile-(.+)$/;
const NEEDS_TAG = /^@needs-(.+)$/;

/**
 * Scenarios tagged @profile-<name> describe one release's semantics; in a run on another
 * profile they are not applicable. @needs-<capability> likewise asks the target for a
 * capability (virtual-time, hollow-kubelets, cloud-provider, configurable-flags).
 */
Before(function (this: KubeWorld, { pickle }: ITestCaseHookParameter) {
  const tags = pickle.tags.map((t) => t.name);
  const profiles = tags.map((t) => PROFILE_TAG.exec(t)?.[1]).filter((p): p is string => !!p);
  if (profiles.length > 0 && !profiles.includes(this.profileName)) {
    this.attach(`describes the ${profiles.join(' / ')} profile; this run uses ${this.profileName}`, NOT_APPLICABLE);
    return 'skipped';
  }
  const caps = this.driver.capabilities as unknown as Record<string, boolean>;
  const needed: Capability[] = [];
  for (const need of tags.map((t) => NEEDS_TAG.exec(t)?.[1]).filter((n): n is string => !!n)) {
    const key = need.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (!(CAPABILITY_NAMES as readonly string[]).includes(key))
      throw new Error(`unknown capability tag @needs-${need} (known: ${CAPABILITY_NAMES.join(', ')})`);
    if (!caps[key]) {
      this.attach(`needs ${need}, which target ${this.driver.target} does not offer`, NOT_APPLICABLE);
      return 'skipped';
    }
    needed.push(key as Capability);
  }
  this.driver.need?.(needed);
  // On a real clock a scenario whose stated waits ("N minutes pass") alone exceed the
  // target's maxScenarioTime is not applicable from the start, instead of after waiting.
  const limit = (this.driver as { declaration?: { maxScenarioTimeMs?: number } }).declaration?.maxScenarioTimeMs;
  if (limit && !this.driver.capabilities.virtualTime) {
    const waits = pickle.steps.reduce((sum, s) => {
      const m = /^(\d+(?:\.\d+)?) (?:more )?(seconds?|minutes?|hours?) pass(?:es)?$/.exec(s.text);
      return sum + (m ? durationMs(m[1], m[2]) : 0);
    }, 0);
    if (waits > limit) {
      this.attach(
        `needs more than the ${limit / 1000} s of real time a scenario may take on ${this.driver.target} (its steps wait ${waits / 1000} s; maxScenarioTime)`,
        NOT_APPLICABLE,
      );
      return 'skipped';
    }
  }
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

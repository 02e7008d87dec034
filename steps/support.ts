import { setDefaultTimeout } from '@cucumber/cucumber';
import { NotApplicableError } from '../src/drivers';

// Steps on real targets wait for real time (a server starting, "41 seconds pass"); how
// long a scenario may take there is the target's maxScenarioTime, not Cucumber's 5 s.
setDefaultTimeout(15 * 60 * 1000);
import { KubeWorld, NOT_APPLICABLE } from './world';

type StepBody<A extends unknown[]> = (this: KubeWorld, ...args: A) => Promise<unknown> | unknown;

/**
 * Wraps a step so that a NotApplicableError reports the scenario not applicable (skipped,
 * with the reason attached) instead of failing it.
 */
export function step<A extends unknown[]>(body: StepBody<A>): (this: KubeWorld, ...args: A) => Promise<unknown> {
  const wrapped = async function (this: KubeWorld, ...args: A) {
    try {
      return await body.apply(this, args);
    } catch (e) {
      if (e instanceof NotApplicableError) {
        this.attach(e.message, NOT_APPLICABLE);
        return 'skipped';
      }
      throw e;
    }
  };
  // Cucumber checks a step's arity against its parameters.
  Object.defineProperty(wrapped, 'length', { value: body.length });
  return wrapped;
}

/** Seconds, minutes or hours in a step's words, as milliseconds. */
export function toMs(amount: number, unit: string): number {
  const u = unit.replace(/s$/, '');
  const factor = u === 'millisecond' ? 1 : u === 'second' ? 1000 : u === 'minute' ? 60_000 : u === 'hour' ? 3_600_000 : NaN;
  if (Number.isNaN(factor)) throw new Error(`unknown time unit "${unit}"`);
  return amount * factor;
}

// Why a scenario is not applicable on a target, as far as its tags and step texts tell
// before it runs: the one rule behind the Before hook (steps/hooks.ts), which marks the
// scenario not applicable with the reason, and `kubespec run --dry-run`, which lists it.
// - @profile-<name>: it describes one release's semantics; on another profile it is n/a;
// - @needs-<capability>: the target must offer the capability (driver.capabilities);
// - on a real clock, steps that wait ("N minutes pass") longer than the target's
//   maxScenarioTime in all.

import { parseDuration } from '../api/duration';

const PROFILE_TAG = /^@profile-(.+)$/;
const NEEDS_TAG = /^@needs-(.+)$/;
const WAIT_STEP = /^(\d+(?:\.\d+)?) (?:more )?(seconds?|minutes?|hours?) pass(?:es)?$/;
/** A check at a mark counted from the kubelets' stop ("22 minutes after the nodes stopped reporting, …"): it waits until then. */
const MARK_STEP = /^(\d+(?:\.\d+)?) (seconds?|minutes?|hours?) after the nodes stopped reporting, /;

export interface TargetFacts {
  target: string;
  profile: string;
  capabilities: Readonly<Record<string, boolean>>;
  /** every capability name a @needs- tag may use */
  capabilityNames: readonly string[];
  /** the target declaration's maxScenarioTime, on a real clock */
  maxScenarioTimeMs?: number;
}

/** The step's words for a unit → the Go duration suffix (the flags' parser reads the amount). */
const GO_UNIT: Record<string, string> = { second: 's', minute: 'm', hour: 'h' };

export interface Applicability {
  /** why it is not applicable; undefined when it may run */
  reason?: string;
  /** the capabilities its @needs- tags ask for (all offered when it may run) */
  needed: string[];
}

/** The verdict for one scenario; an unknown @needs- capability is an error in the feature. */
export function applicability(tags: readonly string[], steps: readonly string[], t: TargetFacts): Applicability {
  const profiles = tags.map((x) => PROFILE_TAG.exec(x)?.[1]).filter((p): p is string => !!p);
  if (profiles.length > 0 && !profiles.includes(t.profile))
    return { reason: `describes the ${profiles.join(' / ')} profile; this run uses ${t.profile}`, needed: [] };
  const needed: string[] = [];
  for (const need of tags.map((x) => NEEDS_TAG.exec(x)?.[1]).filter((n): n is string => !!n)) {
    const key = need.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (!t.capabilityNames.includes(key))
      throw new Error(`unknown capability tag @needs-${need} (known: ${t.capabilityNames.join(', ')})`);
    if (!t.capabilities[key]) return { reason: `needs ${need}, which target ${t.target} does not offer`, needed };
    needed.push(key);
  }
  const limit = t.maxScenarioTimeMs;
  if (limit && !t.capabilities.virtualTime) {
    const ms = (m: RegExpExecArray) => parseDuration(`${m[1]}${GO_UNIT[m[2].replace(/s$/, '')]}`);
    // A mark counts from the stop, which these scenarios make near their start: the scenario
    // waits at least that long, whatever its "N minutes pass" add up to before it.
    const waits = steps.reduce((sum, s) => {
      const wait = WAIT_STEP.exec(s);
      if (wait) return sum + ms(wait);
      const mark = MARK_STEP.exec(s);
      return mark ? Math.max(sum, ms(mark)) : sum;
    }, 0);
    if (waits > limit)
      return {
        reason: `needs more than the ${limit / 1000} s of real time a scenario may take on ${t.target} (its steps wait ${waits / 1000} s; maxScenarioTime)`,
        needed,
      };
  }
  return { needed };
}

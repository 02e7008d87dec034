// The order a parallel run hands its scenarios to the workers: longest first. A run of many
// scenarios at once ends when its last one does, so on a real clock the 20-minute ones (every
// zone down, a partial disruption watched for 10 minutes) must start at the beginning, not be
// handed out last (longest processing time first). Cucumber's own order is the files' and, in
// a file, the scenarios': ordering the feature paths (as upstream/test.sh did) put the file
// holding the longest scenario first, but its short scenarios and the next files' went
// before the 20-minute scenarios of the fifth file, which a full run of 45 min then started
// after half an hour. This is a Cucumber coordinator plugin ("pickles:order"): it reorders the
// scenarios themselves, stably, so scenarios of the same length keep their file order (the
// upstream target's pool reuses a control plane for the next scenario stating the same flags).

import type { IFilterablePickle } from '@cucumber/cucumber/lib/filter';

const SECONDS: Record<string, number> = { second: 1, minute: 60, hour: 3600 };
const AMOUNT = '(\\d+(?:\\.\\d+)?) (second|minute|hour)s?';
/** "5 minutes pass", "10 more seconds pass", "11 seconds pass after the pods … became ready": a wait. */
const PASS = /^(\d+(?:\.\d+)?) (?:more )?(second|minute|hour)s? pass(?:es)?\b/;
/** "over the next 45 seconds the lease … is renewed": watched that long. */
const OVER = new RegExp(`^over the next ${AMOUNT}\\b`);
/**
 * A check at a mark counted from an event near the scenario's start (a kubelet's stop, the
 * last heartbeat): "22 minutes after the nodes stopped reporting", "between 355 and 365.1
 * seconds after its kubelet stopped", "Unknown within 50 seconds of its last heartbeat",
 * "reports Ready "False" for 10 minutes". The scenario lasts at least until the mark.
 */
const MARK = new RegExp(`${AMOUNT} (?:after|of)\\b|\\bfor ${AMOUNT}$`);

const seconds = (amount: string, unit: string): number => Number(amount) * SECONDS[unit];

/**
 * How long a scenario waits on a real clock, from its step texts: its waits in sequence, or
 * its latest mark if that is later. An estimate to order by, not the limit a target applies
 * (report/applicability.ts judges that from the waits alone).
 */
export function statedSeconds(steps: readonly string[]): number {
  let waits = 0;
  let mark = 0;
  for (const text of steps) {
    const pass = PASS.exec(text) ?? OVER.exec(text);
    if (pass) {
      waits += seconds(pass[1], pass[2]);
      continue;
    }
    const m = MARK.exec(text);
    if (m) {
      mark = Math.max(mark, m[1] ? seconds(m[1], m[2]) : seconds(m[3], m[4]));
    }
  }
  return Math.max(waits, mark);
}

/**
 * How long each scenario took in the last run into the same report directory, in seconds, by
 * "uri:line". Stated waits miss scenarios whose time goes into work rather than waiting: on
 * upstream the 1001 pods of endpoints-capacity.feature took 10 min (no stated wait), were
 * handed out at 42 min of a full run and made it end at 53 min instead of 47.
 */
export type MeasuredSeconds = Record<string, number>;

/**
 * The scenarios, longest first; equal ones in the order they came (stable). A scenario's
 * length is its stated waits, or what it took last time when that was longer.
 */
export function longestFirst<
  T extends Pick<IFilterablePickle, 'pickle'> & Partial<Pick<IFilterablePickle, 'location'>>,
>(pickles: readonly T[], measured: MeasuredSeconds = {}): T[] {
  const length = new Map(
    pickles.map((p) => [
      p,
      Math.max(
        statedSeconds(p.pickle.steps.map((s) => s.text)),
        (p.location && measured[`${p.pickle.uri}:${p.location.line}`]) || 0,
      ),
    ]),
  );
  return [...pickles].sort((a, b) => length.get(b)! - length.get(a)!);
}

/** The plugin kubespec run gives Cucumber when it runs scenarios in parallel (cli/run.ts); pluginOptions.measured from the last run. */
const plugin = {
  type: 'plugin' as const,
  coordinator: ({
    transform,
    options,
  }: {
    transform: (event: 'pickles:order', t: (pickles: IFilterablePickle[]) => IFilterablePickle[]) => void;
    options?: { measured?: MeasuredSeconds };
  }) => {
    transform('pickles:order', (pickles) => longestFirst(pickles, options?.measured ?? {}));
  },
};
export default plugin;

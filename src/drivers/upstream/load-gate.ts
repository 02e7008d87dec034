import * as os from 'node:os';

/**
 * A full run on the upstream target starts 28 scenarios at a time on 2 cores: the first are the
 * long ones, mostly idle control planes waiting out tolerations, but when the short ones pile
 * up the machine's load reached 41–44 and the scenarios that judge an instant (a check due
 * 0.5 s after an event, a rollout step due 11 s after the pods became ready) came late — three
 * to seven failures in each of the fourteenth to seventeenth runs. The work is the same however
 * it is spread, so a scenario's control plane waits to start until the load has come down:
 * fewer scenarios run at once when they are busy, as many as the lanes allow when they idle.
 *
 * KUBESPEC_UPSTREAM_MAX_LOAD sets the limit (the 1-minute load average; unset or 0: no wait);
 * upstream/test.sh gives 8 per core. A scenario waits at most KUBESPEC_UPSTREAM_MAX_LOAD_WAIT
 * seconds (default 600), then starts anyway: the gate paces a run, it never fails one.
 */
export interface LoadGate {
  /** The highest 1-minute load average at which a control plane may start. */
  limit: number;
  /** The longest a start waits for the load to come down, in ms. */
  maxWaitMs: number;
  /** How often the load is read again while waiting, in ms. */
  pollMs: number;
}

export function loadGateFromEnv(env: NodeJS.ProcessEnv = process.env): LoadGate | undefined {
  const limit = Number(env.KUBESPEC_UPSTREAM_MAX_LOAD ?? 0);
  if (!Number.isFinite(limit) || limit < 0)
    throw new Error(
      `KUBESPEC_UPSTREAM_MAX_LOAD wants a load average (a number ≥ 0), got "${env.KUBESPEC_UPSTREAM_MAX_LOAD}"`,
    );
  if (limit === 0) return undefined;
  const wait = Number(env.KUBESPEC_UPSTREAM_MAX_LOAD_WAIT ?? 600);
  if (!Number.isFinite(wait) || wait < 0)
    throw new Error(
      `KUBESPEC_UPSTREAM_MAX_LOAD_WAIT wants seconds (≥ 0), got "${env.KUBESPEC_UPSTREAM_MAX_LOAD_WAIT}"`,
    );
  return { limit, maxWaitMs: wait * 1000, pollMs: 2000 };
}

/** What a wait at the gate came to: how long it took, and whether the load came down in time. */
export interface GatePassage {
  waitedMs: number;
  loadCameDown: boolean;
}

/**
 * Waits until the load is at most the gate's limit, or the gate's longest wait has passed.
 * The load and the sleep are given so a test drives them; by default the machine's and a timer.
 */
export async function passLoadGate(
  gate: LoadGate,
  load: () => number = () => os.loadavg()[0],
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  now: () => number = Date.now,
): Promise<GatePassage> {
  const start = now();
  for (;;) {
    if (load() <= gate.limit) return { waitedMs: now() - start, loadCameDown: true };
    if (now() - start >= gate.maxWaitMs) return { waitedMs: now() - start, loadCameDown: false };
    await sleep(gate.pollMs);
  }
}

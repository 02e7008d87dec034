/**
 * client-go's exponential backoff manager (k8s.io/apimachinery/pkg/util/wait,
 * NewExponentialBackoffManager) as the reflector of v1.32 configures it: the first retry
 * after 800 ms, each next one twice as long, at most 30 s; after 2 minutes without a retry
 * the delay starts again at 800 ms. Upstream adds a jitter of up to 100 % of the delay; the
 * reference leaves it out so that a run in virtual time is repeatable (the delays are the
 * lower bounds of upstream's).
 */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  resetAfterMs: number;
  factor: number;
}

/** NewReflectorWithOptions (client-go tools/cache/reflector.go, v1.32): 800 ms, 30 s, 2 min, ×2. */
export const REFLECTOR_BACKOFF: BackoffOptions = { initialMs: 800, maxMs: 30_000, resetAfterMs: 120_000, factor: 2 };

export class ExponentialBackoff {
  private next: number;
  private lastStart = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: BackoffOptions = REFLECTOR_BACKOFF) {
    this.next = options.initialMs;
  }

  /** The delay before the next attempt, at time now (getNextBackoff, then Backoff.Step). */
  delay(now: number): number {
    if (now - this.lastStart > this.options.resetAfterMs) this.next = this.options.initialMs;
    this.lastStart = now;
    const d = this.next;
    this.next = Math.min(this.options.maxMs, this.next * this.options.factor);
    return d;
  }
}

/**
 * The per-zone eviction queue (upstream pkg/controller/nodelifecycle/scheduler
 * rate_limited_queue.go): a unique queue ordered by processing time, drained by Try()
 * under a rate limiter whose rate can be swapped. Time comes from the caller's clock.
 */

/** Upstream's flowcontrol.RateLimiter, as far as the queue uses it. */
export interface RateLimiter {
  tryAccept(): boolean;
  /** Nodes per second. The "never" limiter reports 1, as upstream's fake does. */
  readonly qps: number;
}

/**
 * A token bucket as flowcontrol.NewTokenBucketRateLimiter builds it over
 * golang.org/x/time/rate: it starts full (burst tokens), refills at qps per second up to
 * burst, and changes state only when it grants a token. The rate is a float32 upstream,
 * so 0.01 is a hair below 0.01 and its token comes a hair after 100 s.
 */
export class TokenBucket implements RateLimiter {
  private tokens: number;
  private last: number;
  private readonly limit: number;

  constructor(
    readonly qps: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.last = now();
    this.limit = Math.fround(qps);
  }

  tryAccept(): boolean {
    const t = this.now();
    const elapsedSeconds = Math.max(0, t - this.last) / 1000;
    const tokens = Math.min(this.burst, this.tokens + elapsedSeconds * this.limit) - 1;
    if (tokens < 0) return false;
    this.tokens = tokens;
    this.last = t;
    return true;
  }
}

/** Rate 0: never accepts (flowcontrol.NewFakeNeverRateLimiter; its QPS() is 1). */
export const NEVER: RateLimiter = { tryAccept: () => false, qps: 1 };
/** Always accepts (flowcontrol.NewFakeAlwaysRateLimiter), for tests. */
export const ALWAYS: RateLimiter = { tryAccept: () => true, qps: 1 };

/** Upstream EvictionRateLimiterBurst. */
export const EVICTION_RATE_LIMITER_BURST = 1;

export interface TimedValue {
  value: string;
  uid: string;
  addedAt: number;
  processAt: number;
}

/**
 * Upstream UniqueQueue: values ordered by processAt (FIFO among equal times) plus a set.
 * A value stays in the set after Try() processed it, so Add() ignores it until Remove().
 */
class UniqueQueue {
  private readonly queue: TimedValue[] = [];
  readonly set = new Set<string>();
  private seq = 0;
  private readonly order = new WeakMap<TimedValue, number>();

  add(v: TimedValue): boolean {
    if (this.set.has(v.value)) return false;
    this.set.add(v.value);
    this.insert(v);
    return true;
  }

  /** Re-inserts a value already in the set (after a failed attempt). */
  replace(v: TimedValue): void {
    this.removeFromQueue(v.value);
    this.insert(v);
  }

  removeFromQueue(value: string): void {
    const i = this.queue.findIndex((x) => x.value === value);
    if (i >= 0) this.queue.splice(i, 1);
  }

  remove(value: string): boolean {
    if (!this.set.delete(value)) return false;
    this.removeFromQueue(value);
    return true;
  }

  head(): TimedValue | undefined {
    return this.queue[0];
  }

  get length(): number {
    return this.queue.length;
  }

  values(): string[] {
    return this.queue.map((v) => v.value);
  }

  clear(): void {
    this.queue.length = 0;
    this.set.clear();
  }

  private insert(v: TimedValue): void {
    this.order.set(v, this.seq++);
    const key = (x: TimedValue) => [x.processAt, this.order.get(x)!] as const;
    const [pa, sa] = key(v);
    let lo = 0,
      hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const [pb, sb] = key(this.queue[mid]);
      if (pb < pa || (pb === pa && sb < sa)) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, v);
  }
}

/** What Try's callback says: done, or try again after `retryAfterMs`. */
export type ActionResult = { done: true } | { done: false; retryAfterMs: number };

export class RateLimitedTimedQueue {
  private readonly queue = new UniqueQueue();

  constructor(
    private limiter: RateLimiter,
    private readonly now: () => number,
  ) {}

  /** Enqueues a value to process now; false if it is already in the set. */
  add(value: string, uid: string): boolean {
    const t = this.now();
    return this.queue.add({ value, uid, addedAt: t, processAt: t });
  }

  /** Forgets a value entirely (queue and set), allowing a later add. */
  remove(value: string): boolean {
    return this.queue.remove(value);
  }

  clear(): void {
    this.queue.clear();
  }

  /** Values waiting to be processed, in order. */
  pending(): string[] {
    return this.queue.values();
  }

  get length(): number {
    return this.queue.length;
  }

  get qps(): number {
    return this.limiter.qps;
  }

  /** Rate 0: Try() can never process anything until the rate is swapped. */
  get stopped(): boolean {
    return this.limiter === NEVER;
  }

  /** Some value waits and the limiter may let it through: worth running Try(). */
  get active(): boolean {
    return this.queue.length > 0 && !this.stopped;
  }

  /**
   * Processes values while the limiter gives tokens and the head is due. The token is
   * spent before the due check, as upstream does. A value that fails is re-queued at
   * now + retry + 1 ns; one that succeeds leaves the queue but stays in the set.
   */
  async try(fn: (v: TimedValue) => Promise<ActionResult>): Promise<void> {
    for (let head = this.queue.head(); head; head = this.queue.head()) {
      if (!this.limiter.tryAccept()) break;
      const now = this.now();
      if (now < head.processAt) break;
      const r = await fn(head);
      if (!this.queue.set.has(head.value)) continue; // removed while being processed
      if (!r.done) this.queue.replace({ ...head, processAt: now + r.retryAfterMs + 1e-6 });
      else this.queue.removeFromQueue(head.value);
    }
  }

  /**
   * Upstream SwapLimiter: no-op when the rate is unchanged; rate <= 0 means never; a new
   * token bucket starts full, but loses its token if the old limiter had none left, so a
   * rate change grants no free eviction.
   */
  swapLimiter(qps: number): void {
    if (this.limiter.qps === qps) return;
    const next: RateLimiter = qps <= 0 ? NEVER : new TokenBucket(qps, EVICTION_RATE_LIMITER_BURST, this.now);
    if (!this.limiter.tryAccept()) next.tryAccept();
    this.limiter = next;
  }
}

import { Clock, Quiescence, TimerHandle } from '../clock';

export interface WorkQueueOptions {
  name: string;
  /** Concurrent syncs (distinct keys). */
  workers?: number;
  /** First retry delay after a failed sync; doubles per failure up to maxRetryDelayMs. */
  baseRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /**
   * Where a failed sync is told before it is retried (upstream's processNextWorkItem hands it
   * to utilruntime.HandleError): mandatory, so no failure is retried unseen.
   */
  onError(key: string, error: unknown): void;
}

/**
 * A deduplicating work queue with upstream's guarantees: a key is never synced by two
 * workers at once, a key added while it is being synced is synced again afterwards, and
 * failures are retried with per-key exponential backoff. Busy while anything is queued,
 * so the virtual clock waits for it.
 */
export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly delayed = new Map<string, { timer: TimerHandle; due: number }>();
  private running = 0;
  private shutDown = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly quiescence: Quiescence,
    private readonly sync: (key: string) => Promise<void>,
    private readonly options: WorkQueueOptions,
  ) {}

  add(key: string): void {
    if (this.shutDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.kick();
  }

  addAfter(key: string, ms: number): void {
    if (this.shutDown) return;
    if (ms <= 0) return this.add(key);
    // One pending add per key, at the earlier time (client-go's delaying queue keeps the
    // earliest readyAt of a key added twice).
    const due = this.clock.now() + ms;
    const pending = this.delayed.get(key);
    if (pending && pending.due <= due) return;
    if (pending) this.clock.clear(pending.timer);
    this.delayed.set(key, {
      due,
      timer: this.clock.setTimeout(() => {
        this.delayed.delete(key);
        this.add(key);
      }, ms),
    });
  }

  addRateLimited(key: string): void {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const base = this.options.baseRetryDelayMs ?? 5;
    const max = this.options.maxRetryDelayMs ?? 1000_000;
    this.addAfter(key, Math.min(max, base * 2 ** n));
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  get length(): number {
    return this.queue.length;
  }

  shutdown(): void {
    this.shutDown = true;
    this.queue.length = 0;
    this.dirty.clear();
    for (const d of this.delayed.values()) this.clock.clear(d.timer);
    this.delayed.clear();
  }

  get isShutDown(): boolean {
    return this.shutDown;
  }

  /** Resolves once no sync is running (after shutdown(): the syncs that were under way have ended). */
  drained(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private kick(): void {
    const workers = this.options.workers ?? 1;
    while (this.running < workers && this.queue.length > 0) {
      this.running++;
      this.quiescence.begin();
      void this.work().finally(() => {
        this.running--;
        this.quiescence.end();
        if (this.running === 0) for (const w of this.idleWaiters.splice(0)) w();
      });
    }
  }

  private async work(): Promise<void> {
    for (let key = this.queue.shift(); key !== undefined; key = this.queue.shift()) {
      this.dirty.delete(key);
      this.processing.add(key);
      try {
        await this.sync(key);
        this.forget(key);
      } catch (e) {
        this.options.onError(key, e);
        if (!this.shutDown) this.addRateLimited(key);
      } finally {
        this.processing.delete(key);
        if (this.dirty.has(key) && !this.shutDown) this.queue.push(key);
      }
    }
  }
}

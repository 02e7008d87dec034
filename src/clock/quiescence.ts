/**
 * Knows whether any component still has work in flight: requests, queued keys, watch
 * deliveries. The virtual clock settles on it after each timer so a step sees the
 * cluster at rest. Everything asynchronous in the reference path must be tracked here,
 * or settling would return early.
 */
export class Quiescence {
  private busy = 0;
  private activity = 0;
  /**
   * The wall time one settle may take when its caller gives none (the virtual clock's advance
   * and a cluster's settle): past it, an error instead of a hang. Unset: no limit but the turns.
   */
  settleLimitMs?: number;

  begin(): void {
    this.busy++;
    this.activity++;
  }

  end(): void {
    this.busy--;
    this.activity++;
    if (this.busy < 0) throw new Error('Quiescence.end() without begin()');
  }

  /** Tracks a promise from start to settlement. */
  track<T>(p: Promise<T>): Promise<T> {
    this.begin();
    return p.finally(() => this.end());
  }

  /** Runs fn on the next macrotask, tracked (for deliveries that must not run inline). */
  defer(fn: () => void): void {
    this.begin();
    setImmediate(() => {
      try {
        fn();
      } finally {
        this.end();
      }
    });
  }

  get idle(): boolean {
    return this.busy === 0;
  }

  /**
   * Resolves once nothing is in flight and a full macrotask turn saw no new activity. On a
   * real clock `withinMs` bounds the wait in wall time (a million turns there can take
   * minutes): past it, an error that says how much is still in flight, never a silent hang.
   */
  async settle(maxTurns = 1_000_000, withinMs = this.settleLimitMs): Promise<void> {
    const deadline = withinMs === undefined ? undefined : Date.now() + withinMs;
    for (let turn = 0; turn < maxTurns; turn++) {
      const seen = this.activity;
      await new Promise<void>((r) => setImmediate(r));
      if (this.busy === 0 && this.activity === seen) return;
      if (deadline !== undefined && Date.now() > deadline)
        throw new Error(`cluster did not settle within ${withinMs} ms (${this.busy} tasks in flight)`);
    }
    throw new Error(`cluster did not settle after ${maxTurns} turns (${this.busy} tasks in flight)`);
  }
}

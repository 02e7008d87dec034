import { BinaryHeap } from './heap';
import { Clock, TimerHandle } from './clock';
import { Quiescence } from './quiescence';

interface Timer {
  id: number;
  due: number;
  seq: number;
  period?: number;
  fn: () => void;
}

/**
 * Time that moves only when told to. advance() fires due timers in time order (ties in
 * the order they were set), settling the cluster after each, so effects happen in
 * virtual-time order and never depend on the machine's speed.
 */
export class VirtualClock implements Clock {
  private current: number;
  private seq = 0;
  private nextId = 1;
  private readonly heap = new BinaryHeap<Timer>((a, b) => a.due < b.due || (a.due === b.due && a.seq < b.seq));
  private readonly live = new Map<number, Timer>();

  constructor(
    start: number,
    readonly quiescence: Quiescence = new Quiescence(),
  ) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.schedule(fn, Math.max(0, ms));
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    if (!(ms > 0)) throw new Error(`interval must be positive, got ${ms}`);
    return this.schedule(fn, ms, ms);
  }

  clear(handle: TimerHandle): void {
    this.live.delete(handle.id);
  }

  /** Pending timers (for diagnostics and benchmarks). */
  get pending(): number {
    return this.live.size;
  }

  /** Settles the cluster without moving time. */
  settle(): Promise<void> {
    return this.quiescence.settle();
  }

  /** Moves time forward by ms, firing every timer due up to and including the target. */
  async advance(ms: number): Promise<void> {
    if (ms < 0) throw new Error(`cannot move time backwards (${ms} ms)`);
    await this.advanceTo(this.current + ms);
  }

  async advanceTo(target: number): Promise<void> {
    await this.quiescence.settle();
    // Timers due at the same instant fire together, then the cluster settles once: the
    // order among them is the order they were set, and nothing between them could differ.
    for (;;) {
      const first = this.popDue(target);
      if (!first) break;
      this.current = first.due;
      const batch = [first];
      for (let t = this.popDue(first.due); t; t = this.popDue(first.due)) batch.push(t);
      for (const timer of batch) {
        if (this.live.get(timer.id) !== timer) continue; // cleared by an earlier one
        if (timer.period !== undefined) {
          timer.due += timer.period;
          timer.seq = this.seq++;
          this.heap.push(timer);
        } else {
          this.live.delete(timer.id);
        }
        timer.fn();
      }
      await this.quiescence.settle();
    }
    this.current = Math.max(this.current, target);
  }

  private schedule(fn: () => void, ms: number, period?: number): TimerHandle {
    const timer: Timer = { id: this.nextId++, due: this.current + ms, seq: this.seq++, period, fn };
    this.live.set(timer.id, timer);
    this.heap.push(timer);
    return { id: timer.id };
  }

  private popDue(target: number): Timer | undefined {
    while (this.heap.length > 0) {
      const top = this.heap.peek()!;
      if (this.live.get(top.id) !== top) {
        this.heap.pop();
        continue;
      }
      if (top.due > target) return undefined;
      return this.heap.pop();
    }
    return undefined;
  }
}

import { Clock, TimerHandle } from './clock';

const MAX_TIMER_MS = 2 ** 31 - 1;

/** Wall-clock time, for `kubespec serve --clock real` and real targets. */
export class RealClock implements Clock {
  private next = 1;
  private readonly timers = new Map<number, NodeJS.Timeout>();

  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.next++;
    this.arm(id, fn, Date.now() + ms);
    return { id };
  }

  // Node fires a timer of more than 2^31 − 1 ms after 1 ms: a long wait (a grace period of
  // weeks) is made of such timers, each re-armed for what is left.
  private arm(id: number, fn: () => void, at: number): void {
    const left = Math.max(0, at - Date.now());
    this.timers.set(
      id,
      setTimeout(
        () => {
          if (left > MAX_TIMER_MS) return this.arm(id, fn, at);
          this.timers.delete(id);
          fn();
        },
        Math.min(left, MAX_TIMER_MS),
      ).unref(),
    );
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    const id = this.next++;
    this.timers.set(id, setInterval(fn, ms).unref());
    return { id };
  }

  clear(handle: TimerHandle): void {
    const t = this.timers.get(handle.id);
    if (t) {
      clearTimeout(t);
      clearInterval(t);
      this.timers.delete(handle.id);
    }
  }
}

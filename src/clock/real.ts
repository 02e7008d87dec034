import { Clock, TimerHandle } from './clock';

/** Wall-clock time, for `kubespec serve --clock real` and real targets. */
export class RealClock implements Clock {
  private next = 1;
  private readonly timers = new Map<number, NodeJS.Timeout>();

  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.next++;
    this.timers.set(
      id,
      setTimeout(() => {
        this.timers.delete(id);
        fn();
      }, ms).unref(),
    );
    return { id };
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

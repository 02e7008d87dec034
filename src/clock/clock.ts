import { flatString } from '../util/flat-string';

/** Time as every component sees it. Milliseconds since the epoch, like Date.now(). */
export interface Clock {
  now(): number;
  /** Runs fn once after ms. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Runs fn every ms, first after ms. */
  setInterval(fn: () => void, ms: number): TimerHandle;
  clear(handle: TimerHandle): void;
}

export interface TimerHandle {
  readonly id: number;
}

/** The last instant RFC 3339 with a four-digit year can write (metav1.Time's range). */
const LAST_RFC3339 = Date.UTC(9999, 11, 31, 23, 59, 59);

/**
 * The last time written by a formatter, kept: components ask for the time they stamp many
 * times at one instant (a virtual clock's instant; the kubelets renewing their Leases), and
 * each answer would otherwise be a fresh string (made in pieces by replace()) kept by every
 * object stamped with it.
 */
function lastWritten(format: (ms: number) => string, unit = 1): (ms: number) => string {
  let lastKey = Number.NaN;
  let last = '';
  return (ms) => {
    const key = Math.floor(ms / unit);
    if (key !== lastKey) {
      last = flatString(format(ms));
      lastKey = key;
    }
    return last;
  };
}

/** RFC 3339 in seconds; a time past year 9999 (now + a grace period of 2^62 s) is written as that year's end. */
export const isoTime: (ms: number) => string = lastWritten(
  (ms) =>
    new Date(Number.isFinite(ms) ? Math.min(ms, LAST_RFC3339) : LAST_RFC3339).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  1000,
);

/** RFC 3339 with microseconds, as Kubernetes writes MicroTime (Lease renewTime). */
export const microTime: (ms: number) => string = lastWritten((ms) => new Date(ms).toISOString().replace(/Z$/, '000Z'));

/** Go's time.RFC3339Nano: the fraction with its trailing zeros trimmed, none when whole. */
export function nanoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0*Z$/, 'Z');
}

export function parseTime(s: string | undefined | null): number | undefined {
  if (!s) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

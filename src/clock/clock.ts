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

export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** RFC 3339 with microseconds, as Kubernetes writes MicroTime (Lease renewTime). */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000Z');
}

export function parseTime(s: string | undefined | null): number | undefined {
  if (!s) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

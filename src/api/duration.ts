/** Go time.Duration strings ("40s", "5m0s", "1m30s", "100ms", "1h") as Kubernetes flags take them. */
const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export class DurationParseError extends Error {}

/** Milliseconds for a Go duration string. */
export function parseDuration(s: string): number {
  const text = s.trim();
  if (text === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.replace(/^[-+]/, '');
  re.lastIndex = 0;
  while ((m = re.exec(body)) !== null) {
    total += parseFloat(m[1]) * UNITS[m[2]];
    matched = re.lastIndex;
  }
  if (matched === 0 || matched !== body.length) throw new DurationParseError(`time: invalid duration "${s}"`);
  return sign * total;
}

/**
 * resource.Quantity as apimachinery/pkg/api/resource defines it: a fixed-point
 * number that remembers the notation it was written in and prints itself in
 * that notation's canonical form.
 *
 * The value is held exactly as `mantissa × 10^exponent` with a bigint mantissa,
 * so `8010172Ki`, `260m`, `0.5` and `1.5Gi` never pass through a float.
 * Parsing rounds (away from zero) to nano units, as upstream does.
 *
 * Kept in one file: one type, its parser, printer and arithmetic share the exact
 * mantissa/exponent representation, as upstream's quantity.go does.
 *
 * Over 400 lines on purpose: one type, its parser, canonical printer and arithmetic, which
 * upstream keeps together too (quantity.go, math.go, suffix.go); cutting it would split one
 * algorithm across files that only make sense together.
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** The regular expression upstream quotes in its "format wrong" error. */
const SPLIT_RE_STRING = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_RE_STRING}'`;
export const ERR_SUFFIX = "unable to parse quantity's suffix";

export class QuantityParseError extends Error {
  readonly input: string;
  constructor(message: string, input: string) {
    super(message);
    this.name = 'QuantityParseError';
    this.input = input;
  }
}

const DECIMAL_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['n', -9],
  ['u', -6],
  ['m', -3],
  ['', 0],
  ['k', 3],
  ['M', 6],
  ['G', 9],
  ['T', 12],
  ['P', 15],
  ['E', 18],
]);
const DECIMAL_SUFFIX_BY_EXPONENT: ReadonlyMap<number, string> = new Map(
  [...DECIMAL_SUFFIXES].map(([s, e]) => [e, s] as [number, string]),
);

const BINARY_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['Ki', 10],
  ['Mi', 20],
  ['Gi', 30],
  ['Ti', 40],
  ['Pi', 50],
  ['Ei', 60],
]);
const BINARY_SUFFIX_BY_POWER: ReadonlyMap<number, string> = new Map(
  [...BINARY_SUFFIXES].map(([s, p]) => [p / 10, s] as [number, string]),
);

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);
const MAX_INT32 = 2 ** 31 - 1;
const NANO = -9;
/** maxInt64Factors upstream: decimal digits that always fit an int64. */
const MAX_INT64_FACTORS = 18;

const SUFFIX_CHARS = 'eEinumkKMGTP';

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}

function digitCount(n: bigint): number {
  return abs(n).toString().length;
}

/** Divides by 10^n, rounding away from zero; reports whether it was exact. */
function divPow10AwayFromZero(m: bigint, n: number): { value: bigint; exact: boolean } {
  if (n <= 0) return { value: m * pow10(-n), exact: true };
  // dividing away every digit leaves only the rounding unit (and avoids huge powers)
  if (m !== 0n && n > digitCount(m)) return { value: m < 0n ? -1n : 1n, exact: false };
  const d = pow10(n);
  const q = m / d;
  const r = m % d;
  if (r === 0n) return { value: q, exact: true };
  return { value: m < 0n ? q - 1n : q + 1n, exact: false };
}

interface Scanned {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

/** A re-implementation of upstream's hand-written scanner (parseQuantityString). */
function scan(str: string): Scanned {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end) {
    if (str[0] === '-') {
      positive = false;
      pos++;
    } else if (str[0] === '+') {
      pos++;
    }
  }
  // leading zeros
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, num: '0', denom: '', suffix: '' };

  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  let num = str.slice(pos, i);
  if (i >= end) return { positive, num: num === '' ? '0' : num, denom: '', suffix: '' };
  pos = i;
  if (num === '') num = '0';

  let denom = '';
  if (str[pos] === '.') {
    pos++;
    let j = pos;
    while (j < end && isDigit(str[j])) j++;
    denom = str.slice(pos, j);
    if (j >= end) return { positive, num, denom, suffix: '' };
    pos = j;
  }

  const suffixStart = pos;
  let k = pos;
  while (k < end && SUFFIX_CHARS.includes(str[k])) k++;
  if (k >= end) return { positive, num, denom, suffix: str.slice(suffixStart) };
  pos = k;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityParseError(ERR_FORMAT_WRONG, str);
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

interface Interpreted {
  base: 10 | 2;
  exponent: number;
  format: QuantityFormat;
}

function interpretSuffix(s: string, input: string): Interpreted {
  const dec = DECIMAL_SUFFIXES.get(s);
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = BINARY_SUFFIXES.get(s);
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E') && /^[+-]?[0-9]+$/.test(s.slice(1))) {
    // Upstream narrows the exponent to int32 without checking; rejecting is safer
    // than silently turning 1e4294967297 into 1e1.
    const e = Number(s.slice(1));
    if (Number.isSafeInteger(e) && Math.abs(e) <= MAX_INT32) {
      return { base: 10, exponent: e, format: 'DecimalExponent' };
    }
  }
  throw new QuantityParseError(ERR_SUFFIX, input);
}

/** Fits a*b in an int64? (upstream's fast path only applies then) */
function fitsInt64(v: bigint): boolean {
  return v <= MAX_INT64 && v >= MIN_INT64;
}

export class Quantity {
  /** value = mantissa × 10^exponent */
  private readonly mantissa: bigint;
  private readonly exponent: number;
  readonly format: QuantityFormat;
  /**
   * Upstream keeps the input string when it is already canonical by its
   * (cheap, approximate) test, and prints that string verbatim. This is why
   * `+1` or `007` round-trip unchanged there; we reproduce it.
   */
  private readonly cached: string | undefined;

  private constructor(mantissa: bigint, exponent: number, format: QuantityFormat, cached?: string) {
    this.mantissa = mantissa;
    this.exponent = mantissa === 0n ? 0 : exponent;
    this.format = format;
    this.cached = cached;
  }

  // ---- construction ----

  static parse(str: string): Quantity {
    if (typeof str !== 'string' || str.length === 0) throw new QuantityParseError(ERR_FORMAT_WRONG, String(str));
    if (str === '0') return new Quantity(0n, 0, 'DecimalSI', str);

    const { positive, num, denom, suffix } = scan(str);
    const { base, exponent, format: parsedFormat } = interpretSuffix(suffix, str);
    let format = parsedFormat;

    // Exact magnitude as digits × 10^scale (× 2^exponent for binary suffixes).
    let mantissa = BigInt(num + denom);
    let scale = -denom.length;
    if (base === 10) scale += exponent;
    else mantissa <<= BigInt(exponent);

    const cached = canonicalInputCache(str, num, denom, base, exponent);

    // Round up to nano, as "if you want some resources, you should get some".
    if (mantissa !== 0n && scale < NANO) {
      mantissa = divPow10AwayFromZero(mantissa, NANO - scale).value;
      scale = NANO;
    }
    if (format === 'BinarySI' && mantissa !== 0n) {
      if (compareMagnitude(mantissa, scale, MAX_INT64, 0) > 0) {
        mantissa = MAX_INT64;
        scale = 0;
      }
      if (compareMagnitude(mantissa, scale, 1n, 0) < 0) format = 'DecimalSI';
    }
    if (!positive) mantissa = -mantissa;
    return new Quantity(mantissa, scale, format, cached);
  }

  /** Like parse, but returns undefined instead of throwing. */
  static tryParse(str: string): Quantity | undefined {
    try {
      return Quantity.parse(str);
    } catch (e) {
      if (e instanceof QuantityParseError) return undefined;
      throw e;
    }
  }

  /** NewMilliQuantity: n/1000 in the given format (DecimalSI by default). */
  static fromMilli(n: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(toBigInt(n), -3, format);
  }

  /** NewQuantity: an integer value in the given format. */
  static fromValue(n: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(toBigInt(n), 0, format);
  }

  /** NewScaledQuantity: n × 10^scale, DecimalSI. */
  static fromScaled(n: number | bigint, scale: number): Quantity {
    if (!Number.isSafeInteger(scale)) throw new RangeError(`scale must be an integer, got ${scale}`);
    return new Quantity(toBigInt(n), scale, 'DecimalSI');
  }

  static zero(format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(0n, 0, format);
  }

  // ---- arithmetic (immutable) ----

  /** Sum; like upstream Add, a zero receiver takes the other's format. */
  add(q: Quantity): Quantity {
    const [a, b, e] = Quantity.align(this, q);
    return new Quantity(a + b, e, this.isZero() ? q.format : this.format);
  }

  sub(q: Quantity): Quantity {
    const [a, b, e] = Quantity.align(this, q);
    return new Quantity(a - b, e, this.isZero() ? q.format : this.format);
  }

  neg(): Quantity {
    return new Quantity(-this.mantissa, this.exponent, this.format);
  }

  mul(n: number | bigint): Quantity {
    return new Quantity(this.mantissa * toBigInt(n), this.exponent, this.format);
  }

  private static align(x: Quantity, y: Quantity): [bigint, bigint, number] {
    if (x.mantissa === 0n) return [0n, y.mantissa, y.exponent];
    if (y.mantissa === 0n) return [x.mantissa, 0n, x.exponent];
    const e = Math.min(x.exponent, y.exponent);
    return [x.mantissa * pow10(x.exponent - e), y.mantissa * pow10(y.exponent - e), e];
  }

  cmp(q: Quantity): -1 | 0 | 1 {
    return compareSigned(this.mantissa, this.exponent, q.mantissa, q.exponent);
  }

  equals(q: Quantity): boolean {
    return this.cmp(q) === 0;
  }

  isZero(): boolean {
    return this.mantissa === 0n;
  }

  sign(): -1 | 0 | 1 {
    return this.mantissa === 0n ? 0 : this.mantissa < 0n ? -1 : 1;
  }

  /** A copy with a different output format (and no remembered input string). */
  withFormat(format: QuantityFormat): Quantity {
    return new Quantity(this.mantissa, this.exponent, format);
  }

  // ---- reading the value ----

  /** ceil(q / 10^scale) rounded away from zero, exact, unbounded. */
  scaledValueBigInt(scale: number): bigint {
    if (this.mantissa === 0n) return 0n;
    const shift = this.exponent - scale;
    if (shift >= 0) return this.mantissa * pow10(shift);
    // Scaling down past every digit leaves only the rounding unit.
    if (-shift > digitCount(this.mantissa)) return this.mantissa < 0n ? -1n : 1n;
    return divPow10AwayFromZero(this.mantissa, -shift).value;
  }

  /**
   * ScaledValue: ceil(q / 10^scale), rounding away from zero, saturated to the
   * int64 range as upstream's int64 path does, then as a JS number.
   */
  scaledValue(scale: number): number {
    if (this.mantissa !== 0n && digitCount(this.mantissa) + this.exponent - scale > 20) {
      return this.mantissa < 0n ? Number(MIN_INT64) : Number(MAX_INT64);
    }
    const v = this.scaledValueBigInt(scale);
    if (v > MAX_INT64) return Number(MAX_INT64);
    if (v < MIN_INT64) return Number(MIN_INT64);
    return Number(v);
  }

  /** Value(): the integer value, rounded up (away from zero). */
  value(): number {
    return this.scaledValue(0);
  }

  /** MilliValue(): ceil(q × 1000), rounded away from zero. */
  milliValue(): number {
    return this.scaledValue(-3);
  }

  /** AsApproximateFloat64. */
  asApproximateFloat64(): number {
    return Number(this.mantissa) * 10 ** this.exponent;
  }

  /** AsInt64: the exact integer value when it is an integer that fits an int64. */
  asInt64(): bigint | undefined {
    if (this.exponent < 0) {
      const r = divPow10AwayFromZero(this.mantissa, -this.exponent);
      if (!r.exact) return undefined;
      return fitsInt64(r.value) ? r.value : undefined;
    }
    if (this.mantissa !== 0n && digitCount(this.mantissa) + this.exponent > 19) return undefined;
    const v = this.mantissa * pow10(this.exponent);
    return fitsInt64(v) ? v : undefined;
  }

  // ---- printing ----

  /** The canonical string (upstream String / CanonicalizeBytes). */
  toString(): string {
    if (this.cached !== undefined) return this.cached;
    if (this.mantissa === 0n) return '0';
    const sign = this.mantissa < 0n ? '-' : '';
    let format = this.format;
    if (format === 'BinarySI') {
      if (compareMagnitude(this.mantissa, this.exponent, 1024n, 0) < 0) {
        format = 'DecimalSI';
      } else {
        const whole = divPow10AwayFromZero(abs(this.mantissa), -this.exponent);
        if (!whole.exact) {
          format = 'DecimalSI';
        } else {
          let amount = whole.value;
          let power = 0;
          while (amount >= 1024n && amount % 1024n === 0n) {
            amount /= 1024n;
            power++;
          }
          if (power === 0) return sign + amount.toString();
          const suffix = BINARY_SUFFIX_BY_POWER.get(power);
          // Past Ei there is no binary suffix; upstream would drop the magnitude,
          // we fall back to an exact decimal exponent form.
          if (suffix !== undefined) return sign + amount.toString() + suffix;
          format = 'DecimalExponent';
        }
      }
    }
    const [digits, exp] = canonicalBase10(abs(this.mantissa), this.exponent);
    if (format === 'DecimalSI') {
      const suffix = DECIMAL_SUFFIX_BY_EXPONENT.get(exp);
      // Beyond E or below n DecimalSI has no suffix; exponent form keeps the value.
      if (suffix !== undefined) return sign + digits + suffix;
    }
    return sign + digits + (exp === 0 ? '' : `e${exp}`);
  }

  toJSON(): string {
    return this.toString();
  }
}

function toBigInt(n: number | bigint): bigint {
  if (typeof n === 'bigint') return n;
  if (!Number.isSafeInteger(n)) throw new RangeError(`quantity value must be a safe integer, got ${n}`);
  return BigInt(n);
}

/**
 * Which input strings upstream keeps verbatim: those taking its int64 fast path
 * that also look canonical (no leading-zero mantissa, no trailing "000", an
 * exponent that is a multiple of 3; for binary, a mantissa not divisible by 8).
 */
function canonicalInputCache(
  str: string,
  num: string,
  denom: string,
  base: 10 | 2,
  exponent: number,
): string | undefined {
  if (base === 10) {
    if (MAX_INT64_FACTORS - (num.length + denom.length) < 0) return undefined;
    const scale = exponent - denom.length;
    if (scale < NANO) return undefined;
    const shifted = num + denom;
    if (scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0') return str;
    return undefined;
  }
  if (denom.length !== 0) return undefined;
  const precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
  if (precision < 0) return undefined;
  const value = BigInt(num);
  if (!fitsInt64(value << BigInt(exponent))) return undefined;
  if (exponent % 10 === 0 && (value & 7n) !== 0n) return str;
  return undefined;
}

/** Strips factors of ten, then lowers the exponent to a multiple of three. */
function canonicalBase10(m: bigint, e: number): [string, number] {
  let s = m.toString();
  let exp = e;
  let trailing = 0;
  while (trailing < s.length - 1 && s[s.length - 1 - trailing] === '0') trailing++;
  if (trailing > 0) {
    s = s.slice(0, s.length - trailing);
    exp += trailing;
  }
  const rem = ((exp % 3) + 3) % 3;
  if (rem !== 0) {
    s += '0'.repeat(rem);
    exp -= rem;
  }
  return [s, exp];
}

/** Compares |am|·10^ae with |bm|·10^be without materialising huge powers. */
function compareMagnitude(am: bigint, ae: number, bm: bigint, be: number): -1 | 0 | 1 {
  const a = abs(am);
  const b = abs(bm);
  if (a === 0n || b === 0n) return a === b ? 0 : a === 0n ? -1 : 1;
  const ma = digitCount(a) + ae;
  const mb = digitCount(b) + be;
  if (ma !== mb) return ma < mb ? -1 : 1;
  const e = Math.min(ae, be);
  const x = a * pow10(ae - e);
  const y = b * pow10(be - e);
  return x === y ? 0 : x < y ? -1 : 1;
}

function compareSigned(am: bigint, ae: number, bm: bigint, be: number): -1 | 0 | 1 {
  const sa = am === 0n ? 0 : am < 0n ? -1 : 1;
  const sb = bm === 0n ? 0 : bm < 0n ? -1 : 1;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const c = compareMagnitude(am, ae, bm, be);
  if (c === 0) return 0;
  return (sa < 0 ? -c : c) as -1 | 1;
}

// ---- resource lists ----

export type ResourceList = Record<string, string>;

/** Parses every quantity of a ResourceList (e.g. `resources.requests`); throws on the first bad one. */
export function parseResourceList(r: Readonly<Record<string, string>> | undefined | null): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  if (!r) return out;
  for (const [name, value] of Object.entries(r)) {
    try {
      out.set(name, Quantity.parse(value));
    } catch (e) {
      if (e instanceof QuantityParseError) throw new QuantityParseError(`${name}: ${e.message}`, e.input);
      throw e;
    }
  }
  return out;
}

/** The inverse of parseResourceList: canonical strings. */
export function formatResourceList(m: ReadonlyMap<string, Quantity>): ResourceList {
  const out: ResourceList = {};
  for (const [name, q] of m) out[name] = q.toString();
  return out;
}

/** a + b per resource name (names missing from one side count as zero). */
export function addResourceLists(
  a: ReadonlyMap<string, Quantity>,
  b: ReadonlyMap<string, Quantity>,
): Map<string, Quantity> {
  const out = new Map(a);
  for (const [name, q] of b) {
    const cur = out.get(name);
    out.set(name, cur ? cur.add(q) : q);
  }
  return out;
}

/** a - b per resource name (names missing from one side count as zero). */
export function subtractResourceLists(
  a: ReadonlyMap<string, Quantity>,
  b: ReadonlyMap<string, Quantity>,
): Map<string, Quantity> {
  const out = new Map(a);
  for (const [name, q] of b) {
    const cur = out.get(name);
    out.set(name, cur ? cur.sub(q) : Quantity.zero(q.format).sub(q));
  }
  return out;
}

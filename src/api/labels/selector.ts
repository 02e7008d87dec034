import { labelValueErrors, qualifiedNameErrors } from '../validation/names';

/** Go's %q for the strings we quote (close enough: JSON escaping). */
const quote = (s: string): string => JSON.stringify(s);

/**
 * Label selectors as apimachinery/pkg/labels implements them: requirements, selectors and
 * metav1.LabelSelector conversion (the string grammar is parser.ts; the key and value
 * syntax, validation/names.ts).
 *
 * Error wording follows the Kubernetes release the seed profile describes
 * (v1.12: "invalid label key ...", "a qualified name ..."), which is also what
 * kubectl users have seen for years.
 */

export type Labels = Record<string, string>;

export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export interface LabelSelectorRequirement {
  key: string;
  operator: LabelSelectorOperator;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** selection.Operator values, spelled as upstream spells them. */
export type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export class SelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorParseError';
  }
}

function lookup(labels: Labels | undefined, key: string): string | undefined {
  if (!labels || !Object.hasOwn(labels, key)) return undefined;
  return labels[key];
}

// ---------------------------------------------------------------------------
// Requirements and selectors

const INT64_RE = /^[+-]?[0-9]+$/;
const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);

/** strconv.ParseInt(s, 10, 64), or undefined. */
function parseInt64(s: string): bigint | undefined {
  if (!INT64_RE.test(s)) return undefined;
  const v = BigInt(s);
  return v > MAX_INT64 || v < MIN_INT64 ? undefined : v;
}

function sortedCopy(values: readonly string[]): string[] {
  return [...values].sort(compareStrings);
}

/** Go's byte-wise string order (for the ASCII of keys and values, code-unit order is the same). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One term of a selector. Build validated ones with newRequirement. */
export class Requirement {
  readonly key: string;
  readonly operator: Operator;
  readonly values: readonly string[];

  constructor(key: string, operator: Operator, values: readonly string[]) {
    this.key = key;
    this.operator = operator;
    this.values = Object.freeze([...values]);
  }

  private hasValue(v: string): boolean {
    return this.values.includes(v);
  }

  matches(labels: Labels | undefined): boolean {
    const val = lookup(labels, this.key);
    switch (this.operator) {
      case 'in':
      case '=':
      case '==':
        return val !== undefined && this.hasValue(val);
      case 'notin':
      case '!=':
        return val === undefined || !this.hasValue(val);
      case 'exists':
        return val !== undefined;
      case '!':
        return val === undefined;
      case 'gt':
      case 'lt': {
        if (val === undefined || this.values.length !== 1) return false;
        const have = parseInt64(val);
        const want = parseInt64(this.values[0]);
        if (have === undefined || want === undefined) return false;
        return this.operator === 'gt' ? have > want : have < want;
      }
      default:
        return false;
    }
  }

  toString(): string {
    let s = this.operator === '!' ? '!' : '';
    s += this.key;
    switch (this.operator) {
      case '=':
        s += '=';
        break;
      case '==':
        s += '==';
        break;
      case '!=':
        s += '!=';
        break;
      case 'in':
        s += ' in ';
        break;
      case 'notin':
        s += ' notin ';
        break;
      case 'gt':
        s += '>';
        break;
      case 'lt':
        s += '<';
        break;
      case 'exists':
      case '!':
        return s;
    }
    const vals = this.values.length === 1 ? this.values[0] : sortedCopy(this.values).join(',');
    return this.operator === 'in' || this.operator === 'notin' ? `${s}(${vals})` : s + vals;
  }
}

export function labelKeyError(key: string): string | undefined {
  const errs = qualifiedNameErrors(key);
  return errs.length ? `invalid label key ${quote(key)}: ${errs.join('; ')}` : undefined;
}

function labelValueError(key: string, value: string): string | undefined {
  const errs = labelValueErrors(value);
  return errs.length ? `invalid label value: ${quote(value)}: at key: ${quote(key)}: ${errs.join('; ')}` : undefined;
}

/**
 * NewRequirement: checks the key, the operator's value count, Gt/Lt integers
 * and every value; throws SelectorParseError with the first problem.
 */
export function newRequirement(key: string, operator: Operator, values: readonly string[] = []): Requirement {
  const keyErr = labelKeyError(key);
  if (keyErr) throw new SelectorParseError(keyErr);
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) throw new SelectorParseError("for 'in', 'notin' operators, values set can't be empty");
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) throw new SelectorParseError('exact-match compatibility requires one single value');
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) throw new SelectorParseError('values set must be empty for exists and does not exist');
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) throw new SelectorParseError("for 'Gt', 'Lt' operators, exactly one value is required");
      for (const v of values) {
        if (parseInt64(v) === undefined)
          throw new SelectorParseError("for 'Gt', 'Lt' operators, the value must be an integer");
      }
      break;
    default:
      throw new SelectorParseError(`operator '${String(operator)}' is not recognized`);
  }
  for (const v of values) {
    const err = labelValueError(key, v);
    if (err) throw new SelectorParseError(err);
  }
  return new Requirement(key, operator, values);
}

export interface Selector {
  /** Whether the labels satisfy every requirement (undefined labels = no labels). */
  matches(labels: Labels | undefined): boolean;
  /** True when the selector does not restrict anything (Everything). */
  empty(): boolean;
  toString(): string;
  requirements(): readonly Requirement[];
  /** The value a label must have for the selector to match, if it pins one. */
  requiresExactMatch(label: string): string | undefined;
  /** A new selector with more requirements (sorted by key). */
  add(...reqs: Requirement[]): Selector;
}

function byKey(a: Requirement, b: Requirement): number {
  return compareStrings(a.key, b.key);
}

class InternalSelector implements Selector {
  private readonly reqs: readonly Requirement[];

  constructor(reqs: readonly Requirement[]) {
    this.reqs = Object.freeze([...reqs]);
  }

  matches(labels: Labels | undefined): boolean {
    return this.reqs.every((r) => r.matches(labels));
  }

  empty(): boolean {
    return this.reqs.length === 0;
  }

  toString(): string {
    return this.reqs.map((r) => r.toString()).join(',');
  }

  requirements(): readonly Requirement[] {
    return this.reqs;
  }

  requiresExactMatch(label: string): string | undefined {
    for (const r of this.reqs) {
      if (r.key !== label) continue;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1)
        return r.values[0];
      return undefined;
    }
    return undefined;
  }

  add(...reqs: Requirement[]): Selector {
    return new InternalSelector([...this.reqs, ...reqs].sort(byKey));
  }
}

class NothingSelector implements Selector {
  matches(): boolean {
    return false;
  }
  empty(): boolean {
    return false;
  }
  toString(): string {
    return '';
  }
  requirements(): readonly Requirement[] {
    return [];
  }
  requiresExactMatch(): string | undefined {
    return undefined;
  }
  add(): Selector {
    return this;
  }
}

const EVERYTHING: Selector = new InternalSelector([]);
const NOTHING: Selector = new NothingSelector();

/** Matches every object. */
export function everything(): Selector {
  return EVERYTHING;
}

/** Matches no object (what a nil metav1.LabelSelector means). */
export function nothing(): Selector {
  return NOTHING;
}

/** MatchesNothing: whether this is the Nothing selector. */
export function matchesNothing(s: Selector): boolean {
  return s instanceof NothingSelector;
}

/** SelectorFromSet: key=value for each pair; not validated; empty → Everything. */
export function selectorFromSet(set: Readonly<Record<string, string>> | undefined | null): Selector {
  if (!set) return EVERYTHING;
  const reqs = Object.entries(set).map(([k, v]) => new Requirement(k, '=', [v]));
  if (reqs.length === 0) return EVERYTHING;
  return new InternalSelector(reqs.sort(byKey));
}

/** ValidatedSelectorFromSet: like selectorFromSet but checks keys and values. */
export function validatedSelectorFromSet(set: Readonly<Record<string, string>> | undefined | null): Selector {
  if (!set) return EVERYTHING;
  const reqs = Object.entries(set).map(([k, v]) => newRequirement(k, '=', [v]));
  if (reqs.length === 0) return EVERYTHING;
  return new InternalSelector(reqs.sort(byKey));
}

/**
 * LabelSelectorAsSelector: null/undefined → Nothing, {} → Everything, otherwise
 * the AND of matchLabels and matchExpressions. Throws SelectorParseError.
 */
export function selectorFromLabelSelector(ls: LabelSelector | undefined | null): Selector {
  if (ls === null || ls === undefined) return NOTHING;
  const matchLabels = ls.matchLabels ?? {};
  const exprs = ls.matchExpressions ?? [];
  if (Object.keys(matchLabels).length + exprs.length === 0) return EVERYTHING;
  const reqs: Requirement[] = [];
  for (const [k, v] of Object.entries(matchLabels)) reqs.push(newRequirement(k, '=', [v]));
  for (const expr of exprs) {
    let op: Operator;
    switch (expr.operator) {
      case 'In':
        op = 'in';
        break;
      case 'NotIn':
        op = 'notin';
        break;
      case 'Exists':
        op = 'exists';
        break;
      case 'DoesNotExist':
        op = '!';
        break;
      default:
        throw new SelectorParseError(`${quote(String(expr.operator))} is not a valid label selector operator`);
    }
    reqs.push(newRequirement(expr.key, op, [...(expr.values ?? [])]));
  }
  return new InternalSelector(reqs.sort(byKey));
}

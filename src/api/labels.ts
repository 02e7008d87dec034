/**
 * Label selectors as apimachinery/pkg/labels implements them: the string
 * grammar (`a=b,c in (x,y),!d,e>1`), metav1.LabelSelector conversion, and the
 * label key/value syntax checks that API validation shares with the parser.
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

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

function lookup(labels: Labels | undefined, key: string): string | undefined {
  if (!labels || !hasOwn(labels, key)) return undefined;
  return labels[key];
}

// ---------------------------------------------------------------------------
// Syntax of keys and values (apimachinery/pkg/util/validation)

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_ERR =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX = 63;

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX = 63;

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX = 253;

function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

/** RegexError upstream, including its double spaces between examples. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) out += ' or ';
    out += `'${ex}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

/** IsDNS1123Subdomain: error strings, empty when valid. */
export function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** IsQualifiedName (label keys, annotation keys, ...): error strings, empty when valid. */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of dns1123SubdomainErrors(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > QUALIFIED_NAME_MAX) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX)}`);
  if (!QUALIFIED_NAME_RE.test(name)) {
    errs.push(`name part ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

export function isQualifiedName(value: string): boolean {
  return qualifiedNameErrors(value).length === 0;
}

/** IsValidLabelValue: error strings, empty when valid. */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > LABEL_VALUE_MAX) errs.push(maxLenError(LABEL_VALUE_MAX));
  if (!LABEL_VALUE_RE.test(value)) errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

export function isValidLabelValue(value: string): boolean {
  return labelValueErrors(value).length === 0;
}

/** Go's %q for the strings we quote (close enough: JSON escaping). */
function quote(s: string): string {
  return JSON.stringify(s);
}

/**
 * ValidateLabels (metav1 validation): one message per problem, in the form of
 * a field error body (`Invalid value: "k": ...`); the caller supplies the field
 * path (normally metadata.labels).
 */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined | null): string[] {
  const out: string[] = [];
  if (!labels) return out;
  for (const [k, v] of Object.entries(labels)) {
    for (const msg of qualifiedNameErrors(k)) out.push(`Invalid value: ${quote(k)}: ${msg}`);
    if (typeof v !== 'string') {
      out.push(`Invalid value: ${quote(String(v))}: label values must be strings`);
      continue;
    }
    for (const msg of labelValueErrors(v)) out.push(`Invalid value: ${quote(v)}: ${msg}`);
  }
  return out;
}

/** A field error from validateLabelSelector. */
export interface LabelSelectorFieldError {
  field: string;
  message: string;
}

/**
 * ValidateLabelSelector (metav1 validation) for API objects that embed a
 * LabelSelector; `path` is the selector's field path, e.g. `spec.selector`.
 */
export function validateLabelSelector(ls: LabelSelector | undefined | null, path: string): LabelSelectorFieldError[] {
  const errs: LabelSelectorFieldError[] = [];
  if (!ls) return errs;
  (ls.matchExpressions ?? []).forEach((req, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push({ field: `${p}.values`, message: "Required value: must be specified when `operator` is 'In' or 'NotIn'" });
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push({ field: `${p}.values`, message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'" });
        }
        break;
      default:
        errs.push({ field: `${p}.operator`, message: `Invalid value: ${quote(String(req.operator))}: not a valid selector operator` });
    }
    for (const msg of qualifiedNameErrors(req.key ?? '')) {
      errs.push({ field: `${p}.key`, message: `Invalid value: ${quote(req.key ?? '')}: ${msg}` });
    }
    values.forEach((v, j) => {
      for (const msg of labelValueErrors(v)) errs.push({ field: `${p}.values[${j}]`, message: `Invalid value: ${quote(v)}: ${msg}` });
    });
  });
  for (const message of validateLabels(ls.matchLabels)) errs.push({ field: `${path}.matchLabels`, message });
  return errs;
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
function compareStrings(a: string, b: string): number {
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

const VALID_OPERATORS: readonly Operator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt', 'exists', '!'];

function labelKeyError(key: string): string | undefined {
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
        if (parseInt64(v) === undefined) throw new SelectorParseError("for 'Gt', 'Lt' operators, the value must be an integer");
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
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
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

/** The string form of a metav1.LabelSelector (FormatLabelSelector without the "<none>"). */
export function labelSelectorToString(ls: LabelSelector | undefined | null): string {
  return selectorFromLabelSelector(ls).toString();
}

// ---------------------------------------------------------------------------
// The string grammar: a lexer and a recursive-descent parser as upstream has.

enum Token {
  Error,
  EndOfString,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

const STRING_TO_TOKEN: ReadonlyMap<string, Token> = new Map([
  [')', Token.ClosedPar],
  [',', Token.Comma],
  ['!', Token.DoesNotExist],
  ['==', Token.DoubleEquals],
  ['=', Token.Equals],
  ['>', Token.GreaterThan],
  ['in', Token.In],
  ['<', Token.LessThan],
  ['!=', Token.NotEquals],
  ['notin', Token.NotIn],
  ['(', Token.OpenPar],
]);

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

interface Item {
  tok: Token;
  lit: string;
}

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';
}

function lex(input: string): Item[] {
  // Upstream's lexer reads a NUL byte as the end of the input.
  const nul = input.indexOf('\0');
  const s = nul >= 0 ? input.slice(0, nul) : input;
  const items: Item[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && isWhitespace(s[pos])) pos++;
    if (pos >= s.length) {
      items.push({ tok: Token.EndOfString, lit: '' });
      return items;
    }
    if (isSpecialSymbol(s[pos])) {
      // longest run of special characters that still forms a token
      let buffer = '';
      let last: Item | undefined;
      while (pos < s.length && isSpecialSymbol(s[pos])) {
        const next = buffer + s[pos];
        const tok = STRING_TO_TOKEN.get(next);
        if (tok !== undefined) {
          last = { tok, lit: next };
        } else if (last) {
          break;
        }
        buffer = next;
        pos++;
      }
      items.push(last ?? { tok: Token.Error, lit: `error expected: keyword found '${buffer}'` });
      continue;
    }
    const start = pos;
    while (pos < s.length && !isSpecialSymbol(s[pos]) && !isWhitespace(s[pos])) pos++;
    const word = s.slice(start, pos);
    const kw = STRING_TO_TOKEN.get(word);
    items.push({ tok: kw ?? Token.Identifier, lit: word });
  }
}

enum Context {
  KeyAndOperator,
  Values,
}

class Parser {
  private readonly items: Item[];
  private position = 0;

  constructor(input: string) {
    this.items = lex(input);
  }

  private at(i: number, ctx: Context): Item {
    const item = this.items[Math.min(i, this.items.length - 1)];
    if (ctx === Context.Values && (item.tok === Token.In || item.tok === Token.NotIn)) {
      return { tok: Token.Identifier, lit: item.lit };
    }
    return item;
  }

  private lookahead(ctx: Context): Item {
    return this.at(this.position, ctx);
  }

  private consume(ctx: Context): Item {
    const item = this.at(this.position, ctx);
    this.position++;
    return item;
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead(Context.Values);
      switch (tok) {
        case Token.Identifier:
        case Token.DoesNotExist: {
          let r: Requirement;
          try {
            r = this.parseRequirement();
          } catch (e) {
            if (e instanceof SelectorParseError) throw new SelectorParseError(`unable to parse requirement: ${e.message}`);
            throw e;
          }
          reqs.push(r);
          const t = this.consume(Context.Values);
          if (t.tok === Token.EndOfString) return reqs;
          if (t.tok === Token.Comma) {
            const t2 = this.lookahead(Context.Values);
            if (t2.tok !== Token.Identifier && t2.tok !== Token.DoesNotExist) {
              throw new SelectorParseError(`found '${t2.lit}', expected: identifier after ','`);
            }
            break;
          }
          throw new SelectorParseError(`found '${t.lit}', expected: ',' or 'end of string'`);
        }
        case Token.EndOfString:
          return reqs;
        default:
          throw new SelectorParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): Requirement {
    const [key, inferred] = this.parseKeyAndInferOperator();
    if (inferred === 'exists' || inferred === '!') return newRequirement(key, inferred, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, op, [...values].sort(compareStrings));
  }

  private parseKeyAndInferOperator(): [string, Operator | undefined] {
    let op: Operator | undefined;
    let item = this.consume(Context.Values);
    if (item.tok === Token.DoesNotExist) {
      op = '!';
      item = this.consume(Context.Values);
    }
    if (item.tok !== Token.Identifier) throw new SelectorParseError(`found '${item.lit}', expected: identifier`);
    const keyErr = labelKeyError(item.lit);
    if (keyErr) throw new SelectorParseError(keyErr);
    const next = this.lookahead(Context.Values).tok;
    if ((next === Token.EndOfString || next === Token.Comma) && op !== '!') op = 'exists';
    return [item.lit, op];
  }

  private parseOperator(): Operator {
    const { tok, lit } = this.consume(Context.KeyAndOperator);
    switch (tok) {
      case Token.In:
        return 'in';
      case Token.Equals:
        return '=';
      case Token.DoubleEquals:
        return '==';
      case Token.GreaterThan:
        return 'gt';
      case Token.LessThan:
        return 'lt';
      case Token.NotIn:
        return 'notin';
      case Token.NotEquals:
        return '!=';
      default:
        throw new SelectorParseError(`found '${lit}', expected: ${BINARY_OPERATORS}`);
    }
  }

  private parseValues(): Set<string> {
    const open = this.consume(Context.Values);
    if (open.tok !== Token.OpenPar) throw new SelectorParseError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead(Context.Values);
    switch (tok) {
      case Token.Identifier:
      case Token.Comma: {
        const s = this.parseIdentifiersList();
        if (this.consume(Context.Values).tok !== Token.ClosedPar) throw new SelectorParseError(`found '${lit}', expected: ')'`);
        return s;
      }
      case Token.ClosedPar:
        this.consume(Context.Values);
        return new Set(['']);
      default:
        throw new SelectorParseError(`found '${lit}', expected: ',', ')' or identifier`);
    }
  }

  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume(Context.Values);
      switch (tok) {
        case Token.Identifier: {
          s.add(lit);
          const next = this.lookahead(Context.Values);
          if (next.tok === Token.Comma) continue;
          if (next.tok === Token.ClosedPar) return s;
          throw new SelectorParseError(`found '${next.lit}', expected: ',' or ')'`);
        }
        case Token.Comma: {
          // "(," and ",," and ",)" all stand for the empty value
          if (s.size === 0) s.add('');
          const next = this.lookahead(Context.Values).tok;
          if (next === Token.ClosedPar) {
            s.add('');
            return s;
          }
          if (next === Token.Comma) s.add('');
          break;
        }
        default:
          throw new SelectorParseError(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead(Context.Values).tok;
    if (next === Token.EndOfString || next === Token.Comma) return new Set(['']);
    const { tok, lit } = this.consume(Context.Values);
    if (tok === Token.Identifier) return new Set([lit]);
    throw new SelectorParseError(`found '${lit}', expected: identifier`);
  }
}

/**
 * labels.Parse: the selector string grammar. The empty string selects
 * everything. Requirements come out sorted by key. Throws SelectorParseError.
 */
export function parseSelector(s: string): Selector {
  const reqs = new Parser(s).parse();
  return new InternalSelector(reqs.sort(byKey));
}

/** Whether `op` is one of the selection operators. */
export function isOperator(op: string): op is Operator {
  return (VALID_OPERATORS as readonly string[]).includes(op);
}

/** Parses --node-labels syntax: key=value,key2=value2. */
export function parseLabels(spec: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new Error(`invalid label: ${item} (want key=value)`);
    out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

/**
 * Field selectors as apimachinery/pkg/fields implements them: comma-separated
 * `field=value`, `field==value` and `field!=value` terms, ANDed, with `\,`,
 * `\=` and `\\` escapes in values.
 */

export type Fields = Record<string, string>;

export type FieldOperator = '=' | '!=';

export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldOperator;
  readonly value: string;
}

export class FieldSelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldSelectorParseError';
  }
}

/** Rewrites a term's field and value (e.g. to map legacy field names); may throw. */
export type FieldTransform = (field: string, value: string) => [string, string];

export interface FieldSelector {
  /** Whether the fields satisfy every term; a missing field reads as "". */
  matches(fields: Fields): boolean;
  /** True when the selector does not restrict anything. */
  empty(): boolean;
  toString(): string;
  requirements(): readonly FieldRequirement[];
  /** The value a field must have for the selector to match, if it pins one. */
  requiresExactMatch(field: string): string | undefined;
  transform(fn: FieldTransform): FieldSelector;
}

function get(fields: Fields, field: string): string {
  return fields && Object.hasOwn(fields, field) ? fields[field] : '';
}

/** EscapeValue: `\` → `\\`, `,` → `\,`, `=` → `\=`. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** UnescapeValue: the inverse; rejects unknown escapes and bare `,` or `=`. */
export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') {
        out += c;
        inSlash = false;
        continue;
      }
      throw new FieldSelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
    }
    if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // upstream formats the rune with %v, which prints its code point
      throw new FieldSelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw new FieldSelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

class Term implements FieldSelector {
  constructor(
    readonly field: string,
    readonly operator: FieldOperator,
    readonly value: string,
  ) {}

  matches(fields: Fields): boolean {
    const v = get(fields, this.field);
    return this.operator === '=' ? v === this.value : v !== this.value;
  }

  empty(): boolean {
    return false;
  }

  toString(): string {
    return `${this.field}${this.operator}${escapeFieldValue(this.value)}`;
  }

  requirements(): readonly FieldRequirement[] {
    return [{ field: this.field, operator: this.operator, value: this.value }];
  }

  requiresExactMatch(field: string): string | undefined {
    return this.operator === '=' && this.field === field ? this.value : undefined;
  }

  transform(fn: FieldTransform): FieldSelector {
    const [field, value] = fn(this.field, this.value);
    return new Term(field, this.operator, value);
  }
}

class AndTerm implements FieldSelector {
  private readonly terms: readonly FieldSelector[];

  constructor(terms: readonly FieldSelector[]) {
    this.terms = Object.freeze([...terms]);
  }

  matches(fields: Fields): boolean {
    return this.terms.every((t) => t.matches(fields));
  }

  empty(): boolean {
    return this.terms.every((t) => t.empty());
  }

  toString(): string {
    return this.terms.map((t) => t.toString()).join(',');
  }

  requirements(): readonly FieldRequirement[] {
    return this.terms.flatMap((t) => t.requirements());
  }

  requiresExactMatch(field: string): string | undefined {
    for (const t of this.terms) {
      const v = t.requiresExactMatch(field);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  transform(fn: FieldTransform): FieldSelector {
    return new AndTerm(this.terms.map((t) => t.transform(fn)));
  }
}

const EVERYTHING: FieldSelector = new AndTerm([]);

/** Matches everything. */
export function everythingFields(): FieldSelector {
  return EVERYTHING;
}

/** SelectorFromSet: field=value for each pair; undefined → everything. */
export function fieldSelectorFromSet(set: Readonly<Record<string, string>> | undefined | null): FieldSelector {
  if (!set) return EVERYTHING;
  const terms = Object.entries(set).map(([f, v]) => new Term(f, '=', v));
  return terms.length === 1 ? terms[0] : new AndTerm(terms);
}

/** OneTermEqualSelector. */
export function oneTermEqualSelector(field: string, value: string): FieldSelector {
  return new Term(field, '=', value);
}

/** Splits on commas not escaped by a backslash, keeping the escapes. */
function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

/** The first operator occurrence splits the term; the field part has no escaping. */
function splitTerm(term: string): [string, (typeof TERM_OPERATORS)[number], string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

/**
 * fields.ParseSelector. The empty string selects everything; terms are kept
 * in sorted order of their source text, as upstream does. Throws
 * FieldSelectorParseError.
 */
export function parseFieldSelector(selector: string, transform?: FieldTransform): FieldSelector {
  const parts = splitTerms(selector).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const items: FieldSelector[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw new FieldSelectorParseError(`invalid selector: '${selector}'; can't understand '${part}'`);
    const [field, op, rhs] = split;
    items.push(new Term(field, op === '!=' ? '!=' : '=', unescapeFieldValue(rhs)));
  }
  const sel = items.length === 1 ? items[0] : new AndTerm(items);
  return transform ? sel.transform(transform) : sel;
}

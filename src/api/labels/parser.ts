import {
  compareStrings,
  everything,
  labelKeyError,
  newRequirement,
  Operator,
  Requirement,
  Selector,
  SelectorParseError,
} from './selector';

/**
 * labels.Parse: the selector string grammar (`a=b,c in (x,y),!d,e>1`), a lexer and a
 * recursive-descent parser as apimachinery/pkg/labels/selector.go has. One algorithm.
 */

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
            if (e instanceof SelectorParseError)
              throw new SelectorParseError(`unable to parse requirement: ${e.message}`);
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
        if (this.consume(Context.Values).tok !== Token.ClosedPar)
          throw new SelectorParseError(`found '${lit}', expected: ')'`);
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
  return everything().add(...reqs);
}

/** Parses --node-labels syntax: key=value,key2=value2. */
export function parseLabels(spec: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new Error(`invalid label: ${item} (want key=value)`);
    out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

import * as yaml from 'js-yaml';

/**
 * YAML as Kubernetes reads it. kubectl and the API server turn YAML into JSON with
 * sigs.k8s.io/yaml, which parses with go-yaml v2 (YAML 1.1): plain scalars resolve by
 * go-yaml's resolve.go, not by YAML 1.2's core schema that js-yaml 4 follows. The
 * differences a manifest meets:
 *   - y, Y, yes, Yes, YES, on, On, ON are true; n, N, no, No, NO, off, Off, OFF are false;
 *   - 017 is octal (15), 0x1F hex, 0b101 and 0o17 binary and octal (strconv.ParseInt base 0),
 *     underscores are dropped first (1_000 is 1000); 08 is not octal, so it is the float 8;
 *   - 2020-01-01 stays the string "2020-01-01" (go-yaml v2 hands timestamps to an
 *     interface{} as the text written), where js-yaml makes a Date;
 *   - the first character decides what a scalar may be (resolve_table): only a digit or a
 *     sign may start a number, "." a float, and _1000 is a string.
 *   - a mapping key resolves too: `on:` or `y:` is the key "true" once sigs.k8s.io/yaml
 *     turns the document into JSON (js-yaml stringifies keys the same way).
 * Everything else (null spellings, merge keys, .inf/.nan) matches. One schema for every
 * reader: steps' manifests, the API server's YAML bodies, the scheduler's Policy file.
 */

const BOOL_TAG = 'tag:yaml.org,2002:bool';
const INT_TAG = 'tag:yaml.org,2002:int';
const FLOAT_TAG = 'tag:yaml.org,2002:float';
const NULL_TAG = 'tag:yaml.org,2002:null';
const MERGE_TAG = 'tag:yaml.org,2002:merge';
const STR_TAG = 'tag:yaml.org,2002:str';

type Resolved = { tag: string; value: unknown };

/** resolve.go's resolveMapList: the spellings looked up whole. */
const RESOLVE_MAP = new Map<string, Resolved>();
const spell = (tag: string, value: unknown, words: string[]) => {
  for (const w of words) RESOLVE_MAP.set(w, { tag, value });
};
spell(BOOL_TAG, true, ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
spell(BOOL_TAG, false, ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
spell(NULL_TAG, null, ['', '~', 'null', 'Null', 'NULL']);
spell(FLOAT_TAG, Number.NaN, ['.nan', '.NaN', '.NAN']);
spell(FLOAT_TAG, Number.POSITIVE_INFINITY, ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']);
spell(FLOAT_TAG, Number.NEGATIVE_INFINITY, ['-.inf', '-.Inf', '-.INF']);

/** resolve_table: what a scalar's first character lets it be. */
function hint(c: string | undefined): 'S' | 'D' | 'M' | '.' | 'N' | undefined {
  if (c === undefined) return 'N';
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return undefined;
}

/** go-yaml's yamlStyleFloat. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/**
 * strconv.ParseInt(s, 0, 64) (with ParseUint's wider range folded in): an optional sign,
 * then 0x/0X hex, 0o/0O or a bare leading 0 octal, 0b/0B binary, else decimal.
 */
function parseGoInt(s: string): number | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const body = m[2];
  // BigInt: the bounds of int64 and uint64 are past a double's exact integers.
  let v: bigint;
  if (/^0[xX]/.test(body)) v = BigInt(`0x${body.slice(2)}`);
  else if (/^0[oO]/.test(body)) v = BigInt(`0o${body.slice(2)}`);
  else if (/^0[bB]/.test(body)) v = BigInt(`0b${body.slice(2)}`);
  else if (body.length > 1 && body[0] === '0') v = BigInt(`0o${body.slice(1)}`);
  else v = BigInt(body);
  const signed = m[1] === '-' ? -v : v;
  // Past uint64 (or below int64), ParseInt and ParseUint both fail: the float rule decides.
  if (signed > 18446744073709551615n || signed < -9223372036854775808n) return undefined;
  return Number(signed);
}

/** go-yaml v2's resolve() for a plain (untagged) scalar. */
export function resolvePlain(text: string): Resolved {
  const h = hint(text[0]);
  if (h === undefined) return { tag: STR_TAG, value: text };
  const known = RESOLVE_MAP.get(text);
  if (known) return known;
  if (h === '.') {
    // strconv.ParseFloat of the text as written (".5", ".5e3").
    if (/^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(text)) return { tag: FLOAT_TAG, value: Number(text) };
  } else if (h === 'D' || h === 'S') {
    // A timestamp (YYYY-…) would be tried first; into an interface{} it stays its text, which
    // is what falling through to a string gives.
    const plain = text.replaceAll('_', '');
    const int = parseGoInt(plain);
    if (int !== undefined) return { tag: INT_TAG, value: int };
    if (YAML_STYLE_FLOAT.test(plain)) return { tag: FLOAT_TAG, value: Number(plain) };
  }
  return { tag: STR_TAG, value: text };
}

/** A js-yaml implicit type that takes the plain scalars resolvePlain gives its tag. */
function resolvedType(tag: string): yaml.Type {
  return new yaml.Type(tag, {
    kind: 'scalar',
    resolve: (data: string | null) => resolvePlain(data ?? '').tag === tag,
    construct: (data: string | null) => resolvePlain(data ?? '').value,
  });
}

/**
 * The merge key: go-yaml's decoder knows "<<" by its text (isMerge), not by resolve ('<' is
 * in no class of the table, so as a value "<<" is a string); js-yaml knows it by this tag.
 */
const MERGE_KEY = new yaml.Type(MERGE_TAG, { kind: 'scalar', resolve: (data: string | null) => data === '<<' });

/**
 * The schema: YAML's failsafe types (strings, sequences, mappings) plus go-yaml v2's
 * implicit null, bool, int, float and merge; no timestamp type.
 */
export const KUBERNETES_YAML_SCHEMA = yaml.FAILSAFE_SCHEMA.extend({
  implicit: [...[NULL_TAG, BOOL_TAG, INT_TAG, FLOAT_TAG].map(resolvedType), MERGE_KEY],
});

/** One YAML document, read as sigs.k8s.io/yaml reads it. */
export function loadKubernetesYaml(text: string): unknown {
  return yaml.load(text, { schema: KUBERNETES_YAML_SCHEMA });
}

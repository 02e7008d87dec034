// Label selectors: vectors from apimachinery's labels/selector_test.go and
// meta/v1 helpers (LabelSelectorAsSelector), plus key/value validation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  everything,
  nothing,
  matchesNothing,
  newRequirement,
  selectorFromLabelSelector,
  selectorFromSet,
  validatedSelectorFromSet,
  SelectorParseError,
  Requirement,
  type Labels,
  type Operator,
} from '../../src/api/labels/selector';
import { parseSelector } from '../../src/api/labels/parser';
import { validateLabels, validateLabelSelector } from '../../src/api/validation/labels';
import {
  isQualifiedName,
  isValidLabelValue,
  qualifiedNameErrors,
  labelValueErrors,
} from '../../src/api/validation/names';

test('parse and restring (TestSelectorParse)', () => {
  const good = ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5'];
  for (const s of good) assert.equal(parseSelector(s).toString(), s.replace(/ /g, ''), s);
  const bad = ['x=a||y=b', 'x==a==b', '!x=a', 'x<a'];
  for (const s of bad) assert.throws(() => parseSelector(s), SelectorParseError, s);
});

test('parsing is deterministic (sorted by key)', () => {
  assert.equal(parseSelector('x=a,a=x').toString(), parseSelector('a=x,x=a').toString());
  assert.equal(parseSelector('x=a,a=x').toString(), 'a=x,x=a');
});

test('matching (TestSelectorMatches)', () => {
  const yes: [string, Labels][] = [
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['notin=in', { notin: 'in' }],
    ['x', { x: 'z' }],
    ['!x', { y: 'z' }],
    ['x>1', { x: '2' }],
    ['x<1', { x: '0' }],
    ['foo=bar', { foo: 'bar', baz: 'blah' }],
    ['foo=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
    ['x in (a,b)', { x: 'b' }],
    ['x notin (a,b)', { x: 'c' }],
    ['x notin (a,b)', {}],
    ['x==y', { x: 'y' }],
  ];
  const no: [string, Labels | undefined][] = [
    ['x=z', {}],
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
    ['x', { y: 'z' }],
    ['!x', { x: 'z' }],
    ['x>1', { x: '0' }],
    ['x<1', { x: '2' }],
    ['x>1', { x: 'v2' }],
    ['x>1', {}],
    ['foo=blah', { foo: 'bar', baz: 'blah' }],
    ['foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
    ['x in (a,b)', {}],
    ['x', undefined],
    // a key that happens to be a property of Object.prototype is still just absent
    ['constructor', {}],
  ];
  for (const [s, l] of yes) assert.ok(parseSelector(s).matches(l), `${s} should match ${JSON.stringify(l)}`);
  for (const [s, l] of no) assert.ok(!parseSelector(s).matches(l), `${s} should not match ${JSON.stringify(l)}`);
  assert.ok(parseSelector('!constructor').matches({}));
});

test('set-based grammar (TestSetSelectorParser)', () => {
  const parsed: [string, string][] = [
    ['', ''],
    ['\rx', 'x'],
    ['this-is-a-dns.domain.com/key-with-dash', 'this-is-a-dns.domain.com/key-with-dash'],
    [
      'this-is-another-dns.domain.com/key-with-dash in (so,what)',
      'this-is-another-dns.domain.com/key-with-dash in (so,what)',
    ],
    ['0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)', '0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)'],
    ['foo  in\t (abc)', 'foo in (abc)'],
    ['x notin\n (abc)', 'x notin (abc)'],
    ['x  notin\t\t\t(abc,def)', 'x notin (abc,def)'],
    ['x in (abc,def)', 'x in (abc,def)'],
    ['x in (abc,)', 'x in (,abc)'],
    ['x in ()', 'x in ()'],
    ['x notin (abc,,def),bar,z in (),w', 'bar,w,x notin (,abc,def),z in ()'],
    ['x,y in (a)', 'x,y in (a)'],
    ['x,y', 'x,y'],
    ['x=a', 'x=a'],
    ['x>1', 'x>1'],
    ['x<7', 'x<7'],
    ['x=a,y!=b', 'x=a,y!=b'],
    ['x=a,y!=b,z in (h,i,j)', 'x=a,y!=b,z in (h,i,j)'],
    ['x notin ( )', 'x notin ()'],
    ['x notin (, a)', 'x notin (,a)'],
    ['a ', 'a'],
    ['a in (x,y,notin, z,in)', 'a in (in,notin,x,y,z)'],
    ['x in (b,a,b)', 'x in (a,b)'],
  ];
  for (const [s, out] of parsed) assert.equal(parseSelector(s).toString(), out, JSON.stringify(s));
  const invalid = [
    'x=a||y=b',
    'x,,y',
    ',x,y',
    'x nott in (y)',
    'a in (xyz),',
    'a in (xyz)b notin ()',
    'a in (xyz abc)',
    'a notin(',
    'a (',
    '(',
  ];
  for (const s of invalid) assert.throws(() => parseSelector(s), SelectorParseError, JSON.stringify(s));

  const sel = parseSelector('x notin (abc,,def),bar,z in (),w');
  assert.deepEqual(
    sel.requirements().map((r) => [r.key, r.operator, [...r.values]]),
    [
      ['bar', 'exists', []],
      ['w', 'exists', []],
      ['x', 'notin', ['', 'abc', 'def']],
      ['z', 'in', ['']],
    ],
  );
});

test('error messages read like upstream', () => {
  const msg = (s: string): string => {
    try {
      parseSelector(s);
    } catch (e) {
      return (e as Error).message;
    }
    return '';
  };
  assert.equal(msg('x==a==b'), "found '==', expected: ',' or 'end of string'");
  assert.equal(msg(',x'), "found ',', expected: !, identifier, or 'end of string'");
  assert.equal(msg('x,'), "found '', expected: identifier after ','");
  assert.equal(msg('x<a'), "unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer");
  assert.equal(
    msg('x nott in (y)'),
    "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt",
  );
  assert.equal(msg('a notin('), "unable to parse requirement: found '', expected: ',', ')' or identifier");
  assert.match(
    msg('Bad_Key_=x'),
    /^unable to parse requirement: invalid label key "Bad_Key_": name part must consist of alphanumeric characters/,
  );
  assert.match(
    msg('k=v@l'),
    /^unable to parse requirement: invalid label value: "v@l": at key: "k": a valid label must be an empty string/,
  );
});

test('requirements (TestRequirementConstructor, TestToString)', () => {
  const cases: [string, Operator, string[], boolean][] = [
    ['x', 'in', [], false],
    ['x', 'notin', [], false],
    ['x', 'in', ['foo'], true],
    ['x', 'notin', ['foo'], true],
    ['x', 'exists', [], true],
    ['x', '!', [], true],
    ['1foo', 'in', ['bar'], true],
    ['1234', 'in', ['bar'], true],
    ['y', 'gt', ['1'], true],
    ['z', 'lt', ['6'], true],
    ['foo', 'gt', ['bar'], false],
    ['barz', 'lt', ['blah'], false],
    ['x', '=', ['a', 'b'], false],
    ['x', 'exists', ['a'], false],
    ['a'.repeat(254), 'exists', [], false],
  ];
  for (const [k, op, vals, ok] of cases) {
    if (ok) assert.doesNotThrow(() => newRequirement(k, op, vals), `${k} ${op} ${vals}`);
    else assert.throws(() => newRequirement(k, op, vals), SelectorParseError, `${k} ${op} ${vals}`);
  }
  const str = (reqs: Requirement[]): string =>
    everything()
      .add(...reqs)
      .toString();
  assert.equal(
    str([
      newRequirement('x', 'in', ['abc', 'def']),
      newRequirement('y', 'notin', ['jkl']),
      newRequirement('z', 'exists'),
    ]),
    'x in (abc,def),y notin (jkl),z',
  );
  assert.equal(
    str([newRequirement('x', 'notin', ['def', 'abc']), newRequirement('y', '!=', ['jkl']), newRequirement('z', '!')]),
    'x notin (abc,def),y!=jkl,!z',
  );
  assert.equal(
    str([
      newRequirement('x', '=', ['abc']),
      newRequirement('y', '==', ['jkl']),
      newRequirement('z', '!=', ['a']),
      newRequirement('z', 'exists'),
    ]),
    'x=abc,y==jkl,z!=a,z',
  );
  assert.equal(
    str([newRequirement('x', 'gt', ['2']), newRequirement('y', 'lt', ['8']), newRequirement('z', 'exists')]),
    'x>2,y<8,z',
  );
});

test('requirement matching (TestRequirementSelectorMatching)', () => {
  const m = (l: Labels, ...reqs: Requirement[]): boolean =>
    everything()
      .add(...reqs)
      .matches(l);
  assert.ok(m({ x: 'foo', y: 'baz' }, newRequirement('x', 'in', ['foo']), newRequirement('y', 'notin', ['alpha'])));
  assert.ok(!m({ x: 'foo', y: 'baz' }, newRequirement('x', 'in', ['foo']), newRequirement('y', 'in', ['alpha'])));
  assert.ok(m({ y: '' }, newRequirement('x', 'notin', ['']), newRequirement('y', 'exists')));
  assert.ok(m({ y: '' }, newRequirement('x', '!'), newRequirement('y', 'exists')));
  assert.ok(!m({ y: '' }, newRequirement('x', 'notin', ['']), newRequirement('y', '!')));
  assert.ok(!m({ y: 'baz' }, newRequirement('x', 'in', [''])));
  assert.ok(m({ z: '2' }, newRequirement('z', 'gt', ['1'])));
  assert.ok(!m({ z: 'v2' }, newRequirement('z', 'gt', ['1'])));
  assert.ok(m({ z: '-5' }, newRequirement('z', 'lt', ['4'])));
  // label values cannot start with '-', so negative bounds are rejected as upstream rejects them
  assert.throws(() => newRequirement('z', 'lt', ['-4']), SelectorParseError);
});

test('everything, nothing and sets', () => {
  assert.ok(everything().matches({ x: 'y' }));
  assert.ok(everything().empty());
  assert.equal(everything().toString(), '');
  assert.ok(!nothing().matches({}));
  assert.ok(!nothing().empty());
  assert.ok(matchesNothing(nothing()));
  assert.ok(!matchesNothing(everything()));
  assert.deepEqual(nothing().requirements(), []);

  const labelset = { foo: 'bar', baz: 'blah' };
  assert.ok(selectorFromSet({}).matches(labelset));
  assert.ok(selectorFromSet({}).empty());
  assert.ok(selectorFromSet(undefined).empty());
  assert.ok(selectorFromSet({ foo: 'bar' }).matches(labelset));
  assert.ok(selectorFromSet({ foo: 'bar', baz: 'blah' }).matches(labelset));
  assert.ok(!selectorFromSet({ foo: '=blah' }).matches(labelset));
  assert.equal(selectorFromSet({ b: '2', a: '1' }).toString(), 'a=1,b=2');
  assert.throws(() => validatedSelectorFromSet({ 'bad key!': 'x' }), SelectorParseError);
});

test('requiresExactMatch', () => {
  assert.equal(parseSelector('app=web,tier in (fe)').requiresExactMatch('app'), 'web');
  assert.equal(parseSelector('app=web,tier in (fe)').requiresExactMatch('tier'), 'fe');
  assert.equal(parseSelector('app in (a,b)').requiresExactMatch('app'), undefined);
  assert.equal(parseSelector('app!=a').requiresExactMatch('app'), undefined);
  assert.equal(parseSelector('x=').requiresExactMatch('x'), '');
  assert.equal(everything().requiresExactMatch('x'), undefined);
});

test('LabelSelectorAsSelector', () => {
  assert.ok(matchesNothing(selectorFromLabelSelector(undefined)));
  assert.ok(matchesNothing(selectorFromLabelSelector(null)));
  assert.ok(selectorFromLabelSelector({}).empty());
  assert.ok(selectorFromLabelSelector({ matchLabels: {}, matchExpressions: [] }).matches({ any: 'thing' }));

  const sel = selectorFromLabelSelector({
    matchLabels: { app: 'web' },
    matchExpressions: [
      { key: 'tier', operator: 'In', values: ['fe', 'be'] },
      { key: 'canary', operator: 'DoesNotExist' },
      { key: 'env', operator: 'NotIn', values: ['dev'] },
      { key: 'zone', operator: 'Exists' },
    ],
  });
  assert.equal(sel.toString(), 'app=web,!canary,env notin (dev),tier in (be,fe),zone');
  assert.ok(sel.matches({ app: 'web', tier: 'fe', zone: 'a' }));
  assert.ok(!sel.matches({ app: 'web', tier: 'fe', zone: 'a', canary: 'true' }));
  assert.ok(!sel.matches({ app: 'web', tier: 'fe', zone: 'a', env: 'dev' }));
  assert.ok(!sel.matches({ app: 'web', tier: 'mid', zone: 'a' }));
  assert.ok(!sel.matches({ app: 'web', tier: 'fe' }));

  assert.throws(
    () => selectorFromLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Gt' as 'In', values: ['1'] }] }),
    { message: '"Gt" is not a valid label selector operator' },
  );
  assert.throws(
    () => selectorFromLabelSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }),
    SelectorParseError,
  );
  assert.throws(() => selectorFromLabelSelector({ matchLabels: { a: 'b c' } }), SelectorParseError);
});

test('label key and value syntax', () => {
  for (const k of [
    'a',
    'A',
    'a-b',
    'a_b',
    'a.b',
    '1',
    'example.com/a',
    'k8s.io/a.b_c-d',
    'a'.repeat(63),
    `${'a'.repeat(253)}/b`,
  ]) {
    assert.ok(isQualifiedName(k), k);
  }
  for (const k of [
    '',
    '-a',
    'a-',
    '_a',
    'a/b/c',
    '/a',
    'a/',
    'Example.com/a',
    'a'.repeat(64),
    `${'a'.repeat(254)}/b`,
    'a b',
    'a@b',
  ]) {
    assert.ok(!isQualifiedName(k), JSON.stringify(k));
  }
  for (const v of ['', 'a', 'A-b_c.d', '1', 'a'.repeat(63)]) assert.ok(isValidLabelValue(v), v);
  for (const v of ['-a', 'a-', 'a b', 'a'.repeat(64), 'a/b']) assert.ok(!isValidLabelValue(v), v);

  assert.deepEqual(qualifiedNameErrors('/a'), ['prefix part must be non-empty']);
  assert.deepEqual(qualifiedNameErrors('a/'), [
    'name part must be non-empty',
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  ]);
  assert.deepEqual(qualifiedNameErrors('a/b/c'), [
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]);
  assert.deepEqual(labelValueErrors('a'.repeat(64)), ['must be no more than 63 characters']);
  assert.match(qualifiedNameErrors('Example.com/a')[0], /^prefix part a lowercase RFC 1123 subdomain must consist of/);
});

test('validateLabels and validateLabelSelector', () => {
  assert.deepEqual(validateLabels({ app: 'web', 'example.com/tier': '' }), []);
  assert.deepEqual(validateLabels(undefined), []);
  const errs = validateLabels({ 'bad key': 'ok', good: 'bad value' });
  assert.equal(errs.length, 2);
  assert.match(errs[0], /^Invalid value: "bad key": name part must consist of/);
  assert.match(errs[1], /^Invalid value: "bad value": a valid label must be an empty string/);

  assert.deepEqual(
    validateLabelSelector(
      { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'c', operator: 'Exists' }] },
      'spec.selector',
    ),
    [],
  );
  const selErrs = validateLabelSelector(
    {
      matchLabels: { a: '-' },
      matchExpressions: [
        { key: 'c', operator: 'In' },
        { key: 'd', operator: 'Exists', values: ['x'] },
        { key: 'e', operator: 'Bogus' as 'In' },
      ],
    },
    'spec.selector',
  );
  assert.deepEqual(
    selErrs.map((e) => e.field),
    [
      'spec.selector.matchExpressions[0].values',
      'spec.selector.matchExpressions[1].values',
      'spec.selector.matchExpressions[2].operator',
      'spec.selector.matchLabels',
    ],
  );
  assert.equal(selErrs[0].message, "Required value: must be specified when `operator` is 'In' or 'NotIn'");
  assert.equal(selErrs[2].message, 'Invalid value: "Bogus": not a valid selector operator');
});

// Field selectors: vectors from apimachinery's fields/selector_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  escapeFieldValue,
  everythingFields,
  fieldSelectorFromSet,
  FieldSelectorParseError,
  oneTermEqualSelector,
  parseFieldSelector,
  unescapeFieldValue,
  type Fields,
} from '../../src/api/fields';

test('escaping (TestEscapeValue)', () => {
  const cases: [string, string][] = [
    ['', ''],
    ['a', 'a'],
    ['=', '\\='],
    [',', '\\,'],
    ['\\', '\\\\'],
    ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\'],
  ];
  for (const [raw, escaped] of cases) {
    assert.equal(escapeFieldValue(raw), escaped);
    assert.equal(unescapeFieldValue(escaped), raw);
  }
  for (const bad of ['\\', '\\\\\\', '\\a']) {
    assert.throws(
      () => unescapeFieldValue(bad),
      (e: unknown) => e instanceof FieldSelectorParseError && /invalid escape sequence/.test(e.message),
    );
  }
  assert.throws(() => unescapeFieldValue('a=b'), {
    message: 'invalid field selector: unescaped character in value: 61',
  });
});

test('parse and restring (TestSelectorParse)', () => {
  const good = ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=a||y\\=b', 'x=a\\=\\=b'];
  for (const s of good) assert.equal(parseFieldSelector(s).toString(), s, s);
  const bad = ['x=a||y=b', 'x==a==b', 'x=a,b', 'x in (a)', 'x in (a,b,c)', 'x'];
  for (const s of bad) assert.throws(() => parseFieldSelector(s), FieldSelectorParseError, s);
  assert.throws(() => parseFieldSelector('x=a,b'), { message: "invalid selector: 'x=a,b'; can't understand 'b'" });
});

test('terms keep the sorted order of their text; == reads as =', () => {
  assert.equal(parseFieldSelector('x=a,a=x').toString(), parseFieldSelector('a=x,x=a').toString());
  assert.equal(parseFieldSelector('spec.nodeName==n1,metadata.name=p').toString(), 'metadata.name=p,spec.nodeName=n1');
  assert.deepEqual(parseFieldSelector('b!=2,a==1').requirements(), [
    { field: 'a', operator: '=', value: '1' },
    { field: 'b', operator: '!=', value: '2' },
  ]);
  // empty terms are skipped, escaped commas are data
  assert.equal(parseFieldSelector(',a=1,').toString(), 'a=1');
  assert.deepEqual(
    parseFieldSelector('k=\\,,k2=v2')
      .requirements()
      .map((r) => [r.field, r.value]),
    [
      ['k2', 'v2'],
      ['k', ','],
    ],
  );
});

test('matching (TestSelectorMatches)', () => {
  const yes: [string, Fields][] = [
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['notin=in', { notin: 'in' }],
  ];
  const no: [string, Fields][] = [
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
  ];
  for (const [s, f] of yes) assert.ok(parseFieldSelector(s).matches(f), s);
  for (const [s, f] of no) assert.ok(!parseFieldSelector(s).matches(f), s);

  const fieldset: Fields = { foo: 'bar', baz: 'blah', complex: '=value\\,\\' };
  assert.ok(parseFieldSelector('foo=bar').matches(fieldset));
  assert.ok(parseFieldSelector('foo=bar,baz=blah').matches(fieldset));
  assert.ok(parseFieldSelector('foo=bar,baz=blah,complex=\\=value\\\\\\,\\\\').matches(fieldset));
  assert.ok(!parseFieldSelector('foo=blah').matches(fieldset));
  assert.ok(!parseFieldSelector('foo=bar,foobar=bar,baz=blah').matches(fieldset));

  // a missing field reads as the empty string
  assert.ok(parseFieldSelector('spec.nodeName=').matches({}));
  assert.ok(parseFieldSelector('spec.nodeName!=n1').matches({}));
  assert.ok(!parseFieldSelector('constructor=x').matches({}));
});

test('everything, sets and single terms', () => {
  assert.ok(everythingFields().matches({ x: 'y' }));
  assert.ok(everythingFields().empty());
  assert.ok(parseFieldSelector('').empty());
  assert.ok(!parseFieldSelector('a=b').empty());
  assert.ok(fieldSelectorFromSet(undefined).empty());
  assert.ok(fieldSelectorFromSet({}).empty());
  assert.ok(fieldSelectorFromSet({ foo: 'bar', baz: 'blah' }).matches({ foo: 'bar', baz: 'blah' }));
  assert.ok(!fieldSelectorFromSet({ foo: '=blah' }).matches({ foo: 'bar' }));
  assert.ok(oneTermEqualSelector('x', 'y').matches({ x: 'y' }));
  assert.ok(!oneTermEqualSelector('x', 'y').matches({ x: 'z' }));
  assert.equal(oneTermEqualSelector('x', 'a,b').toString(), 'x=a\\,b');
});

test('requiresExactMatch (TestRequiresExactMatch)', () => {
  assert.equal(fieldSelectorFromSet({}).requiresExactMatch('test'), undefined);
  assert.equal(oneTermEqualSelector('a', 'b').requiresExactMatch('test'), undefined);
  assert.equal(oneTermEqualSelector('test', 'b').requiresExactMatch('test'), 'b');
  assert.equal(oneTermEqualSelector('test', '').requiresExactMatch('test'), '');
  assert.equal(parseFieldSelector('test!=b').requiresExactMatch('test'), undefined);
  assert.equal(parseFieldSelector('a=1,test=b').requiresExactMatch('test'), 'b');
  assert.equal(
    parseFieldSelector('spec.nodeName=node-1,status.phase!=Failed').requiresExactMatch('spec.nodeName'),
    'node-1',
  );
});

test('transform rewrites fields and values', () => {
  const sel = parseFieldSelector('spec.host=n1,metadata.name=p', (f, v) => [
    f === 'spec.host' ? 'spec.nodeName' : f,
    v,
  ]);
  assert.equal(sel.toString(), 'metadata.name=p,spec.nodeName=n1');
  assert.equal(sel.requiresExactMatch('spec.nodeName'), 'n1');
  assert.throws(
    () =>
      parseFieldSelector('bogus=1').transform(() => {
        throw new FieldSelectorParseError('field label not supported: bogus');
      }),
    FieldSelectorParseError,
  );
});

// YAML as sigs.k8s.io/yaml reads it (go-yaml v2, YAML 1.1), against go-yaml v2's own vectors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as yaml from 'js-yaml';
import { loadKubernetesYaml, resolvePlain } from '../../src/api/yaml';

/** What kubectl sends for a document: the YAML turned into JSON (sigs.k8s.io/yaml.YAMLToJSON). */
const json = (text: string) => JSON.parse(JSON.stringify(loadKubernetesYaml(text)));

test('booleans (decode_test.go unmarshalTests; resolve.go resolveMapList): YAML 1.1 spellings', () => {
  for (const t of ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'])
    assert.deepEqual(json(`v: ${t}`), { v: true }, t);
  for (const f of ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'])
    assert.deepEqual(json(`v: ${f}`), { v: false }, f);
  // decode_test.go: {"canonical: y", true}, {"answer: NO", false}, {"logical: True", true}, {"option: on", true}
  assert.deepEqual(json('canonical: y\nanswer: NO\nlogical: True\noption: on'), {
    canonical: true,
    answer: false,
    logical: true,
    option: true,
  });
  for (const s of ['yEs', 'oN', 'tRUE', 'nO', '"yes"', "'on'"]) assert.equal(typeof json(`v: ${s}`).v, 'string', s);
  // js-yaml 4 (YAML 1.2 core) reads them as strings: the difference this module exists for.
  assert.deepEqual(yaml.load('v: yes'), { v: 'yes' });
});

test('integers (decode_test.go, YAML 1.1 spec example 2.19 as go-yaml v2 reads it): octal, hex, binary, underscores', () => {
  const cases: [string, number][] = [
    ['10', 10],
    ['-10', -10],
    ['+12', 12],
    ['0b10', 2],
    ['0xA', 10],
    ['4294967296', 4294967296],
    ['685230', 685230],
    ['+685_230', 685230], // decimal
    ['02472256', 685230], // octal
    ['0x_0A_74_AE', 685230], // hexa
    ['0b1010_0111_0100_1010_1110', 685230], // bin
    ['-0b101010', -42],
    ['017', 15],
    ['-017', -15],
    ['0x1F', 31],
    ['0o17', 15], // strconv.ParseInt base 0 (Go 1.13+)
    ['1_000', 1000],
    ['0', 0],
  ];
  for (const [text, want] of cases) {
    assert.deepEqual(json(`v: ${text}`), { v: want }, text);
    assert.equal(resolvePlain(text).tag, 'tag:yaml.org,2002:int', text);
  }
  assert.deepEqual(yaml.load('v: 017'), { v: 17 }, 'js-yaml 4 reads 017 as decimal 17');
});

test('floats (decode_test.go, spec example 2.20): yamlStyleFloat after underscores go; 08 and 09 are floats', () => {
  const cases: [string, number][] = [
    ['0.1', 0.1],
    ['.1', 0.1],
    ['-.1', -0.1],
    ['6.8523015e+5', 685230.15], // canonical
    ['685.230_15e+03', 685230.15], // exponential
    ['685_230.15', 685230.15], // fixed
    ['1e3', 1000],
    ['08', 8], // not octal: ParseInt and ParseUint fail, the float rule takes it
    ['09.5', 9.5],
    ['99999999999999999999', 1e20], // past uint64
  ];
  for (const [text, want] of cases) {
    assert.deepEqual(json(`v: ${text}`), { v: want }, text);
    assert.equal(resolvePlain(text).tag, 'tag:yaml.org,2002:float', text);
  }
  assert.equal((loadKubernetesYaml('v: .Inf') as { v: number }).v, Number.POSITIVE_INFINITY);
  assert.equal((loadKubernetesYaml('v: -.inf') as { v: number }).v, Number.NEGATIVE_INFINITY);
  assert.ok(Number.isNaN((loadKubernetesYaml('v: .NaN') as { v: number }).v));
});

test('timestamps stay the text written (decode_test.go: a timestamp into interface{} is a string)', () => {
  for (const t of ['2020-01-01', '2015-02-24T18:19:39Z', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10'])
    assert.deepEqual(json(`v: ${t}`), { v: t }, t);
  assert.ok((yaml.load('v: 2020-01-01') as { v: unknown }).v instanceof Date, 'js-yaml 4 makes a Date');
});

test('strings: what the first character rules out (resolve_table), and quoted scalars', () => {
  for (const s of ['_1000', '12:30', '0x', '1_0x', '+', '+inf', '.', 'abc', '1.2.3', '0o8', '0b2', '"017"', "'1_000'"])
    assert.equal(typeof json(`v: ${s}`).v, 'string', s);
  assert.deepEqual(json('v: "017"'), { v: '017' });
  assert.deepEqual(json('v: 12:30'), { v: '12:30' }, 'no base-60 numbers (resolve.go drops them)');
});

test('nulls, merge keys, and keys that resolve (sigs.k8s.io/yaml stringifies them)', () => {
  for (const n of ['~', 'null', 'Null', 'NULL', '']) assert.deepEqual(json(`v: ${n}`), { v: null }, n);
  assert.deepEqual(json('base: &b { x: 1 }\nr: { <<: *b, y: 2 }'), { base: { x: 1 }, r: { x: 1, true: 2 } });
  assert.deepEqual(json('on: push\n017: a\nno: b'), { true: 'push', '15': 'a', false: 'b' });
  assert.deepEqual(json('v: <<'), { v: '<<' }, 'as a value "<<" is a string');
});

test('a Kubernetes manifest: the values that change meaning', () => {
  const pod = json(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  annotations: { created: 2020-01-01 }
data:
  enabled: yes
  mode: 0644
  limit: 1_000
`);
  assert.deepEqual(pod.metadata.annotations, { created: '2020-01-01' });
  assert.deepEqual(pod.data, { enabled: true, mode: 420, limit: 1000 });
});

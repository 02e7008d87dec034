// The API server's YAML request bodies: read as sigs.k8s.io/yaml reads them, within the alias budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBody } from '../../../src/apiserver/http/decode';
import { isStatusError } from '../../../src/api/errors';

test('a YAML body is read with YAML 1.1 rules (go-yaml v2 resolve.go), a JSON body as JSON', () => {
  const body = parseBody(
    'kind: ConfigMap\nmetadata: { name: c, annotations: { day: 2020-01-01 } }\ndata: { a: yes, b: 017, c: 1_000 }\n',
    true,
  );
  assert.deepEqual(body, {
    kind: 'ConfigMap',
    metadata: { name: 'c', annotations: { day: '2020-01-01' } },
    data: { a: true, b: 15, c: 1000 },
  });
  assert.deepEqual(parseBody('{"data":{"a":"yes"}}', true), { data: { a: 'yes' } });
});

test('excessive aliasing is still refused (400, upstream "yaml: document contains excessive aliasing")', () => {
  const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 9; i++)
    bomb.push(
      `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
        .fill(`*${String.fromCharCode(96 + i)}`)
        .join(',')}]`,
    );
  assert.throws(
    () => parseBody(bomb.join('\n'), true),
    (e: unknown) => isStatusError(e, 'BadRequest') && /excessive aliasing/.test((e as Error).message),
  );
});

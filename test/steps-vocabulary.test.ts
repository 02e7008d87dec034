import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { generate, loadParameters, VOCABULARY_FILE } from '../scripts/steps-vocabulary';

test('steps/VOCABULARY.md is the vocabulary the step definitions give now (npm run steps:vocabulary)', async () => {
  const current = fs.readFileSync(VOCABULARY_FILE, 'utf8');
  assert.equal(current, await generate(), 'steps/VOCABULARY.md is not current: run npm run steps:vocabulary');
});

test('every parameter type says what it matches, in the comment its definition opens with', () => {
  const source = fs.readFileSync(require.resolve('../steps/parameters.ts'), 'utf8');
  const defined = [...source.matchAll(/defineParameterType\(\{\s*name: '([^']+)'/g)].map((m) => m[1]);
  const documented = loadParameters(source);
  assert.deepEqual(
    documented.map((p) => p.name),
    defined,
  );
  for (const p of documented)
    assert.ok(p.meaning.length > 10 && !p.meaning.includes('defineParameterType'), `{${p.name}}: ${p.meaning}`);
});

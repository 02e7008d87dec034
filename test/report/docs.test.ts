import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadFeatures } from '../../src/report/features';
import { renderDocs } from '../../src/report/docs';
import { Behaviour } from '../../src/report';

test('the documentation renders features with their steps and links behaviour tags to the catalogue', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-docs-'));
  fs.mkdirSync(path.join(root, 'features/node'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'features/node/x.feature'),
    `@NODE-X
Feature: Nodes do a thing
  Described in \`words\`.

  Scenario Outline: It happens <n> times
    Given a value "v" and <n>
      | a | b |

    Examples:
      | n |
      | 1 |
`,
  );
  const catalogue: Behaviour[] = [
    { id: 'NODE-X', title: 'a thing', area: 'Nodes', seed: [{ file: '000', section: '§1' }], informative: false },
  ];
  const html = renderDocs(catalogue, loadFeatures(path.join(root, 'features'), root));
  assert.match(html, /<h3>Nodes do a thing<\/h3>/);
  assert.match(html, /<a class="tag id" href="#b-NODE-X">NODE-X<\/a>/);
  assert.match(html, /<dt id="b-NODE-X">NODE-X<\/dt>/);
  assert.match(html, /a value <q>v<\/q> and <var>&lt;n&gt;<\/var>/);
  assert.match(html, /<code>words<\/code>/);
  assert.match(html, /<th>n<\/th>/, 'examples have a header row');
  assert.match(html, /Nodes do a thing › It happens &lt;n&gt; times/, 'the catalogue lists the scenario');
  fs.rmSync(root, { recursive: true, force: true });
});

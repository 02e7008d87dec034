import { test } from 'node:test';
import assert from 'node:assert/strict';
import { junitXml } from '../../src/report/junit';
import type { ScenarioResult } from '../../src/report';

const scenario = (over: Partial<ScenarioResult>): ScenarioResult => ({
  id: 'p',
  name: 'a "quoted" <name> & more',
  uri: 'features/x.feature',
  line: 7,
  tags: ['@X-ONE'],
  behaviourIds: ['X-ONE'],
  status: 'passed',
  durationMs: 1500,
  attempts: 1,
  steps: [],
  attachments: [],
  ...over,
});

test('JUnit: the n/a reason, behaviour IDs, the failure with its cluster state, all escaped', () => {
  const xml = junitXml({
    name: 'kubespec kube · seed',
    properties: { label: 'kube · seed' },
    scenarios: [
      scenario({
        status: 'not-applicable',
        notApplicableReason: 'needs cloud-provider, which target kube does not offer',
      }),
      scenario({
        id: 'q',
        status: 'failed',
        error: 'expected <a>\n  at step \u0001',
        attachments: [
          { mediaType: 'text/plain', body: 'nodes:\n  n1: Ready=False; taints: a:NoExecute', encoding: 'identity' },
          { mediaType: 'text/x.kubespec.not-applicable', body: 'no', encoding: 'identity' },
        ],
      }),
    ],
  });
  assert.match(xml, /tests="2" failures="1" skipped="1"/);
  assert.match(xml, /<skipped message="needs cloud-provider, which target kube does not offer"\/>/);
  assert.match(xml, /name="a &quot;quoted&quot; &lt;name&gt; &amp; more \(features\/x\.feature:7\)"/);
  assert.match(xml, /<property name="behaviour" value="X-ONE"\/>/);
  assert.match(xml, /<failure type="failed" message="expected &lt;a&gt;">expected &lt;a&gt;\n {2}at step <\/failure>/);
  assert.match(xml, /<system-out>nodes:\n {2}n1: Ready=False; taints: a:NoExecute<\/system-out>/);
  assert.ok(!xml.includes('\u0001'), 'no control character XML cannot carry');
});

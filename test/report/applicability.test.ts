// What a real-clock target's maxScenarioTime sets aside before a scenario runs: its waits,
// "N minutes pass" added up, and a mark counted from the kubelets' stop ("22 minutes after
// the nodes stopped reporting, …"), which waits until then (every zone down was cut after 16
// min of a full upstream run when marks were not counted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applicability, TargetFacts } from '../../src/report/applicability';

const upstream: TargetFacts = {
  target: 'upstream',
  profile: 'kubernetes-1.32',
  capabilities: { virtualTime: false },
  capabilityNames: ['virtualTime'],
  maxScenarioTimeMs: 24 * 60_000,
};

test('waits add up; a mark from the stop counts as waiting until it', () => {
  const passes = ['every node of zone "a" stops reporting', '15 minutes pass', '10 more minutes pass'];
  assert.match(applicability([], passes, upstream).reason ?? '', /its steps wait 1500 s/);
  const mark = [
    'every node of zone "a" stops reporting',
    '15 minutes pass',
    '30 minutes after the nodes stopped reporting, the pods of zone "b" have gone node by node at 0, 10, 20 seconds',
  ];
  assert.match(applicability([], mark, upstream).reason ?? '', /its steps wait 1800 s/);
  mark[2] = mark[2].replace('30 minutes', '22 minutes');
  assert.equal(applicability([], mark, upstream).reason, undefined);
  assert.equal(applicability([], mark, { ...upstream, capabilities: { virtualTime: true } }).reason, undefined);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decisionsFromLog } from '../../src/drivers/upstream/scheduler-log';

// Lines as kube-scheduler v1.32 writes them with --vmodule=schedule_one=10 (klog text format;
// the scores are weighted: InterPodAffinity's weight is 2).
const LOG = [
  'I1205 08:11:12.100000   4242 schedule_one.go:843] "Plugin scored node for pod" pod="default/web" plugin="ImageLocality" node="n1" score=38',
  'I1205 08:11:12.100001   4242 schedule_one.go:843] "Plugin scored node for pod" pod="default/web" plugin="InterPodAffinity" node="n1" score=200',
  'I1205 08:11:12.100002   4242 schedule_one.go:843] "Plugin scored node for pod" pod="default/web" plugin="ImageLocality" node="n2" score=0',
  'I1205 08:11:12.100003   4242 schedule_one.go:843] "Plugin scored node for pod" pod="default/web" plugin="InterPodAffinity" node="n2" score=0',
  'I1205 08:11:12.100004   4242 schedule_one.go:843] "Plugin scored node for pod" pod="default/other" plugin="ImageLocality" node="n2" score=7',
  'I1205 08:11:12.100005   4242 schedule_one.go:906] "Calculated node\'s final score for pod" pod="default/web" node="n1" score=238',
  'I1205 08:11:12.100006   4242 schedule_one.go:906] "Calculated node\'s final score for pod" pod="default/web" node="n2" score=0',
  'I1205 08:11:12.200000   4242 schedule_one.go:843] "Plugin scored node for pod" pod="default/web" plugin="ImageLocality" node="n1" score=19',
].join('\n');

test('kube-scheduler log: one decision per attempt, scores unweighted, the logged total, other pods left out', () => {
  const d = decisionsFromLog(LOG, 'default/web');
  assert.equal(d.length, 2);
  const skipped = { TaintToleration: 0, NodeAffinity: 0, NodeResourcesFit: 0, PodTopologySpread: 0 };
  const rest = { NodeResourcesBalancedAllocation: 0, VolumeBinding: 0 };
  assert.deepEqual(d[0].nodes, [
    { node: 'n1', scores: { ...skipped, ...rest, ImageLocality: 38, InterPodAffinity: 100 }, total: 238 },
    { node: 'n2', scores: { ...skipped, ...rest, ImageLocality: 0, InterPodAffinity: 0 }, total: 0 },
  ]);
  assert.equal(d[0].at, `${new Date().getUTCFullYear()}-12-05T08:11:12.100000Z`);
  assert.equal(d[0].filterVerdicts, false);
  assert.equal(d[1].nodes.length, 1);
  assert.equal(d[1].nodes[0].scores?.ImageLocality, 19);
  assert.equal(d[1].nodes[0].scores?.InterPodAffinity, 0, 'a plugin not logged was skipped: 0');
  assert.deepEqual(decisionsFromLog(LOG, 'default/none'), []);
});

test('kube-scheduler log: a plugin of unknown weight is an error, not a silent score', () => {
  const line =
    'I1205 08:11:12.1   1 schedule_one.go:843] "Plugin scored node for pod" pod="d/p" plugin="Mystery" node="n1" score=3';
  assert.throws(() => decisionsFromLog(line, 'd/p'), /plugin Mystery, whose weight is not known/);
});

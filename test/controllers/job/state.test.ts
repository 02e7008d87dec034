import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Job } from '../../../src/api/resources/job';
import { decide } from '../../../src/controllers/job/state';

test('Job rule: parallelism bounded by remaining completions; complete at completions; failed past backoffLimit', () => {
  const job = (spec: Partial<Job['spec']>): Job => ({
    metadata: { name: 'j' },
    spec: { template: { spec: { containers: [] } }, ...spec },
  });
  assert.deepEqual(decide(job({ completions: 3, parallelism: 2 }), { active: 0, succeeded: 0, failed: 0 }), {
    kind: 'run',
    wantActive: 2,
  });
  assert.deepEqual(decide(job({ completions: 3, parallelism: 2 }), { active: 0, succeeded: 2, failed: 0 }), {
    kind: 'run',
    wantActive: 1,
  });
  assert.deepEqual(decide(job({ completions: 3, parallelism: 2 }), { active: 0, succeeded: 3, failed: 0 }), {
    kind: 'complete',
  });
  assert.equal(decide(job({ completions: 1, backoffLimit: 1 }), { active: 0, succeeded: 0, failed: 1 }).kind, 'run');
  assert.equal(decide(job({ completions: 1, backoffLimit: 1 }), { active: 0, succeeded: 0, failed: 2 }).kind, 'fail');
  assert.deepEqual(decide(job({ parallelism: 3 }), { active: 1, succeeded: 1, failed: 0 }), {
    kind: 'run',
    wantActive: 0,
  });
  assert.deepEqual(decide(job({ parallelism: 3 }), { active: 0, succeeded: 1, failed: 0 }), { kind: 'complete' });
});

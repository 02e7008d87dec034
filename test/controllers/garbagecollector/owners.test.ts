import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dependentVerdict } from '../../../src/controllers/garbagecollector/owners';

test('garbage collector: dependents go when every owner is absent, stay while one is present', () => {
  const ref = (uid: string, block = false) => ({
    apiVersion: 'v1',
    kind: 'ReplicationController',
    name: uid,
    uid,
    ...(block ? { blockOwnerDeletion: true } : {}),
  });
  assert.deepEqual(
    dependentVerdict([ref('a')], () => 'absent'),
    { action: 'delete', policy: 'Background' },
  );
  assert.deepEqual(
    dependentVerdict([ref('a'), ref('b')], (r) => (r.uid === 'a' ? 'absent' : 'present')),
    { action: 'keep', dangling: [ref('a')] },
  );
  assert.deepEqual(
    dependentVerdict([ref('a', true)], () => 'deleting-foreground'),
    { action: 'delete', policy: 'Foreground' },
  );
  assert.deepEqual(
    dependentVerdict([ref('a')], () => 'deleting-foreground'),
    { action: 'delete', policy: 'Background' },
  );
});

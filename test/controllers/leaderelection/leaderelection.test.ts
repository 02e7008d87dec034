import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decide, nextRecord } from '../../../src/controllers/leaderelection/record';

// After client-go's leaderelection_test.go (TestTryAcquireOrRenew): acquire when missing,
// wait while another holder's record was seen change within the lease, take over after it,
// renew our own; transitions count takeovers only.

const rec = (holder: string, transitions = 0) => ({
  holderIdentity: holder,
  leaseDurationSeconds: 15,
  acquireTime: 'a',
  renewTime: 'r',
  leaderTransitions: transitions,
});

test('no record: create it', () => {
  assert.deepEqual(decide(undefined, 'me', 0, 15_000, 1000), { act: 'create' });
});

test("another holder's record seen changing less than leaseDuration ago: wait; at leaseDuration: take over", () => {
  assert.deepEqual(decide(rec('other'), 'me', 1000, 15_000, 15_999), { act: 'wait', holder: 'other' });
  assert.deepEqual(decide(rec('other'), 'me', 1000, 15_000, 16_000), { act: 'write', renew: false });
});

test('our own record: renew at any time; an empty holder: take it', () => {
  assert.deepEqual(decide(rec('me'), 'me', 1000, 15_000, 2000), { act: 'write', renew: true });
  assert.deepEqual(decide(rec(''), 'me', 1000, 15_000, 2000), { act: 'write', renew: false });
});

test('records: a renewal keeps acquireTime and transitions, a takeover counts one more, a new lock starts at 0', () => {
  assert.deepEqual(nextRecord(undefined, 'me', 15, 't1'), {
    holderIdentity: 'me',
    leaseDurationSeconds: 15,
    acquireTime: 't1',
    renewTime: 't1',
    leaderTransitions: 0,
  });
  assert.deepEqual(nextRecord(rec('me', 2), 'me', 15, 't2'), {
    holderIdentity: 'me',
    leaseDurationSeconds: 15,
    acquireTime: 'a',
    renewTime: 't2',
    leaderTransitions: 2,
  });
  assert.deepEqual(nextRecord(rec('other', 2), 'me', 15, 't3'), {
    holderIdentity: 'me',
    leaseDurationSeconds: 15,
    acquireTime: 't3',
    renewTime: 't3',
    leaderTransitions: 3,
  });
});

test('a standby elector takes the Lease over once the leader stops renewing for the lease duration', async () => {
  const { Cluster } = await import('../../../src/cluster/cluster');
  const { clusterConfig } = await import('../../../src/profile/config');
  const { loadProfile } = await import('../../../src/profile/profile');
  const { LeaderElector } = await import('../../../src/controllers/leaderelection/elector');
  const c = new Cluster({ config: clusterConfig(loadProfile('kubernetes-1.32')) });
  await c.start();
  const t0 = c.clock.now();
  const log: string[] = [];
  const config = (identity: string) => ({
    lock: 'leases' as const,
    name: 'kube-scheduler',
    namespace: 'kube-system',
    identity,
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
  });
  const callbacks = (who: string) => ({
    onStartedLeading: () => log.push(`${who} leads at ${(c.clock.now() - t0) / 1000}`),
    onStoppedLeading: () => log.push(`${who} stops`),
  });
  const a = new LeaderElector(c.client, c.clock, config('a'), callbacks('a'));
  const b = new LeaderElector(c.client, c.clock, config('b'), callbacks('b'));
  try {
    await a.run();
    await b.run();
    await c.advance(10_000);
    assert.deepEqual(log, ['a leads at 0']);
    a.stop(); // the leader's process ends at 10 s, its last renewal at 10 s
    // b last saw the record change at 10 s or, if its attempt came first, at 12 s: it may take
    // over once 15 s have passed since, at one of its 2 s attempts — not before 25 s, by 28 s.
    await c.advance(14_000);
    assert.deepEqual(log, ['a leads at 0', 'a stops']);
    await c.advance(4_000);
    assert.equal(log.length, 3);
    assert.match(log[2], /^b leads at (26|28)$/);
    const lease = await c.client.get<import('../../../src/api/core').Lease>(
      { resource: 'leases.coordination.k8s.io', namespace: 'kube-system' },
      'kube-scheduler',
    );
    assert.equal(lease.spec.holderIdentity, 'b');
    assert.equal(lease.spec.leaseTransitions, 1);
  } finally {
    a.stop();
    b.stop();
    await c.stop();
  }
});

test('a leader whose lock is taken stops renewDeadline after its first failed renewal, not after its last success', async () => {
  const { Cluster } = await import('../../../src/cluster/cluster');
  const { clusterConfig } = await import('../../../src/profile/config');
  const { loadProfile } = await import('../../../src/profile/profile');
  const { LeaderElector } = await import('../../../src/controllers/leaderelection/elector');
  const c = new Cluster({ config: clusterConfig(loadProfile('kubernetes-1.32')) });
  await c.start();
  const t0 = c.clock.now();
  const log: string[] = [];
  const a = new LeaderElector(
    c.client,
    c.clock,
    {
      lock: 'leases',
      name: 'kube-scheduler',
      namespace: 'kube-system',
      identity: 'a',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    },
    {
      onStartedLeading: () => log.push(`a leads at ${(c.clock.now() - t0) / 1000}`),
      onStoppedLeading: () => log.push(`a stops at ${(c.clock.now() - t0) / 1000}`),
    },
  );
  try {
    await a.run(); // acquires at 0
    await c.advance(1_000);
    // At 1 s another identity writes the lock; a's renewal at 2 s fails, and so do the next ones.
    const ref = { resource: 'leases.coordination.k8s.io', namespace: 'kube-system' };
    const lease = await c.client.get<import('../../../src/api/core').Lease>(ref, 'kube-scheduler');
    const now = new Date(c.clock.now()).toISOString().replace(/Z$/, '000Z');
    await c.client.update(ref, {
      ...lease,
      spec: { ...lease.spec, holderIdentity: 'b', acquireTime: now, renewTime: now, leaseTransitions: 1 },
    });
    await c.advance(10_000); // 11 s: the poll that began at 2 s has not run out
    assert.deepEqual(log, ['a leads at 0']);
    await c.advance(1_000); // 12 s = 2 s (first failure) + 10 s
    assert.deepEqual(log, ['a leads at 0', 'a stops at 12']);
  } finally {
    a.stop();
    await c.stop();
  }
});

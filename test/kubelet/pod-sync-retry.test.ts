import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pod } from '../../src/api/core';
import { Client } from '../../src/client/client';
import { Cluster } from '../../src/cluster/cluster';
import { kubeletConfig } from '../../src/cluster/config';
import { HollowKubelet } from '../../src/kubelet/kubelet';
import { POD_SYNC_BACKOFF_MS, STATUS_SYNC_PERIOD_MS } from '../../src/kubelet/pods';
import { clusterConfig } from '../../src/profile/config';
import { loadProfile } from '../../src/profile/profile';

/** The client with its next pod status writes failing (as many as failNext asks), each with the message. */
function failingPodStatusWrites(client: Client, message: string): { client: Client; failNext(n: number): void } {
  let failures = 0;
  const flaky: Client = new Proxy(client, {
    get(target, prop, receiver) {
      const real = Reflect.get(target, prop, receiver);
      if (prop !== 'update') return typeof real === 'function' ? real.bind(target) : real;
      return async (...args: unknown[]) => {
        const [ref, , options] = args as [{ resource: string }, unknown, { subresource?: string } | undefined];
        if (ref.resource === 'pods' && options?.subresource === 'status' && failures > 0) {
          failures--;
          throw new Error(message);
        }
        return (real as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client: flaky, failNext: (n) => (failures = n) };
}

// A pod whose status write failed is synced again after the kubelet's backOffPeriod (10 s),
// as upstream's pod workers requeue a failed sync; before, it stayed Pending until its object
// changed (on upstream, 432 of 1001 pods never started after TLS connections were dropped).

test('a pod whose first status write fails is started by the retry after the back-off, not before', async () => {
  const c = new Cluster({ config: clusterConfig(loadProfile('kubernetes-1.32'), {}) });
  await c.start();
  const errors: string[] = [];
  try {
    const { client: flaky, failNext } = failingPodStatusWrites(
      c.client,
      'Client network socket disconnected before secure TLS connection was established',
    );
    failNext(1);
    const kubelet = new HollowKubelet(kubeletConfig(c.config, { name: 'n1' }), flaky, c.clock, (what, e) =>
      errors.push(`${what}: ${(e as Error).message}`),
    );
    await kubelet.start();
    try {
      await c.client.create<Pod>({ resource: 'pods', namespace: 'default' }, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web', namespace: 'default' },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'pause' }] },
      } as Pod);
      const phase = async () =>
        (await c.client.get<Pod>({ resource: 'pods', namespace: 'default' }, 'web')).status?.phase;
      await c.advance(POD_SYNC_BACKOFF_MS - 1000);
      assert.notEqual(await phase(), 'Running', 'not started before the back-off');
      assert.ok(
        errors.some((e) => e.includes('TLS connection')),
        `the failure is reported: ${errors.join('; ')}`,
      );
      await c.advance(2000);
      assert.equal(await phase(), 'Running');
    } finally {
      kubelet.stop();
    }
  } finally {
    await c.stop();
  }
});

// The status manager's write of Ready back (syncBatch) that fails is tried again at the next
// status sync (on upstream, 7 of 1001 pods stayed Ready=False after a reset connection).
test('a Ready written back after the node controller marked the pod not ready is written again at the next sync when it fails', async () => {
  const c = new Cluster({ config: clusterConfig(loadProfile('kubernetes-1.32'), {}) });
  await c.start();
  const errors: string[] = [];
  try {
    const { client: flaky, failNext } = failingPodStatusWrites(c.client, 'socket hang up');
    const kubelet = new HollowKubelet(kubeletConfig(c.config, { name: 'n1' }), flaky, c.clock, (what, e) =>
      errors.push(`${what}: ${(e as Error).message}`),
    );
    await kubelet.start();
    try {
      const ref = { resource: 'pods', namespace: 'default' };
      await c.client.create<Pod>(ref, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web', namespace: 'default' },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'pause' }] },
      } as Pod);
      await c.advance(1000);
      const ready = async () =>
        (await c.client.get<Pod>(ref, 'web')).status?.conditions?.find((x) => x.type === 'Ready')?.status;
      assert.equal(await ready(), 'True');
      // what MarkPodsNotReady writes
      const stored = await c.client.get<Pod>(ref, 'web');
      const conditions = stored.status!.conditions!.map((x) => (x.type === 'Ready' ? { ...x, status: 'False' } : x));
      const pod = { ...stored, status: { ...stored.status, conditions } } as Pod;
      failNext(1);
      await c.client.update<Pod>(ref, pod, { subresource: 'status' });
      await c.advance(STATUS_SYNC_PERIOD_MS + 500);
      assert.equal(await ready(), 'False', 'the first write back failed');
      assert.ok(
        errors.some((e) => e.includes('socket hang up')),
        `the failure is reported: ${errors.join('; ')}`,
      );
      await c.advance(STATUS_SYNC_PERIOD_MS);
      assert.equal(await ready(), 'True', 'written again at the next sync');
    } finally {
      kubelet.stop();
    }
  } finally {
    await c.stop();
  }
});

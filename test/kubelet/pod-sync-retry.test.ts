import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pod } from '../../src/api/core';
import { Client } from '../../src/client/client';
import { Cluster } from '../../src/cluster/cluster';
import { kubeletConfig } from '../../src/cluster/config';
import { HollowKubelet } from '../../src/kubelet/kubelet';
import { POD_SYNC_BACKOFF_MS } from '../../src/kubelet/pods';
import { clusterConfig } from '../../src/profile/config';
import { loadProfile } from '../../src/profile/profile';

// A pod whose status write failed is synced again after the kubelet's backOffPeriod (10 s),
// as upstream's pod workers requeue a failed sync; before, it stayed Pending until its object
// changed (on upstream, 432 of 1001 pods never started after TLS connections were dropped).

test('a pod whose first status write fails is started by the retry after the back-off, not before', async () => {
  const c = new Cluster({ config: clusterConfig(loadProfile('kubernetes-1.32'), {}) });
  await c.start();
  const errors: string[] = [];
  try {
    let failures = 1;
    const flaky: Client = new Proxy(c.client, {
      get(target, prop, receiver) {
        const real = Reflect.get(target, prop, receiver);
        if (prop !== 'update') return typeof real === 'function' ? real.bind(target) : real;
        return async (...args: unknown[]) => {
          const [ref, , options] = args as [{ resource: string }, unknown, { subresource?: string } | undefined];
          if (ref.resource === 'pods' && options?.subresource === 'status' && failures > 0) {
            failures--;
            throw new Error('Client network socket disconnected before secure TLS connection was established');
          }
          return (real as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
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

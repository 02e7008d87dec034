import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Node } from '../../src/api/core';
import { Client } from '../../src/client/client';
import { Cluster } from '../../src/cluster/cluster';
import { kubeletConfig } from '../../src/cluster/config';
import { HollowKubelet } from '../../src/kubelet/kubelet';
import { clusterConfig } from '../../src/profile/config';
import { loadProfile } from '../../src/profile/profile';

// Issue 28: the kubelet's node status write under the Node authorizer and NodeRestriction.
// Upstream's kubelet patches the status alone (nodeutil.PatchNodeStatus: a strategic merge
// patch with the spec reset, no resourceVersion), so its write never carries taints or
// labels; a PUT of the whole Node it read is refused by NodeRestriction (403 "is not allowed
// to modify taints", admission running before the conflict check) whenever an admin or the
// node lifecycle controller changed the taints since that read.

test('the kubelet writes node status as a strategic patch of the status alone, which a taint added since its read does not refuse', async () => {
  const config = clusterConfig(loadProfile('kubernetes-1.32'), {
    'kube-apiserver': { 'authorization-mode': 'Node,RBAC', 'enable-admission-plugins': 'NodeRestriction' },
  });
  const c = new Cluster({ config });
  await c.start();
  try {
    const node = c.clientFor('system:node:n1', ['system:nodes', 'system:authenticated']);
    const writes: { verb: string; subresource?: string; body: unknown }[] = [];
    let tainted = false;
    // The kubelet's client, recording its node writes; before its first status write after
    // registration, an admin taints the node (what the kubelet read is then stale).
    const recording: Client = new Proxy(node, {
      get(target, prop, receiver) {
        const real = Reflect.get(target, prop, receiver);
        if (prop !== 'update' && prop !== 'patch') return typeof real === 'function' ? real.bind(target) : real;
        return async (...args: unknown[]) => {
          const [ref] = args as [{ resource: string }];
          if (ref.resource === 'nodes') {
            const options = args[prop === 'update' ? 2 : 4] as { subresource?: string } | undefined;
            writes.push({ verb: prop, subresource: options?.subresource, body: args[prop === 'update' ? 1 : 3] });
            if (!tainted) {
              tainted = true;
              const n = await c.client.get<Node>({ resource: 'nodes' }, 'n1');
              await c.client.update<Node>(
                { resource: 'nodes' },
                { ...n, spec: { ...n.spec, taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } },
              );
            }
          }
          return (real as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const kubelet = new HollowKubelet(kubeletConfig(c.config, { name: 'n1' }), recording, c.clock);
    await kubelet.start(); // registers, then posts status at once: a refusal would throw here
    kubelet.stop();
    const status = writes.filter((w) => w.subresource === 'status');
    assert.ok(status.length >= 1, JSON.stringify(writes));
    for (const w of status) {
      assert.equal(w.verb, 'patch');
      const body = w.body as { spec?: unknown; metadata?: unknown; status?: unknown };
      assert.deepEqual(Object.keys(body), ['status'], 'the patch names the status alone');
    }
    const n1 = await c.client.get<Node>({ resource: 'nodes' }, 'n1');
    assert.deepEqual(n1.spec?.taints, [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }]);
    assert.equal(n1.status?.conditions?.find((x) => x.type === 'Ready')?.status, 'True');
  } finally {
    await c.stop();
  }
});

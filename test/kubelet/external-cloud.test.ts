import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Node, NodeAddress } from '../../src/api/core';
import { Cluster } from '../../src/cluster/cluster';
import { clusterConfig } from '../../src/profile/config';
import { loadProfile } from '../../src/profile/profile';

// A kubelet with --cloud-provider=external (upstream initialNode, nodestatus.NodeAddress):
// registers tainted uninitialized until a cloud node controller initializes it, annotates
// its --node-ip, and from then on keeps the addresses the cloud set.

const UNINITIALIZED = 'node.cloudprovider.kubernetes.io/uninitialized';

test('a kubelet with --cloud-provider=external registers tainted, annotated, and keeps the cloud addresses', async () => {
  const c = new Cluster({ config: clusterConfig(loadProfile('kubernetes-1.32')) });
  await c.start();
  try {
    await c.addKubelet({ name: 'vm-1', nodeIP: '10.0.0.1', flags: { 'cloud-provider': 'external' } });
    await c.addKubelet({ name: 'vm-2', nodeIP: '10.0.0.2' });
    const get = (name: string) => c.client.get<Node>({ resource: 'nodes' }, name);
    const n1 = await get('vm-1');
    assert.deepEqual(n1.spec?.taints, [{ key: UNINITIALIZED, value: 'true', effect: 'NoSchedule' }]);
    assert.equal(n1.metadata.annotations?.['alpha.kubernetes.io/provided-node-ip'], '10.0.0.1');
    const n2 = await get('vm-2');
    assert.equal(n2.spec?.taints, undefined, 'no cloud, no taint');
    assert.equal(n2.metadata.annotations?.['alpha.kubernetes.io/provided-node-ip'], undefined);

    // The cloud node controller's part: addresses of its own (ExternalIP beside the node IP).
    const cloudAddresses: NodeAddress[] = [
      { type: 'InternalIP', address: '10.0.0.1' },
      { type: 'ExternalIP', address: '203.0.113.99' },
      { type: 'Hostname', address: 'vm-1' },
    ];
    for (const name of ['vm-1', 'vm-2']) {
      const n = await get(name);
      await c.client.update<Node>(
        { resource: 'nodes' },
        { ...n, status: { ...n.status, addresses: cloudAddresses } },
        { subresource: 'status' },
      );
    }
    // Past a status report: the external-cloud kubelet keeps them; the other puts back its own.
    await c.advance(5 * 60_000);
    assert.deepEqual((await get('vm-1')).status?.addresses, cloudAddresses);
    assert.deepEqual(
      (await get('vm-2')).status?.addresses?.map((a) => a.address),
      ['10.0.0.2', 'vm-2'],
    );
  } finally {
    await c.stop();
  }
});

test("a kubelet's --cloud-provider other than external is refused, as v1.32's kubelet refuses it", async () => {
  const c = new Cluster({ config: clusterConfig(loadProfile('kubernetes-1.32')) });
  await c.start();
  try {
    await assert.rejects(
      c.addKubelet({ name: 'vm-1', flags: { 'cloud-provider': 'aws' } }),
      /unknown --cloud-provider "aws" for the kubelet/,
    );
  } finally {
    await c.stop();
  }
});

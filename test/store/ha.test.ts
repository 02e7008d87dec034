import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiWatchEvent } from '../../src/api/request';
import { KubeObject } from '../../src/api/meta';
import { Node } from '../../src/api/core';
import { etcdMissing } from '../../src/store/etcd-process';
import { failover, HA_NAMESPACE, holder, pairFixture, sleep, startPair, until } from './ha-pair';

/**
 * Two `kubespec serve` on one etcd, each a whole control plane (API server, controller
 * manager, scheduler, hollow kubelets), as an HA pair of masters: the API servers alone
 * talk to etcd (COMM-APISERVER-ONLY), both serve reads, writes and watches, and with
 * --leader-elect only the holder of kube-system/kube-controller-manager runs controllers
 * and only the holder of kube-system/kube-scheduler schedules.
 *
 * - a watch on one server sees every write made through the other, in order, with the
 *   resourceVersions the writer got (both are etcd's mod revisions; each server's watch hub
 *   is fed by its etcd watch); a GET and a LIST through either agree;
 * - kill -9 of the leader: the other takes the Leases over, its controllers and scheduler
 *   act (a ReplicaSet made after the kill gets its pods, bound), and its node controller
 *   marks the dead master's node Unknown; a client that switches to the survivor keeps
 *   working with the same credentials (the pair shares the PKI).
 */
describe('an HA pair of kubespec serve on one etcd', { skip: etcdMissing() }, () => {
  const { work, etcd, servers } = pairFixture('kubespec-ha-');

  test('watches across servers agree; kill -9 of the leader: the other takes over', {
    timeout: 10 * 60_000,
  }, async () => {
    await etcd.start();
    const pair = await startPair(work, etcd.endpoint, servers);
    const { ca, cb, idA } = pair;
    // A came first: it holds both locks; B stands by.
    assert.equal(await holder(cb, 'kube-controller-manager'), idA.controllers);
    assert.equal(await holder(cb, 'kube-scheduler'), idA.scheduler);

    // Watches on both servers, writes through both.
    const secrets = { resource: 'secrets', namespace: HA_NAMESPACE };
    const start = (await cb.list(secrets)).metadata.resourceVersion!;
    const seenOnB: string[] = [];
    const seenOnA: string[] = [];
    const record = (into: string[]) => (e: ApiWatchEvent<KubeObject>) =>
      into.push(`${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`);
    const wB = await cb.watch(secrets, { resourceVersion: start }, { onEvent: record(seenOnB) });
    const wA = await ca.watch(secrets, { resourceVersion: start }, { onEvent: record(seenOnA) });
    const written: string[] = [];
    for (let i = 0; i < 20; i++) {
      const via = i % 2 === 0 ? ca : cb;
      const made = await via.create(secrets, {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: { name: `s-${i}` },
        data: { i: 'MQ==' },
      } as KubeObject);
      written.push(`ADDED s-${i} ${made.metadata.resourceVersion}`);
      if (i % 5 === 4) {
        const other = i % 2 === 0 ? cb : ca;
        const got = await other.get<KubeObject>(secrets, `s-${i}`);
        assert.equal(
          got.metadata.resourceVersion,
          made.metadata.resourceVersion,
          'a GET through the other server gives another resourceVersion',
        );
        const updated = await other.update(secrets, { ...got, data: { i: 'Mg==' } } as KubeObject);
        written.push(`MODIFIED s-${i} ${updated.metadata.resourceVersion}`);
      }
    }
    await until('both watches have every write', 10_000, async () =>
      seenOnA.length >= written.length && seenOnB.length >= written.length ? true : undefined,
    );
    await sleep(300);
    wA.stop();
    wB.stop();
    assert.deepEqual(seenOnB, written, 'the watch on B differs from the writes (through A and B)');
    assert.deepEqual(seenOnA, written, 'the watch on A differs from the writes (through A and B)');
    const listA = await ca.list(secrets);
    const listB = await cb.list(secrets);
    assert.deepEqual(
      listA.items.map((x) => x.metadata.resourceVersion),
      listB.items.map((x) => x.metadata.resourceVersion),
    );

    // kill -9 of the leader; then everything through B.
    const t = await failover(pair);
    assert.ok(
      t.controllerLease >= 10_000,
      `B took the lock ${t.controllerLease} ms after the kill: before the lease (15 s from A's last renewal) expired`,
    );
    const nb = await cb.get<Node>({ resource: 'nodes' }, 'n-b');
    assert.ok(
      nb.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      "the survivor's node is not Ready",
    );
    console.log(
      `# failover after kill -9 of the leader: Lease kube-controller-manager to the standby ${t.controllerLease} ms, kube-scheduler ${t.schedulerLease} ms; ReplicaSet pods made ${t.podsMade} ms, bound ${t.podsBound} ms; dead master's node Unknown ${t.nodeUnknown} ms (grace 8 s)`,
    );
  });
});

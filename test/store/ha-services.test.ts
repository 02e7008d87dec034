import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeObject } from '../../src/api/meta';
import { Service } from '../../src/api/resources/service';
import { Client } from '../../src/client/client';
import { etcdMissing } from '../../src/store/etcd-process';
import { pairFixture, startServers } from './ha-pair';

/**
 * Service IPs and node ports through the store (upstream's RangeAllocations at
 * /registry/ranges/serviceips and /registry/ranges/servicenodeports, each change a guarded
 * read-modify-write): two `kubespec serve` on one etcd, services created through both at
 * once, deleted through one and made again through the other — no cluster IP and no node
 * port is ever held by two live services.
 */
const NS = 'default';
const services = { resource: 'services', namespace: NS };
const PER_SERVER = 100;
const IN_FLIGHT = 10;

const nodePortService = (name: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { type: 'NodePort', selector: { app: name }, ports: [{ port: 80, protocol: 'TCP' }] },
  }) as KubeObject;

/** Creates names through one client, IN_FLIGHT at a time. */
async function createAll(c: Client, names: string[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < names.length) await c.create(services, nodePortService(names[next++]));
    }),
  );
}

function assertNoneShared(items: Service[]): void {
  const byIP = new Map<string, string>();
  const byPort = new Map<number, string>();
  for (const s of items) {
    if (s.metadata.name === 'kubernetes') continue;
    const ip = s.spec.clusterIP!;
    assert.ok(!byIP.has(ip), `${s.metadata.name} and ${byIP.get(ip)} both have cluster IP ${ip}`);
    byIP.set(ip, s.metadata.name!);
    for (const p of s.spec.ports ?? []) {
      assert.ok(
        !byPort.has(p.nodePort!),
        `${s.metadata.name} and ${byPort.get(p.nodePort!)} both have node port ${p.nodePort}`,
      );
      byPort.set(p.nodePort!, s.metadata.name!);
    }
  }
}

describe('service IPs of two kubespec serve on one etcd', { skip: etcdMissing() }, () => {
  const { work, etcd, servers } = pairFixture('kubespec-ha-svc-');

  test('services created through both at once never share a cluster IP or a node port', {
    timeout: 10 * 60_000,
  }, async () => {
    await etcd.start();
    const { ca, cb } = await startServers(work, etcd.endpoint, servers);
    const names = (p: string) => Array.from({ length: PER_SERVER }, (_, i) => `${p}-${i}`);
    const t0 = Date.now();
    await Promise.all([createAll(ca, names('a')), createAll(cb, names('b'))]);
    const createMs = Date.now() - t0;
    let items = (await ca.list<Service>(services)).items;
    assert.equal(items.length, 2 * PER_SERVER + 1);
    assertNoneShared(items);

    // Half deleted through A, as many made through B and A at once: freed values come back, never twice.
    for (const n of names('a').slice(0, PER_SERVER / 2)) await ca.delete(services, n);
    const t1 = Date.now();
    await Promise.all([
      createAll(cb, names('c').slice(0, PER_SERVER / 2)),
      createAll(ca, names('d').slice(0, PER_SERVER / 2)),
    ]);
    const againMs = Date.now() - t1;
    items = (await cb.list<Service>(services)).items;
    assert.equal(items.length, 2 * PER_SERVER + 1 + PER_SERVER / 2);
    assertNoneShared(items);
    console.log(
      `# ${2 * PER_SERVER} NodePort services created through two API servers on one etcd (${IN_FLIGHT} in flight on each) in ${createMs} ms (${Math.round((2 * PER_SERVER * 1000) / createMs)}/s), then ${PER_SERVER / 2} deleted and ${PER_SERVER} more through both in ${againMs} ms: no cluster IP or node port twice`,
    );
  });
});

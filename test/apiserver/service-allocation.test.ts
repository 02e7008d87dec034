import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiServer } from '../../src/apiserver/apiserver';
import { ServiceAllocations, SERVICE_IPS_KEY } from '../../src/apiserver/service-allocation';
import { coreRegistry } from '../../src/api/resources';
import { Service, ServiceType } from '../../src/api/resources/service';
import { MemoryStore, Store } from '../../src/store';
import { Quiescence, RealClock } from '../../src/clock';
import { EtcdStore } from '../../src/store/etcd';
import { EtcdServer, etcdMissing } from '../../src/store/etcd-process';
import { RangeAllocation } from '../../src/apiserver/ipallocator';
import { isStatusError } from '../../src/api/errors';

/**
 * Two API servers on one store, each with its own ServiceAllocations (upstream: each
 * kube-apiserver its own ipallocator over the one RangeAllocation in etcd): services created
 * through both at the same instant never share a cluster IP or a node port, a deleted
 * service's IP goes back once, and a create that fails gives its reservations back.
 */
interface Server {
  api: ApiServer;
  allocations: ServiceAllocations;
  quiescence: Quiescence;
}

async function server(store: Store, quiescence: Quiescence, cidr: string): Promise<Server> {
  const api = new ApiServer(coreRegistry(), store, new RealClock());
  const allocations = new ServiceAllocations(cidr, api.store, (w) => quiescence.track(w));
  api.addCreateHook(allocations);
  await allocations.start();
  return { api, allocations, quiescence };
}

const svc = (name: string, type: ServiceType = 'ClusterIP', spec: Partial<Service['spec']> = {}): Service => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { type, ports: [{ port: 80, protocol: 'TCP' }], ...spec },
});
const services = { resource: 'services', namespace: 'default' };

async function createMany(servers: Server[], n: number, type: ServiceType = 'ClusterIP'): Promise<Service[]> {
  return (await Promise.all(
    Array.from({ length: n }, (_, i) => servers[i % servers.length].api.create(services, svc(`s-${i}`, type))),
  )) as Service[];
}

function assertDistinct(made: Service[]): void {
  const ips = made.map((s) => s.spec.clusterIP);
  assert.equal(new Set(ips).size, ips.length, `a cluster IP given twice: ${ips.join(' ')}`);
  const ports = made.flatMap((s) => (s.spec.ports ?? []).map((p) => p.nodePort)).filter((p) => p !== undefined);
  assert.equal(new Set(ports).size, ports.length, `a node port given twice: ${ports.join(' ')}`);
}

const settle = async (servers: Server[]) => {
  for (const s of servers) await s.quiescence.settle();
};

function suite(name: string, open: () => Promise<{ stores: Store[]; quiescences: Quiescence[] }>, skip?: string) {
  describe(`service allocations of two API servers on one ${name} store`, { skip }, () => {
    test('concurrent creates through both: no cluster IP, no node port twice', async () => {
      const { stores, quiescences } = await open();
      const servers = [
        await server(stores[0], quiescences[0], '10.0.0.0/24'),
        await server(stores[1], quiescences[1], '10.0.0.0/24'),
      ];
      try {
        const made = await createMany(servers, 60, 'NodePort');
        assertDistinct(made);
        assert.ok(made.every((s) => /^10\.0\.0\.\d+$/.test(s.spec.clusterIP!)));
        // The range object says exactly what the services hold.
        const stored = (await stores[0].get<RangeAllocation>(SERVICE_IPS_KEY))!.value;
        assert.equal(stored.range, '10.0.0.0/24');
        assert.equal(
          Buffer.from(stored.data, 'base64').reduce((n, b) => n + popcount(b), 0),
          60,
        );
      } finally {
        for (const s of servers) s.allocations.stop();
        await Promise.all(stores.map((s) => s.close()));
      }
    });

    test('a deleted service gives its IP back once; a failed create gives back what it reserved', async () => {
      const { stores, quiescences } = await open();
      // 6 usable addresses: 10.0.0.1-6; the static band takes none of the dynamic scan's order here.
      const servers = [
        await server(stores[0], quiescences[0], '10.0.0.0/29'),
        await server(stores[1], quiescences[1], '10.0.0.0/29'),
      ];
      try {
        const made = await createMany(servers, 6);
        assertDistinct(made);
        await assert.rejects(servers[0].api.create(services, svc('full')), (e) => isStatusError(e, 'InternalError'));
        // Deleted through A: both servers see the deletion, the IP is free once.
        await servers[0].api.delete({ ...services, name: 's-0' });
        const freed = made[0].spec.clusterIP;
        await until(async () => {
          await settle(servers);
          const again = await servers[1].api.create(services, svc('again')).catch((e) => {
            if (isStatusError(e, 'InternalError')) return undefined;
            throw e;
          });
          return again as Service | undefined;
        }).then((again) => assert.equal(again.spec.clusterIP, freed));
        await settle(servers);
        // The other server's late view of the deletion did not free it a second time.
        await assert.rejects(servers[0].api.create(services, svc('one-more')), (e) =>
          isStatusError(e, 'InternalError'),
        );
        // A create that fails after the reservation (the name exists) gives the IP back.
        await servers[1].api.delete({ ...services, name: 's-1' });
        const before = made[1].spec.clusterIP;
        await until(async () => {
          await settle(servers);
          return (await isFreeIP(stores[0], before!)) || undefined;
        });
        await assert.rejects(servers[0].api.create(services, svc('s-2')), (e) => isStatusError(e, 'AlreadyExists'));
        assert.equal(await isFreeIP(stores[0], before!), true, 'the failed create kept its IP');
      } finally {
        for (const s of servers) s.allocations.stop();
        await Promise.all(stores.map((s) => s.close()));
      }
    });
  });
}

function popcount(b: number): number {
  let n = 0;
  for (let x = b; x; x >>= 1) n += x & 1;
  return n;
}

async function isFreeIP(store: Store, ip: string): Promise<boolean> {
  const data = Buffer.from((await store.get<RangeAllocation>(SERVICE_IPS_KEY))!.value.data, 'base64');
  const offset = Number(ip.split('.')[3]) - 1; // 10.0.0.0/29: offset 0 is 10.0.0.1
  const byte = data.length - 1 - (offset >> 3);
  return byte < 0 || (data[byte] & (1 << (offset & 7))) === 0;
}

async function until<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

suite('memory', async () => {
  const q = new Quiescence();
  const store = new MemoryStore(q);
  return { stores: [store, store], quiescences: [q, q] };
});

const etcd = new EtcdServer();
let prefixes = 0;
after(() => etcd.stop());
suite(
  'etcd',
  async () => {
    if (!etcd.endpoint) await etcd.start();
    const keyPrefix = `/alloc-${++prefixes}`;
    const quiescences = [new Quiescence(), new Quiescence()];
    // Two clients, each with its own watch feed: as two kube-apiservers.
    const stores = await Promise.all(
      quiescences.map((q) => EtcdStore.open({ endpoints: [etcd.endpoint], keyPrefix }, q)),
    );
    return { stores, quiescences };
  },
  etcdMissing(),
);

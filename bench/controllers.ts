import { Cluster } from '../src/cluster/cluster';
import { clusterConfig } from '../src/profile/config';
import { loadProfile } from '../src/profile/profile';
import { Pod } from '../src/api/core';
import { Endpoints } from '../src/api/resources/endpoints';
import { KubeObject } from '../src/api/meta';
import { printTable } from './table';

const ENDPOINT_PODS = 5000;
const NAMESPACE_OBJECTS = 10_000;
const QUOTA_CREATES = 2000;

async function cluster(): Promise<Cluster> {
  const c = new Cluster({ config: clusterConfig(loadProfile('kubernetes-1.32')), clock: 'virtual' });
  await c.start();
  await c.addKubelet({ name: 'n1', podCIDR: '10.128.0.0/16' });
  return c;
}

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

function podManifest(name: string, namespace: string, labels: Record<string, string>, nodeName?: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: {
      ...(nodeName ? { nodeName } : {}),
      containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '1m', memory: '1Mi' } } }],
    },
  };
}

/** Endpoints for a service selecting 5000 running pods: creating the pods, then the service. */
async function endpointsBench(): Promise<Record<string, string | number>> {
  const c = await cluster();
  const started = process.hrtime.bigint();
  for (let i = 0; i < ENDPOINT_PODS; i++)
    await c.client.create(
      { resource: 'pods', namespace: 'default' },
      podManifest(`p${i}`, 'default', { app: 'big' }, 'n1'),
    );
  await c.settle();
  const podsMs = ms(started);
  const svcStart = process.hrtime.bigint();
  await c.client.create({ resource: 'services', namespace: 'default' }, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'big' },
    spec: { selector: { app: 'big' }, ports: [{ port: 80 }] },
  } as KubeObject);
  await c.settle();
  const svcMs = ms(svcStart);
  const ep = await c.client.get<Endpoints>({ resource: 'endpoints', namespace: 'default' }, 'big');
  const addresses = (ep.subsets ?? []).reduce((n, s) => n + (s.addresses?.length ?? 0), 0);
  const oneStart = process.hrtime.bigint();
  await c.client.delete({ resource: 'pods', namespace: 'default' }, 'p0');
  await c.settle();
  const oneMs = ms(oneStart);
  await c.stop();
  return {
    case: `endpoints: service over ${ENDPOINT_PODS} pods`,
    objects: addresses,
    'setup ms': podsMs,
    'measured ms': svcMs,
    'per object µs': (svcMs * 1000) / addresses,
    note: `one pod deleted → Endpoints updated in ${oneMs.toFixed(0)} ms`,
  };
}

/** Namespace deletion with 10 000 objects (config-like secrets and pods), until the namespace is gone. */
async function namespaceBench(): Promise<Record<string, string | number>> {
  const c = await cluster();
  await c.client.create({ resource: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'big' } });
  await c.settle();
  const started = process.hrtime.bigint();
  for (let i = 0; i < NAMESPACE_OBJECTS; i++) {
    if (i % 2 === 0)
      await c.client.create({ resource: 'secrets', namespace: 'big' }, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `s${i}` },
        data: {},
      } as KubeObject);
    else await c.client.create({ resource: 'pods', namespace: 'big' }, podManifest(`p${i}`, 'big', { app: 'x' }));
  }
  await c.settle();
  const setupMs = ms(started);
  const delStart = process.hrtime.bigint();
  await c.client.delete({ resource: 'namespaces' }, 'big');
  await c.settle();
  let gone = false;
  for (let i = 0; i < 10 && !gone; i++) {
    try {
      await c.client.get({ resource: 'namespaces' }, 'big');
      await c.advance(1000);
    } catch {
      gone = true;
    }
  }
  const delMs = ms(delStart);
  await c.stop();
  return {
    case: `namespace deletion: ${NAMESPACE_OBJECTS} objects`,
    objects: NAMESPACE_OBJECTS,
    'setup ms': setupMs,
    'measured ms': delMs,
    'per object µs': (delMs * 1000) / NAMESPACE_OBJECTS,
    note: gone ? 'namespace gone' : 'namespace NOT gone',
  };
}

/** Pod creates with and without a compute ResourceQuota in the namespace: admission overhead per create. */
async function quotaBench(): Promise<Record<string, string | number>[]> {
  const rows: Record<string, string | number>[] = [];
  let baseline = 0;
  for (const withQuota of [false, true]) {
    const c = await cluster();
    const ns = 'q';
    await c.client.create({ resource: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    if (withQuota) {
      await c.client.create({ resource: 'resourcequotas', namespace: ns }, {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'compute' },
        spec: { hard: { pods: '100000', cpu: '1000', memory: '1000Gi' } },
      } as KubeObject);
    }
    await c.settle();
    const started = process.hrtime.bigint();
    for (let i = 0; i < QUOTA_CREATES; i++)
      await c.client.create({ resource: 'pods', namespace: ns }, podManifest(`p${i}`, ns, { app: 'q' }));
    await c.settle();
    const total = ms(started);
    const perCreate = (total * 1000) / QUOTA_CREATES;
    if (!withQuota) baseline = perCreate;
    rows.push({
      case: `pod create ${withQuota ? 'with' : 'without'} compute quota`,
      objects: QUOTA_CREATES,
      'setup ms': 0,
      'measured ms': total,
      'per object µs': perCreate,
      note: withQuota ? `quota admission: +${(perCreate - baseline).toFixed(0)} µs per create` : 'baseline',
    });
    await c.stop();
  }
  return rows;
}

/** The controller manager at scale, in virtual time (wall-clock cost of the reference implementation). */
export async function runControllersBenchmark(): Promise<void> {
  const rows = [await endpointsBench(), await namespaceBench(), ...(await quotaBench())];
  printTable('Controllers on the reference target (wall time; one process, in-memory store)', rows);
}

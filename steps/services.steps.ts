import { DataTable, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import * as fs from 'node:fs';
import { ConfigMap } from '../src/api/resources/configmap';
import { NotApplicableError } from '../src/drivers';
import { Secret } from '../src/api/resources/secret';
import { Service } from '../src/api/resources/service';
import { ServiceAccount } from '../src/api/resources/serviceaccount';
import { KubeWorld } from './world';
import { step } from './support';
import { fieldAt } from './objects';

/** Service, kube-proxy, load-balancer and service-account vocabulary. */

async function service(world: KubeWorld, name: string, namespace = 'default'): Promise<Service> {
  const cluster = await world.cluster();
  return cluster.client.get<Service>({ resource: 'services', namespace }, name);
}

// A regular expression: the backends ("a:1, b:2 then c:3") run to the end of the line; no parameter type reads them.
Then(
  /^connections from node "([^"]+)" to service "([^"]+)"(?: in namespace "([^"]+)")? port (\d+) reach (.+)$/,
  step(async function (this: KubeWorld, node: string, name: string, ns: string | null, port: string, targets: string) {
    const cluster = await this.cluster();
    const ip = (await service(this, name, ns ?? undefined)).spec.clusterIP!;
    const want = targets.split(/,\s*|\s+then\s+/).map((t) => t.trim());
    const got: string[] = [];
    for (let i = 0; i < want.length; i++) {
      const backend = await cluster.route(node, ip, Number(port));
      got.push(backend ? `${backend.ip}:${backend.port}` : 'refused');
    }
    expect(got, `connections to ${ip}:${port} from ${node}`).to.deep.equal(want);
  }),
);

Then(
  'connections from node {node} to service {string}{in-namespace} port {int} are refused',
  step(async function (this: KubeWorld, node: string, name: string, ns: string, port: number) {
    const cluster = await this.cluster();
    const ip = (await service(this, name, ns)).spec.clusterIP!;
    expect(await cluster.route(node, ip, Number(port))).to.equal(undefined);
  }),
);

Then(
  'services {string} and {string} have different cluster IPs in {string}',
  step(async function (this: KubeWorld, a: string, b: string, cidr: string) {
    const [ipA, ipB] = [(await service(this, a)).spec.clusterIP!, (await service(this, b)).spec.clusterIP!];
    expect(ipA).to.not.equal(ipB);
    const [base, bits] = cidr.split('/');
    const num = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
    const size = 2 ** (32 - Number(bits));
    for (const ip of [ipA, ipB]) expect(num(ip) - num(base), `${ip} in ${cidr}`).to.be.within(1, size - 2);
  }),
);

for (const verb of ['sends to', 'has']) {
  Then(
    `the load balancer of service {string}{in-namespace} ${verb} node(s) {names}`,
    step(async function (this: KubeWorld, name: string, ns: string, nodes: string[]) {
      const cluster = await this.cluster();
      const lbs = await cluster.loadBalancers();
      const lb = lbs.find((l) => l.service === `${ns}/${name}`);
      expect(lb, `load balancer of ${name} (have: ${lbs.map((l) => l.service).join(', ') || 'none'})`).to.not.equal(
        undefined,
      );
      expect(lb!.nodes).to.deep.equal(nodes.slice().sort());
    }),
  );
}

Then(
  'the cloud has {int} load balancer(s)',
  step(async function (this: KubeWorld, count: number) {
    const cluster = await this.cluster();
    expect((await cluster.loadBalancers()).map((l) => l.service)).to.have.length(Number(count));
  }),
);

async function tokenOf(world: KubeWorld, account: string, ns: string): Promise<string> {
  const cluster = await world.cluster();
  const sa = await cluster.client.get<ServiceAccount>({ resource: 'serviceaccounts', namespace: ns }, account);
  for (const ref of sa.secrets ?? []) {
    const secret = await cluster.client.get<Secret>({ resource: 'secrets', namespace: ns }, ref.name);
    if (secret.data?.token) return Buffer.from(secret.data.token, 'base64').toString('utf8');
  }
  throw new Error(`service account ${ns}/${account} lists no token secret`);
}

When(
  'I keep the token of service account {string}{in-namespace}',
  step(async function (this: KubeWorld, account: string, ns: string) {
    this.tokens.set(`${ns}/${account}`, await tokenOf(this, account, ns));
  }),
);

When(
  'I keep the token of secret {string}{in-namespace}',
  step(async function (this: KubeWorld, name: string, ns: string) {
    this.tokens.set(`secret:${ns}/${name}`, await tokenFrom(this, 'secret', name, ns));
  }),
);

/** A token: a secret's, a service account's now, or the one kept earlier ("kept token"). */
async function tokenFrom(
  world: KubeWorld,
  source: 'secret' | 'service account' | 'kept' | 'kept secret',
  name: string,
  namespace: string,
): Promise<string> {
  const cluster = await world.cluster();
  if (source === 'secret') {
    const secret = await cluster.client.get<Secret>({ resource: 'secrets', namespace }, name);
    expect(secret.data?.token, `secret ${name} has a token`).to.be.a('string');
    return Buffer.from(secret.data!.token, 'base64').toString('utf8');
  }
  if (source === 'service account') return tokenOf(world, name, namespace);
  const kept = world.tokens.get(source === 'kept secret' ? `secret:${namespace}/${name}` : `${namespace}/${name}`);
  if (!kept) throw new Error(`no token of ${namespace}/${name} was kept`);
  return kept;
}

for (const [words, source] of [
  ['the token of secret', 'secret'],
  ['the token of service account', 'service account'],
  ['the kept token of service account', 'kept'],
  ['the kept token of secret', 'kept secret'],
] as const) {
  Then(
    `${words} {string}{in-namespace} authenticates as {string} in groups {names}`,
    step(async function (this: KubeWorld, name: string, ns: string, user: string, groups: string[]) {
      const who = await (await this.cluster()).authenticate(await tokenFrom(this, source, name, ns));
      expect(who?.username).to.equal(user);
      expect(who?.groups).to.deep.equal(groups);
    }),
  );

  Then(
    `${words} {string}{in-namespace} is refused`,
    step(async function (this: KubeWorld, name: string, ns: string) {
      const who = await (await this.cluster()).authenticate(await tokenFrom(this, source, name, ns));
      expect(who, 'the token authenticates').to.equal(undefined);
    }),
  );
}

Then(
  'the secret {string}{in-namespace} holds:',
  step(async function (this: KubeWorld, name: string, ns: string, table: DataTable) {
    const cluster = await this.cluster();
    const secret = await cluster.client.get<Secret>({ resource: 'secrets', namespace: ns }, name);
    for (const [key, value] of table.raw())
      expect(Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8'), `secret ${name}: ${key}`).to.equal(
        value,
      );
  }),
);

/**
 * COMM-SERVICE-ACCOUNT: "the cluster root CA" a pod is given is the CA the API server's
 * serving certificate chains to (the file the target's kubeconfigs trust), byte for byte.
 */
async function servingCA(world: KubeWorld): Promise<string> {
  const cluster = await world.cluster();
  if (!cluster.http) throw new NotApplicableError(`target ${cluster.target} does not serve HTTP`);
  return fs.readFileSync((await cluster.http.serve()).caFile, 'utf8');
}

Then(
  "the first secret of service account {string}{in-namespace} holds the API server's CA certificate as {string}",
  step(async function (this: KubeWorld, account: string, ns: string, key: string) {
    const ca = await servingCA(this);
    const cluster = await this.cluster();
    const sa = await cluster.client.get<ServiceAccount>({ resource: 'serviceaccounts', namespace: ns }, account);
    const name = sa.secrets?.[0]?.name;
    expect(name, `service account ${account} lists a secret`).to.be.a('string');
    const secret = await cluster.client.get<Secret>({ resource: 'secrets', namespace: ns }, name!);
    expect(Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8'), `secret ${name}: ${key}`).to.equal(ca);
  }),
);

Then(
  "the configmap {string}{in-namespace} holds exactly the API server's CA certificate as {string}",
  step(async function (this: KubeWorld, name: string, ns: string, key: string) {
    const ca = await servingCA(this);
    const cluster = await this.cluster();
    const cm = await cluster.client.get<ConfigMap>({ resource: 'configmaps', namespace: ns }, name);
    expect(cm.data ?? {}, `configmap ${ns}/${name}'s data`).to.deep.equal({ [key]: ca });
  }),
);

Then(
  'the first secret of service account {string}{in-namespace} is called {string} followed by {int} characters',
  step(async function (this: KubeWorld, account: string, ns: string, prefix: string, n: number) {
    const cluster = await this.cluster();
    const sa = await cluster.client.get<ServiceAccount>({ resource: 'serviceaccounts', namespace: ns }, account);
    expect(sa.secrets?.[0]?.name ?? '').to.match(
      new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[a-z0-9]{${n}}$`),
    );
  }),
);

/**
 * An Endpoints subset's ports as a set: upstream orders them by a hash of each port
 * (SortSubsets, pkg/api/v1/endpoints), so their order carries no meaning.
 */
Then(
  'the endpoints {string}{in-namespace} has in subset {int} the ports:',
  step(async function (this: KubeWorld, name: string, namespace: string, index: number, table: DataTable) {
    const cluster = await this.cluster();
    const ep = await cluster.client.get<
      {
        subsets?: { ports?: { name?: string; port: number; protocol?: string }[] }[];
      } & import('../src/api/meta').KubeObject
    >({ resource: 'endpoints', namespace }, name);
    const ports = (ep.subsets?.[index]?.ports ?? []).map((p) => ({
      name: p.name ?? '',
      port: String(p.port),
      protocol: p.protocol ?? '',
    }));
    expect(ports, `ports of subset ${index} of endpoints ${name}`).to.have.deep.members(table.hashes());
  }),
);

// ── EndpointSlices (discovery.k8s.io/v1, the kubernetes-1.32 profile) ──

const SLICE_LABEL_SERVICE = 'kubernetes.io/service-name';
const SLICE_LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';

interface SliceView {
  metadata: { name?: string; labels?: Record<string, string>; ownerReferences?: { kind: string; name: string }[] };
  addressType?: string;
  endpoints?: { addresses: string[]; conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean } }[];
  ports?: { name?: string; port?: number; protocol?: string }[];
}

/** The EndpointSlices of a service that one controller manages (by their labels). */
async function slicesOf(world: KubeWorld, name: string, namespace: string, managedBy: string): Promise<SliceView[]> {
  const cluster = await world.cluster();
  const list = await cluster.client.list(
    { resource: 'endpointslices.discovery.k8s.io', namespace },
    {
      labelSelector: `${SLICE_LABEL_SERVICE}=${name},${SLICE_LABEL_MANAGED_BY}=${managedBy}`,
    },
  );
  return list.items as unknown as SliceView[];
}

const managers: Record<string, string> = {
  'endpoint slices': 'endpointslice-controller.k8s.io',
  'mirrored endpoint slices': 'endpointslicemirroring-controller.k8s.io',
};

for (const [what, managedBy] of Object.entries(managers)) {
  Then(
    `service {string}{in-namespace} has {int} ${what}`,
    step(async function (this: KubeWorld, name: string, ns: string, count: number) {
      const slices = await slicesOf(this, name, ns ?? 'default', managedBy);
      expect(
        slices.map((s) => s.metadata.name),
        `${what} of service ${name}`,
      ).to.have.length(Number(count));
    }),
  );

  /** Every endpoint of the service's slices, in any order: address, ready, serving, terminating (blank: absent). */
  Then(
    `the ${what} of service {string}{in-namespace} hold the endpoints:`,
    step(async function (this: KubeWorld, name: string, ns: string, table: DataTable) {
      const slices = await slicesOf(this, name, ns ?? 'default', managedBy);
      const show = (v: boolean | undefined) => (v === undefined ? '' : String(v));
      const got = slices
        .flatMap((s) => s.endpoints ?? [])
        .map((e) => {
          const row: Record<string, string> = { address: e.addresses.join(',') };
          for (const c of ['ready', 'serving', 'terminating'] as const)
            if (table.raw()[0].includes(c)) row[c] = show(e.conditions?.[c]);
          return JSON.stringify(row);
        })
        .sort();
      const want = table
        .hashes()
        .map((r) => JSON.stringify(r))
        .sort();
      expect(got, `endpoints of the ${what} of service ${name}`).to.deep.equal(want);
    }),
  );

  Then(
    `every one of the ${what} of service {string}{in-namespace} has:`,
    step(async function (this: KubeWorld, name: string, ns: string, table: DataTable) {
      const slices = await slicesOf(this, name, ns ?? 'default', managedBy);
      expect(slices, `${what} of service ${name}`).to.not.be.empty;
      for (const s of slices)
        for (const [path, value] of table.raw()) {
          // "label <key>" reads a label (its key has dots); anything else is a field path.
          const label = /^label (.+)$/.exec(path);
          const got = label ? s.metadata.labels?.[label[1]] : fieldAt(s, path);
          expect(got === undefined ? '<none>' : String(got), `${s.metadata.name}: ${path}`).to.equal(value);
        }
    }),
  );
}

import { DataTable, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { Secret } from '../src/api/resources/secret';
import { Service } from '../src/api/resources/service';
import { ServiceAccount } from '../src/api/resources/serviceaccount';
import { KubeWorld } from './world';
import { step } from './support';

/** Service, kube-proxy, load-balancer and service-account vocabulary. */

async function service(world: KubeWorld, name: string, namespace: string | null): Promise<Service> {
  const cluster = await world.cluster();
  return cluster.client.get<Service>({ resource: 'services', namespace: namespace ?? 'default' }, name);
}

Then(/^connections from node "([^"]+)" to service "([^"]+)"(?: in namespace "([^"]+)")? port (\d+) reach (.+)$/, step(async function (this: KubeWorld, node: string, name: string, ns: string | null, port: string, targets: string) {
  const cluster = await this.cluster();
  const ip = (await service(this, name, ns)).spec.clusterIP!;
  const want = targets.split(/,\s*|\s+then\s+/).map((t) => t.trim());
  const got: string[] = [];
  for (let i = 0; i < want.length; i++) {
    const backend = await cluster.route(node, ip, Number(port));
    got.push(backend ? `${backend.ip}:${backend.port}` : 'refused');
  }
  expect(got, `connections to ${ip}:${port} from ${node}`).to.deep.equal(want);
}));

Then(/^connections from node "([^"]+)" to service "([^"]+)"(?: in namespace "([^"]+)")? port (\d+) are refused$/, step(async function (this: KubeWorld, node: string, name: string, ns: string | null, port: string) {
  const cluster = await this.cluster();
  const ip = (await service(this, name, ns)).spec.clusterIP!;
  expect(await cluster.route(node, ip, Number(port))).to.equal(undefined);
}));

Then(/^services "([^"]+)" and "([^"]+)" have different cluster IPs in "([^"]+)"$/, step(async function (this: KubeWorld, a: string, b: string, cidr: string) {
  const [ipA, ipB] = [(await service(this, a, null)).spec.clusterIP!, (await service(this, b, null)).spec.clusterIP!];
  expect(ipA).to.not.equal(ipB);
  const [base, bits] = cidr.split('/');
  const num = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
  const size = 2 ** (32 - Number(bits));
  for (const ip of [ipA, ipB]) expect(num(ip) - num(base), `${ip} in ${cidr}`).to.be.within(1, size - 2);
}));

Then(/^the load balancer of service "([^"]+)"(?: in namespace "([^"]+)")? (?:sends to|has) nodes? (.*)$/, step(async function (this: KubeWorld, name: string, ns: string | null, nodes: string) {
  const cluster = await this.cluster();
  const lbs = await cluster.loadBalancers();
  const lb = lbs.find((l) => l.service === `${ns ?? 'default'}/${name}`);
  expect(lb, `load balancer of ${name} (have: ${lbs.map((l) => l.service).join(', ') || 'none'})`).to.not.equal(undefined);
  const want = nodes === 'none' ? [] : [...nodes.matchAll(/"([^"]+)"/g)].map((m) => m[1]).sort();
  expect(lb!.nodes).to.deep.equal(want);
}));

Then(/^the cloud has (\d+) load balancers?$/, step(async function (this: KubeWorld, count: string) {
  const cluster = await this.cluster();
  expect((await cluster.loadBalancers()).map((l) => l.service)).to.have.length(Number(count));
}));

async function tokenOf(world: KubeWorld, account: string, ns: string): Promise<string> {
  const cluster = await world.cluster();
  const sa = await cluster.client.get<ServiceAccount>({ resource: 'serviceaccounts', namespace: ns }, account);
  for (const ref of sa.secrets ?? []) {
    const secret = await cluster.client.get<Secret>({ resource: 'secrets', namespace: ns }, ref.name);
    if (secret.data?.token) return Buffer.from(secret.data.token, 'base64').toString('utf8');
  }
  throw new Error(`service account ${ns}/${account} lists no token secret`);
}

When(/^I keep the token of service account "([^"]+)"(?: in namespace "([^"]+)")?$/, step(async function (this: KubeWorld, account: string, ns: string | null) {
  this.tokens.set(`${ns ?? 'default'}/${account}`, await tokenOf(this, account, ns ?? 'default'));
}));

Then(/^the (kept )?token of (?:secret "([^"]+)"|service account "([^"]+)")(?: in namespace "([^"]+)")? (?:authenticates as "([^"]+)" in groups (.+)|is refused)$/,
  step(async function (this: KubeWorld, kept: string | null, secretName: string | null, account: string | null, ns: string | null, user: string | null, groups: string | null) {
    const cluster = await this.cluster();
    const namespace = ns ?? 'default';
    let token: string;
    if (secretName) {
      const secret = await cluster.client.get<Secret>({ resource: 'secrets', namespace }, secretName);
      expect(secret.data?.token, `secret ${secretName} has a token`).to.be.a('string');
      token = Buffer.from(secret.data!.token, 'base64').toString('utf8');
    } else {
      const key = `${namespace}/${account}`;
      if (kept && !this.tokens.has(key)) throw new Error(`no token of ${key} was kept`);
      token = kept ? this.tokens.get(key)! : await tokenOf(this, account!, namespace);
    }
    const who = await cluster.authenticate(token);
    if (user === null) {
      expect(who, 'the token authenticates').to.equal(undefined);
      return;
    }
    expect(who?.username).to.equal(user);
    expect(who?.groups).to.deep.equal([...groups!.matchAll(/"([^"]+)"/g)].map((m) => m[1]));
  }));

Then(/^the secret "([^"]+)"(?: in namespace "([^"]+)")? holds:$/, step(async function (this: KubeWorld, name: string, ns: string | null, table: DataTable) {
  const cluster = await this.cluster();
  const secret = await cluster.client.get<Secret>({ resource: 'secrets', namespace: ns ?? 'default' }, name);
  for (const [key, value] of table.raw()) expect(Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8'), `secret ${name}: ${key}`).to.equal(value);
}));

Then(/^the first secret of service account "([^"]+)"(?: in namespace "([^"]+)")? is called "([^"]+)" followed by (\d+) characters$/, step(async function (this: KubeWorld, account: string, ns: string | null, prefix: string, n: string) {
  const cluster = await this.cluster();
  const sa = await cluster.client.get<ServiceAccount>({ resource: 'serviceaccounts', namespace: ns ?? 'default' }, account);
  expect(sa.secrets?.[0]?.name ?? '').to.match(new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[a-z0-9]{${n}}$`));
}));

/**
 * An Endpoints subset's ports as a set: upstream orders them by a hash of each port
 * (SortSubsets, pkg/api/v1/endpoints), so their order carries no meaning.
 */
Then(/^the endpoints "([^"]+)"(?: in namespace "([^"]+)")? has in subset (\d+) the ports:$/, step(async function (this: KubeWorld, name: string, namespace: string | null, index: string, table: DataTable) {
  const cluster = await this.cluster();
  const ep = await cluster.client.get<{ subsets?: { ports?: { name?: string; port: number; protocol?: string }[] }[] } & import('../src/api/meta').KubeObject>({ resource: 'endpoints', namespace: namespace ?? 'default' }, name);
  const ports = (ep.subsets?.[Number(index)]?.ports ?? []).map((p) => ({ name: p.name ?? '', port: String(p.port), protocol: p.protocol ?? '' }));
  expect(ports, `ports of subset ${index} of endpoints ${name}`).to.have.deep.members(table.hashes());
}));

import { DataTable, Given, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { Lease, Node, NodeCondition } from '../src/api/core';
import { isStatusError } from '../src/api/errors';
import { KubeletSpec } from '../src/drivers';
import { parseLabels } from '../src/api/labels/parser';
import { parseTaints } from '../src/api/taints';
import { KubeWorld } from './world';
import { ageTolerance, step, toMs } from './support';

const NODES = { resource: 'nodes' };

async function getNode(world: KubeWorld, name: string): Promise<Node> {
  const cluster = await world.cluster();
  return cluster.client.get<Node>(NODES, name);
}

function condition(node: Node, type: string): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === type);
}

function describeConditions(node: Node): string {
  return (node.status?.conditions ?? []).map((c) => `${c.type}=${c.status} (${c.reason ?? ''})`).join(', ') || 'no conditions';
}

function list(value: string): Record<string, string> {
  return parseLabels(value);
}

/** Kubelet flags (and a few pseudo-flags for the machine) → what the hollow kubelet is. */
function kubeletSpec(name: string, rows: string[][]): KubeletSpec {
  const spec: KubeletSpec = { name, flags: {} };
  for (const [flag, value] of rows) {
    switch (flag) {
      case '--node-labels': spec.labels = list(value); break;
      case '--register-with-taints': spec.taints = parseTaints(value); break;
      case '--node-ip': spec.nodeIP = value; break;
      case '--hostname-override': spec.hostnameOverride = value; break;
      case '--pod-cidr': spec.podCIDR = value; break;
      case '--system-reserved': spec.reserved = list(value); break;
      case 'capacity': spec.capacity = list(value); break;
      case 'allocatable': spec.allocatable = list(value); break;
      case 'external IP': spec.externalIP = value; break;
      default:
        if (!flag.startsWith('--')) throw new Error(`unknown kubelet setting "${flag}"`);
        spec.flags![flag.slice(2)] = value;
    }
  }
  return spec;
}

async function waitReady(world: KubeWorld, name: string): Promise<void> {
  const cluster = await world.cluster();
  await cluster.waitFor(`node ${name} to be Ready`, async () => {
    try {
      return condition(await getNode(world, name), 'Ready')?.status === 'True';
    } catch (e) {
      if (isStatusError(e, 'NotFound')) return false;
      throw e;
    }
  }, 60_000);
}

Given(/^a ready node "([^"]+)"(?: with pod CIDR "([^"]+)")?$/, step(async function (this: KubeWorld, name: string, podCIDR: string | null) {
  const cluster = await this.cluster();
  await cluster.addKubelet({ name, nodeIP: /^\d+\.\d+\.\d+\.\d+$/.test(name) ? name : undefined, ...(podCIDR ? { podCIDR } : {}) });
  await waitReady(this, name);
}));

Given(/^ready nodes (.+)$/, step(async function (this: KubeWorld, names: string) {
  const cluster = await this.cluster();
  for (const name of [...names.matchAll(/"([^"]+)"/g)].map((m) => m[1])) {
    await cluster.addKubelet({ name, nodeIP: /^\d+\.\d+\.\d+\.\d+$/.test(name) ? name : undefined });
    await waitReady(this, name);
  }
}));

Given(/^a kubelet starts on node "([^"]+)" with:$/, step(async function (this: KubeWorld, name: string, table: DataTable) {
  const cluster = await this.cluster();
  await cluster.addKubelet(kubeletSpec(name, table.raw()));
}));

When(/^the kubelet on "([^"]+)" stops$/, step(async function (this: KubeWorld, name: string) {
  const cluster = await this.cluster();
  this.lastHeartbeat.set(name, await cluster.stopKubelet(name));
}));

When(/^the kubelet on "([^"]+)" starts again$/, step(async function (this: KubeWorld, name: string) {
  const cluster = await this.cluster();
  await cluster.startKubelet(name);
}));

When(/^I delete node "([^"]+)"$/, step(async function (this: KubeWorld, name: string) {
  const cluster = await this.cluster();
  await cluster.client.delete(NODES, name);
}));

Then(/^node "([^"]+)" exists$/, step(async function (this: KubeWorld, name: string) {
  const node = await getNode(this, name);
  expect(node.metadata.name).to.equal(name);
}));

Then(/^node "([^"]+)" does not exist$/, step(async function (this: KubeWorld, name: string) {
  const cluster = await this.cluster();
  await cluster.waitFor(`node ${name} to be gone`, async () => {
    try {
      await getNode(this, name);
      return false;
    } catch (e) {
      if (isStatusError(e, 'NotFound')) return true;
      throw e;
    }
  }, 0);
}));

Then(/^node "([^"]+)" is (?:still )?Ready$/, step(async function (this: KubeWorld, name: string) {
  const node = await getNode(this, name);
  expect(condition(node, 'Ready')?.status, `conditions of ${name}: ${describeConditions(node)}`).to.equal('True');
}));

Then(/^node "([^"]+)" has condition (\w+) "(True|False|Unknown)"(?: with reason "([^"]*)")?$/,
  step(async function (this: KubeWorld, name: string, type: string, status: string, reason?: string) {
    const node = await getNode(this, name);
    const c = condition(node, type);
    expect(c, `node ${name} has no ${type} condition (${describeConditions(node)})`).to.not.equal(undefined);
    expect(c!.status, `conditions of ${name}: ${describeConditions(node)}`).to.equal(status);
    if (reason != null) expect(c!.reason).to.equal(reason);
  }));

Then(/^node "([^"]+)" has no conditions$/, step(async function (this: KubeWorld, name: string) {
  const node = await getNode(this, name);
  expect(node.status?.conditions ?? [], describeConditions(node)).to.have.length(0);
}));

/**
 * The startup grace period counts from the Node's creationTimestamp (whole seconds), as
 * upstream's tryUpdateNodeHealth does. On a real clock the check is made half a second
 * before that moment: the controller may pass at any instant after it.
 */
Then(/^node "([^"]+)" has no conditions (\d+) seconds after its creation$/, step(async function (this: KubeWorld, name: string, seconds: string) {
  const cluster = await this.cluster();
  const created = Date.parse((await getNode(this, name)).metadata.creationTimestamp!);
  const at = created + Number(seconds) * 1000 - ageTolerance(this) / 4;
  if (at < cluster.now()) throw new Error(`that moment (${seconds} seconds after the creation) has already passed`);
  await cluster.advance(at - cluster.now());
  const node = await getNode(this, name);
  expect(node.status?.conditions ?? [], `at +${seconds} s: ${describeConditions(node)}`).to.have.length(0);
}));

Then(/^the conditions of node "([^"]+)" (are|include):$/, step(async function (this: KubeWorld, name: string, mode: string, table: DataTable) {
  const node = await getNode(this, name);
  const rows = table.hashes();
  const actual = (node.status?.conditions ?? []).map((c) => {
    const row: Record<string, string> = {};
    for (const k of Object.keys(rows[0] ?? {})) row[k] = String((c as unknown as Record<string, unknown>)[k] ?? '');
    return row;
  });
  if (mode === 'are') expect(actual).to.have.deep.members(rows);
  else expect(actual).to.deep.include.members(rows);
}));

Then(/^the (Ready|MemoryPressure|DiskPressure|PIDPressure|OutOfDisk|NetworkUnavailable) condition of node "([^"]+)" kept its last heartbeat time$/,
  step(async function (this: KubeWorld, type: string, name: string) {
    const node = await getNode(this, name);
    const c = condition(node, type);
    const last = this.lastHeartbeat.get(name);
    expect(last, `the kubelet on ${name} was not stopped in this scenario`).to.not.equal(undefined);
    expect(Date.parse(c!.lastHeartbeatTime!)).to.be.at.most(last!);
  }));

Then(/^node "([^"]+)" has addresses:$/, step(async function (this: KubeWorld, name: string, table: DataTable) {
  const node = await getNode(this, name);
  expect(node.status?.addresses ?? []).to.deep.equal(table.hashes());
}));

Then(/^node "([^"]+)" has (capacity|allocatable):$/, step(async function (this: KubeWorld, name: string, which: 'capacity' | 'allocatable', table: DataTable) {
  const node = await getNode(this, name);
  expect(node.status?.[which] ?? {}).to.deep.equal(Object.fromEntries(table.raw()));
}));

Then(/^node "([^"]+)" reports no capacity$/, step(async function (this: KubeWorld, name: string) {
  const node = await getNode(this, name);
  expect(node.status?.capacity ?? {}).to.deep.equal({});
  expect(node.status?.allocatable ?? {}).to.deep.equal({});
}));

Then(/^node "([^"]+)" reports node info:$/, step(async function (this: KubeWorld, name: string, table: DataTable) {
  const node = await getNode(this, name);
  const info = (node.status?.nodeInfo ?? {}) as unknown as Record<string, string>;
  for (const [field, expected] of table.raw()) {
    if (expected === '<non-empty>') expect(info[field], field).to.be.a('string').and.not.equal('');
    else expect(info[field], field).to.equal(expected);
  }
}));

Then(/^node "([^"]+)" has labels:$/, step(async function (this: KubeWorld, name: string, table: DataTable) {
  const node = await getNode(this, name);
  for (const [key, value] of table.raw()) expect(node.metadata.labels?.[key], `label ${key}`).to.equal(value);
}));

Then(/^node "([^"]+)" has taints:$/, step(async function (this: KubeWorld, name: string, table: DataTable) {
  const node = await getNode(this, name);
  const taints = (node.spec?.taints ?? []).map((t) => ({ key: t.key, value: t.value ?? '', effect: t.effect }));
  expect(taints).to.have.deep.members(table.hashes());
}));

Then(/^node "([^"]+)" has no taints$/, step(async function (this: KubeWorld, name: string) {
  const node = await getNode(this, name);
  expect(node.spec?.taints ?? []).to.have.length(0);
}));

Then(/^node "([^"]+)" is (still Ready|Unknown|NotReady) (\d+) (seconds?|minutes?) after its last heartbeat$/,
  step(async function (this: KubeWorld, name: string, state: string, amount: string, unit: string) {
    const cluster = await this.cluster();
    const last = this.lastHeartbeat.get(name);
    if (last === undefined) throw new Error(`the kubelet on ${name} was not stopped in this scenario`);
    const at = last + toMs(Number(amount), unit);
    if (at < cluster.now()) throw new Error(`that moment (${amount} ${unit} after the heartbeat) has already passed`);
    await cluster.advance(at - cluster.now());
    const node = await getNode(this, name);
    const expected = state === 'still Ready' ? 'True' : state === 'Unknown' ? 'Unknown' : 'False';
    expect(condition(node, 'Ready')?.status, `at +${amount} ${unit}: ${describeConditions(node)}`).to.equal(expected);
  }));

Then(/^node "([^"]+)" becomes Unknown within (\d+) (seconds?|minutes?) of its last heartbeat$/,
  step(async function (this: KubeWorld, name: string, amount: string, unit: string) {
    const cluster = await this.cluster();
    const last = this.lastHeartbeat.get(name);
    if (last === undefined) throw new Error(`the kubelet on ${name} was not stopped in this scenario`);
    const deadline = last + toMs(Number(amount), unit);
    await cluster.waitFor(`node ${name} to become Unknown`, async () => condition(await getNode(this, name), 'Ready')?.status === 'Unknown',
      Math.max(0, deadline - cluster.now()));
  }));

Then(/^there is an event "([^"]+)" for node "([^"]+)"(?: with message "([^"]*)")?$/, step(async function (this: KubeWorld, reason: string, name: string, message?: string) {
  const cluster = await this.cluster();
  const events = await cluster.events({ involvedName: name, reason });
  expect(events.map((e) => `${e.reason}: ${e.message}`), `events for ${name}`).to.not.be.empty;
  if (message != null) expect(events.map((e) => e.message)).to.include(message);
}));

Then(/^every Unknown condition of node "([^"]+)" has message "([^"]*)"$/, step(async function (this: KubeWorld, name: string, message: string) {
  const node = await getNode(this, name);
  const unknown = (node.status?.conditions ?? []).filter((c) => c.status === 'Unknown');
  expect(unknown, describeConditions(node)).to.not.be.empty;
  for (const c of unknown) expect(c.message, c.type).to.equal(message);
}));

const LEASES = { resource: 'leases', namespace: 'kube-node-lease' };

Then(/^the lease of node "([^"]+)" is held by "([^"]+)" for (\d+) seconds$/, step(async function (this: KubeWorld, name: string, holder: string, seconds: string) {
  const cluster = await this.cluster();
  const lease = await cluster.client.get<Lease>(LEASES, name);
  expect(lease.spec.holderIdentity).to.equal(holder);
  expect(lease.spec.leaseDurationSeconds).to.equal(Number(seconds));
  expect(lease.metadata.ownerReferences?.[0], 'the lease is owned by its Node').to.include({ kind: 'Node', name });
}));

Then(/^the lease of node "([^"]+)" was renewed within the last (\d+) seconds$/, step(async function (this: KubeWorld, name: string, seconds: string) {
  const cluster = await this.cluster();
  const lease = await cluster.client.get<Lease>(LEASES, name);
  const age = cluster.now() - Date.parse(lease.spec.renewTime!);
  expect(age, `renewTime ${lease.spec.renewTime}`).to.be.within(-ageTolerance(this), Number(seconds) * 1000 + ageTolerance(this));
}));

Then(/^node "([^"]+)" has no lease$/, step(async function (this: KubeWorld, name: string) {
  const cluster = await this.cluster();
  try {
    await cluster.client.get<Lease>(LEASES, name);
    expect.fail(`node ${name} has a lease`);
  } catch (e) {
    if (!isStatusError(e, 'NotFound')) throw e;
  }
}));

Then(/^the Ready condition of node "([^"]+)" was last posted more than (\d+) minutes ago$/, step(async function (this: KubeWorld, name: string, minutes: string) {
  const cluster = await this.cluster();
  const node = await getNode(this, name);
  const posted = Date.parse(condition(node, 'Ready')!.lastHeartbeatTime!);
  expect(cluster.now() - posted).to.be.greaterThan(Number(minutes) * 60_000);
}));

Then(/^the Ready condition of node "([^"]+)" changed status (\d+) seconds ago and was posted within the last (\d+) seconds$/,
  step(async function (this: KubeWorld, name: string, changed: string, posted: string) {
    const cluster = await this.cluster();
    const c = condition(await getNode(this, name), 'Ready')!;
    const slack = ageTolerance(this);
    expect(cluster.now() - Date.parse(c.lastTransitionTime!), 'since lastTransitionTime').to.be.within(Number(changed) * 1000 - slack, Number(changed) * 1000 + slack);
    expect(cluster.now() - Date.parse(c.lastHeartbeatTime!), 'since lastHeartbeatTime').to.be.within(-slack, Number(posted) * 1000 + slack);
  }));

Then(/^the Ready condition of node "([^"]+)" was posted (?:within the last (\d+) seconds|(\d+) seconds ago)$/,
  step(async function (this: KubeWorld, name: string, within: string | null, ago: string | null) {
    const cluster = await this.cluster();
    const c = condition(await getNode(this, name), 'Ready')!;
    const age = cluster.now() - Date.parse(c.lastHeartbeatTime!);
    const slack = ageTolerance(this);
    if (within != null) expect(age, 'since lastHeartbeatTime').to.be.within(-slack, Number(within) * 1000 + slack);
    else expect(age, 'since lastHeartbeatTime').to.be.within(Number(ago) * 1000 - slack, Number(ago) * 1000 + slack);
  }));

When(/^I set the capacity of node "([^"]+)" to "([^"]+)"$/, step(async function (this: KubeWorld, name: string, capacity: string) {
  const cluster = await this.cluster();
  const resources = parseLabels(capacity);
  await cluster.client.patch(NODES, name, 'merge', { status: { capacity: resources, allocatable: resources } }, { subresource: 'status' });
}));

/** NODE-CIDR: which node holds which block does not matter, only that the blocks are these, once each. */
Then(/^the nodes (.+) hold the pod CIDRs (.+) between them$/, step(async function (this: KubeWorld, names: string, cidrs: string) {
  const quoted = (s: string) => [...s.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const held: string[] = [];
  for (const name of quoted(names)) held.push((await getNode(this, name)).spec?.podCIDR ?? `<none on ${name}>`);
  expect(held.slice().sort(), `spec.podCIDR of ${quoted(names).join(', ')}: ${held.join(', ')}`).to.deep.equal(quoted(cidrs).sort());
}));

import { DataTable, Given, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { Node, NodeCondition, Pod } from '../src/api/core';
import { isStatusError } from '../src/api/errors';
import { KubeletSpec } from '../src/drivers';
import { parseLabels } from '../src/api/labels/parser';
import { parseTaints } from '../src/api/taints';
import { KubeWorld } from './world';
import {
  ageTolerance,
  describeConditions as describeNodeConditions,
  expectCell,
  expectCondition,
  expectEvent,
  step,
} from './support';

/**
 * Vocabulary for nodes: hollow kubelets that start, stop and start again, and what their Node
 * objects show — conditions, addresses, capacity, node info, labels, taints, events, pod CIDRs.
 * Heartbeats and leases are heartbeat.steps.ts.
 */

const NODES = { resource: 'nodes' };

export async function getNode(world: KubeWorld, name: string): Promise<Node> {
  const cluster = await world.cluster();
  return cluster.client.get<Node>(NODES, name);
}

export function condition(node: Node, type: string): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === type);
}

export function describeConditions(node: Node): string {
  return describeNodeConditions(node.status?.conditions);
}

function list(value: string): Record<string, string> {
  return parseLabels(value);
}

/** Kubelet flags (and a few pseudo-flags for the machine) → what the hollow kubelet is. */
function kubeletSpec(name: string, rows: string[][]): KubeletSpec {
  const spec: KubeletSpec = { name, flags: {} };
  for (const [flag, value] of rows) {
    switch (flag) {
      case '--node-labels':
        spec.labels = list(value);
        break;
      case '--register-with-taints':
        spec.taints = parseTaints(value);
        break;
      case '--node-ip':
        spec.nodeIP = value;
        break;
      case '--hostname-override':
        spec.hostnameOverride = value;
        break;
      case '--pod-cidr':
        spec.podCIDR = value;
        break;
      case '--system-reserved':
        spec.reserved = list(value);
        break;
      case 'capacity':
        spec.capacity = list(value);
        break;
      case 'allocatable':
        spec.allocatable = list(value);
        break;
      case 'external IP':
        spec.externalIP = value;
        break;
      default:
        if (!flag.startsWith('--')) throw new Error(`unknown kubelet setting "${flag}"`);
        spec.flags![flag.slice(2)] = value;
    }
  }
  return spec;
}

async function waitReady(world: KubeWorld, name: string): Promise<void> {
  const cluster = await world.cluster();
  await cluster.waitFor(
    `node ${name} to be Ready`,
    async () => {
      try {
        return condition(await getNode(world, name), 'Ready')?.status === 'True';
      } catch (e) {
        if (isStatusError(e, 'NotFound')) return false;
        throw e;
      }
    },
    60_000,
  );
}

/** A hollow kubelet that registers its node and reports Ready; a node named by an IPv4 address has that address. */
async function addReadyNode(world: KubeWorld, name: string, podCIDR?: string): Promise<void> {
  const cluster = await world.cluster();
  await cluster.addKubelet({
    name,
    nodeIP: /^\d+\.\d+\.\d+\.\d+$/.test(name) ? name : undefined,
    ...(podCIDR ? { podCIDR } : {}),
  });
  await waitReady(world, name);
}

Given(
  'a ready node {node}',
  step(async function (this: KubeWorld, name: string) {
    await addReadyNode(this, name);
  }),
);

Given(
  'a ready node {node} with pod CIDR {string}',
  step(async function (this: KubeWorld, name: string, podCIDR: string) {
    await addReadyNode(this, name, podCIDR);
  }),
);

Given(
  'ready nodes {names}',
  step(async function (this: KubeWorld, names: string[]) {
    for (const name of names) await addReadyNode(this, name);
  }),
);

Given(
  'a kubelet starts on node {node} with:',
  step(async function (this: KubeWorld, name: string, table: DataTable) {
    const cluster = await this.cluster();
    await cluster.addKubelet(kubeletSpec(name, table.raw()));
  }),
);

When(
  'the kubelet on {node} stops',
  step(async function (this: KubeWorld, name: string) {
    const cluster = await this.cluster();
    this.lastHeartbeat.set(name, await cluster.stopKubelet(name));
    const conditions = (await getNode(this, name)).status?.conditions ?? [];
    this.heartbeatsAtStop.set(name, Object.fromEntries(conditions.map((c) => [c.type, c.lastHeartbeatTime])));
  }),
);

When(
  'the kubelet on {node} starts again',
  step(async function (this: KubeWorld, name: string) {
    const cluster = await this.cluster();
    await cluster.startKubelet(name);
  }),
);

When(
  'I delete node {node}',
  step(async function (this: KubeWorld, name: string) {
    const cluster = await this.cluster();
    await cluster.client.delete(NODES, name);
  }),
);

Then(
  'node {node} exists',
  step(async function (this: KubeWorld, name: string) {
    const node = await getNode(this, name);
    expect(node.metadata.name).to.equal(name);
  }),
);

Then(
  'node {node} does not exist',
  step(async function (this: KubeWorld, name: string) {
    const cluster = await this.cluster();
    await cluster.waitFor(
      `node ${name} to be gone`,
      async () => {
        try {
          await getNode(this, name);
          return false;
        } catch (e) {
          if (isStatusError(e, 'NotFound')) return true;
          throw e;
        }
      },
      0,
    );
  }),
);

Then(
  'node {node} is (still )Ready',
  step(async function (this: KubeWorld, name: string) {
    const node = await getNode(this, name);
    expect(condition(node, 'Ready')?.status, `conditions of ${name}: ${describeConditions(node)}`).to.equal('True');
  }),
);

async function expectNodeCondition(
  world: KubeWorld,
  name: string,
  type: string,
  status: string,
  reason?: string,
): Promise<void> {
  expectCondition(`node ${name}`, (await getNode(world, name)).status?.conditions, type, status, reason);
}

Then(
  'node {node} has condition {word} {condition-status}',
  step(async function (this: KubeWorld, name: string, type: string, status: string) {
    await expectNodeCondition(this, name, type, status);
  }),
);

Then(
  'node {node} has condition {word} {condition-status} with reason {string}',
  step(async function (this: KubeWorld, name: string, type: string, status: string, reason: string) {
    await expectNodeCondition(this, name, type, status, reason);
  }),
);

Then(
  'node {node} has no conditions',
  step(async function (this: KubeWorld, name: string) {
    const node = await getNode(this, name);
    expect(node.status?.conditions ?? [], describeConditions(node)).to.have.length(0);
  }),
);

/**
 * The startup grace period counts from the Node's creationTimestamp (whole seconds), as
 * upstream's tryUpdateNodeHealth does. On a real clock the check is made half a second
 * before that moment: the controller may pass at any instant after it. A read that finds
 * conditions may have been answered after that moment on a loaded machine (at load 50 it was,
 * registration.feature:143 in the twenty-third full run): where the target keeps the API
 * server's record of its requests, the first status write it received for the node is what
 * must come after that moment.
 */
Then(
  'node {node} has no conditions {duration} after its creation',
  step(async function (this: KubeWorld, name: string, ms: number) {
    const cluster = await this.cluster();
    const created = Date.parse((await getNode(this, name)).metadata.creationTimestamp!);
    const at = created + ms - ageTolerance(this) / 4;
    if (at < cluster.now()) throw new Error(`that moment (${ms / 1000} s after the creation) has already passed`);
    await cluster.advance(at - cluster.now());
    const node = await getNode(this, name);
    const conditions = node.status?.conditions ?? [];
    const what = `at +${(at - created) / 1000} s: ${describeConditions(node)}`;
    if (conditions.length === 0 || cluster.capabilities.virtualTime || !cluster.requestTimes)
      return expect(conditions, what).to.have.length(0);
    await expectFirstStatusWriteFrom(this, name, ['update', 'patch'], {
      since: created,
      at,
      what,
      state: 'with conditions',
    });
  }),
);

/**
 * A read that came late on a real clock, judged by the API server's record: the first status
 * write of node `name` by one of `verbs` received after `since` must come at or after `at`
 * (ms). `what` says what the read saw, `state` what it found instead of what was expected.
 */
export async function expectFirstStatusWriteFrom(
  world: KubeWorld,
  name: string,
  verbs: readonly string[],
  judged: { since: number; at: number; what: string; state: string },
): Promise<void> {
  const cluster = await world.cluster();
  if (!cluster.requestTimes) throw new Error(`target ${cluster.target} keeps no record of its requests`);
  const ref = { resource: 'nodes', name, subresource: 'status' };
  const writes = await Promise.all(verbs.map((verb) => cluster.requestTimes!(verb, [ref])));
  const first = Math.min(...writes.flatMap(([times]) => times.filter((t) => t > judged.since)));
  const written = `status ${verbs.join(' or ')}`;
  const seen = Number.isFinite(first)
    ? `its first ${written} received at +${((first - judged.since) / 1000).toFixed(3)} s (the API server's audit record)`
    : `no ${written} of it in the API server's audit record`;
  expect(Number.isFinite(first), `${judged.what} when read; ${seen}`).to.equal(true);
  expect(first, `${judged.what} when read; ${seen}`).to.be.at.least(judged.at);
  world.attach(`read late, ${judged.state}; ${seen}`, 'text/plain');
}

async function expectConditions(
  world: KubeWorld,
  name: string,
  mode: 'are' | 'include',
  table: DataTable,
): Promise<void> {
  const node = await getNode(world, name);
  const rows = table.hashes();
  const actual = (node.status?.conditions ?? []).map((c) => {
    const row: Record<string, string> = {};
    for (const k of Object.keys(rows[0] ?? {})) row[k] = String((c as unknown as Record<string, unknown>)[k] ?? '');
    return row;
  });
  if (mode === 'are') expect(actual).to.have.deep.members(rows);
  else expect(actual).to.deep.include.members(rows);
}

Then(
  'the conditions of node {node} are:',
  step(async function (this: KubeWorld, name: string, table: DataTable) {
    await expectConditions(this, name, 'are', table);
  }),
);

Then(
  'the conditions of node {node} include:',
  step(async function (this: KubeWorld, name: string, table: DataTable) {
    await expectConditions(this, name, 'include', table);
  }),
);

Then(
  'node {node} has addresses:',
  step(async function (this: KubeWorld, name: string, table: DataTable) {
    const node = await getNode(this, name);
    expect(node.status?.addresses ?? []).to.deep.equal(table.hashes());
  }),
);

for (const which of ['capacity', 'allocatable'] as const) {
  Then(
    `node {node} has ${which}:`,
    step(async function (this: KubeWorld, name: string, table: DataTable) {
      const node = await getNode(this, name);
      expect(node.status?.[which] ?? {}).to.deep.equal(Object.fromEntries(table.raw()));
    }),
  );
}

Then(
  'node {node} reports no capacity',
  step(async function (this: KubeWorld, name: string) {
    const node = await getNode(this, name);
    expect(node.status?.capacity ?? {}).to.deep.equal({});
    expect(node.status?.allocatable ?? {}).to.deep.equal({});
  }),
);

Then(
  'node {node} reports node info:',
  step(async function (this: KubeWorld, name: string, table: DataTable) {
    const node = await getNode(this, name);
    const info = (node.status?.nodeInfo ?? {}) as unknown as Record<string, string>;
    for (const [field, expected] of table.raw()) {
      // "<matches RE>": the value's form (what a real machine reports varies, its shape does
      // not); "<same as FIELD>": equal to another field. No "any text": a broken kubelet's
      // value (its OS name where the distribution belongs) is text too.
      const same = /^<same as (\w+)>$/.exec(expected);
      if (same) expect(info[field], `${field} (and ${same[1]})`).to.be.a('string').and.equal(info[same[1]]);
      else expectCell(info[field], expected, field);
    }
  }),
);

Then(
  'node {node} has labels:',
  step(async function (this: KubeWorld, name: string, table: DataTable) {
    const node = await getNode(this, name);
    for (const [key, value] of table.raw()) expect(node.metadata.labels?.[key], `label ${key}`).to.equal(value);
  }),
);

Then(
  'node {node} has taints:',
  step(async function (this: KubeWorld, name: string, table: DataTable) {
    const node = await getNode(this, name);
    const taints = (node.spec?.taints ?? []).map((t) => ({ key: t.key, value: t.value ?? '', effect: t.effect }));
    expect(taints).to.have.deep.members(table.hashes());
  }),
);

Then(
  'node {node} has providerID {string}',
  step(async function (this: KubeWorld, name: string, expected: string) {
    // "<cloud>" stands for the provider's own name (simulated, kubespec, gce…): each cloud
    // names its machines its way; the rest is exact.
    const node = await getNode(this, name);
    const form = new RegExp(
      `^${expected
        .split('<cloud>')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[a-z][a-z0-9-]*')}$`,
    );
    expect(node.spec?.providerID ?? '', `spec.providerID of node ${name}`).to.match(form);
  }),
);

Then(
  'node {node} has no taints',
  step(async function (this: KubeWorld, name: string) {
    const node = await getNode(this, name);
    expect(node.spec?.taints ?? []).to.have.length(0);
  }),
);

Then(
  'there is an event {string} for node {node}',
  step(async function (this: KubeWorld, reason: string, name: string) {
    await expectEvent(this, reason, name, name);
  }),
);

Then(
  'there is an event {string} for node {node} with message {string}',
  step(async function (this: KubeWorld, reason: string, name: string, message: string) {
    await expectEvent(this, reason, name, name, message);
  }),
);

Then(
  'every Unknown condition of node {node} has message {string}',
  step(async function (this: KubeWorld, name: string, message: string) {
    const node = await getNode(this, name);
    const unknown = (node.status?.conditions ?? []).filter((c) => c.status === 'Unknown');
    expect(unknown, describeConditions(node)).to.not.be.empty;
    for (const c of unknown) expect(c.message, c.type).to.equal(message);
  }),
);

When(
  'I set the capacity of node {node} to {string}',
  step(async function (this: KubeWorld, name: string, capacity: string) {
    const cluster = await this.cluster();
    const resources = parseLabels(capacity);
    await cluster.client.patch(
      NODES,
      name,
      'merge',
      { status: { capacity: resources, allocatable: resources } },
      { subresource: 'status' },
    );
  }),
);

/** NODE-CIDR: which node holds which block does not matter, only that the blocks are these, once each. */
Then(
  'the nodes {names} hold the pod CIDRs {names} between them',
  step(async function (this: KubeWorld, names: string[], cidrs: string[]) {
    const held: string[] = [];
    for (const name of names) held.push((await getNode(this, name)).spec?.podCIDR ?? `<none on ${name}>`);
    expect(held.slice().sort(), `spec.podCIDR of ${names.join(', ')}: ${held.join(', ')}`).to.deep.equal(
      cidrs.slice().sort(),
    );
  }),
);

/** An IPv4 address as a number (for the order of blocks). */
const ipv4 = (ip: string): number => ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);

// What every cluster shows of the range allocator's cursor on a real clock: each node its own
// block of the cluster CIDR, later nodes later blocks. Which block exactly is the reference's
// (upstream's allocator may handle a node twice from a stale cache and skip one: cidr.feature).
Then(
  'the pod CIDRs of nodes {names} are distinct \\/{int} blocks of {string}, in that order',
  step(async function (this: KubeWorld, names: string[], bits: number, cluster: string) {
    const [base, clusterBits] = cluster.split('/');
    const first = ipv4(base);
    const size = 2 ** (32 - Number(clusterBits));
    let previous = -1;
    for (const name of names) {
      const spec = (await getNode(this, name)).spec;
      const cidr = spec?.podCIDR ?? '';
      expect(spec?.podCIDRs, `spec.podCIDRs of ${name}`).to.deep.equal([cidr]);
      const [ip, maskBits] = cidr.split('/');
      expect(Number(maskBits), `the mask of ${name}'s block ${cidr}`).to.equal(bits);
      const at = ipv4(ip ?? '');
      expect(
        at >= first && at + 2 ** (32 - bits) <= first + size,
        `${name}'s block ${cidr} lies in ${cluster}`,
      ).to.equal(true);
      expect(at % 2 ** (32 - bits), `${name}'s block ${cidr} starts on a /${bits} boundary`).to.equal(0);
      expect(at, `${name}'s block ${cidr} comes after the previous node's`).to.be.above(previous);
      previous = at;
    }
  }),
);

Then(
  "the pod {string} has address {int} of node {node}'s pod CIDR",
  step(async function (this: KubeWorld, pod: string, offset: number, node: string) {
    const cidr = (await getNode(this, node)).spec?.podCIDR ?? '';
    const at = ipv4(cidr.split('/')[0]) + offset;
    const want = [24, 16, 8, 0].map((shift) => Math.floor(at / 2 ** shift) % 256).join('.');
    const cluster = await this.cluster();
    const got = (await cluster.client.get<Pod>({ resource: 'pods', namespace: 'default' }, pod)).status?.podIP;
    expect(got, `Pod ${pod}: status.podIP, address ${offset} of ${node}'s ${cidr}`).to.equal(want);
  }),
);

/** The node as the API server answered its creation: what admission made of the manifest, before any controller. */
function createdNode(world: KubeWorld): Node {
  const obj = world.lastCreated;
  if (obj?.kind !== 'Node') throw new Error('no "I create this node:" step created a node in this scenario');
  return obj as Node;
}

Then(
  'the node as created carries the taints:',
  step(async function (this: KubeWorld, table: DataTable) {
    const taints = (createdNode(this).spec?.taints ?? []).map((t) => ({
      key: t.key,
      value: t.value ?? '',
      effect: t.effect,
    }));
    expect(taints, 'spec.taints of the create response').to.deep.equal(table.hashes());
  }),
);

Then(
  'the node as created carries no taints',
  step(async function (this: KubeWorld) {
    expect(createdNode(this).spec?.taints ?? [], 'spec.taints of the create response').to.deep.equal([]);
  }),
);

/** "big-1" to "big-101": the names with one prefix and the numbers between. */
function numbered(first: string, last: string): string[] {
  const [a, b] = [/^(.*)-(\d+)$/.exec(first), /^(.*)-(\d+)$/.exec(last)];
  if (!a || !b || a[1] !== b[1]) throw new Error(`"${first}" to "${last}": want <prefix>-<number> twice, same prefix`);
  const [from, to] = [Number(a[2]), Number(b[2])];
  return Array.from({ length: to - from + 1 }, (_, i) => `${a[1]}-${from + i}`);
}

When(
  'I create the nodes {string} to {string} by hand',
  step(async function (this: KubeWorld, first: string, last: string) {
    const cluster = await this.cluster();
    for (const name of numbered(first, last))
      await cluster.client.create<Node>(NODES, { apiVersion: 'v1', kind: 'Node', metadata: { name } });
  }),
);

When(
  'I delete the nodes {string} to {string}',
  step(async function (this: KubeWorld, first: string, last: string) {
    const cluster = await this.cluster();
    for (const name of numbered(first, last)) await cluster.client.delete(NODES, name);
  }),
);

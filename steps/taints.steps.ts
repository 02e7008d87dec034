import { DataTable, Given, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { Node, Pod, Taint, Toleration } from '../src/api/core';
import { KubeWorld } from './world';
import { advanceUntil, expectCondition, step } from './support';
import { taintText } from './parameters';
import { runPodOn } from './pods.steps';
import { stopTogether, timeline, zoneNodes } from './eviction.steps';

/**
 * Vocabulary for what the node lifecycle controller reads and writes on nodes and pods: the
 * conditions a node reports (set by the scenario, or Ready "False" posted for a while), the
 * taints that follow from them or that a scenario sets, cordoning, and pods' tolerations and
 * conditions.
 */

/** A pod's tolerations as the rows of a scenario's table (key, operator, effect, seconds). */
function tolerationRows(tolerations: Toleration[] | undefined): Record<string, string>[] {
  return (tolerations ?? []).map((t) => ({
    key: t.key ?? '',
    operator: t.operator ?? '',
    effect: t.effect ?? '',
    seconds: t.tolerationSeconds === undefined ? '-' : String(t.tolerationSeconds),
  }));
}

// ── taints ──────────────────────────────────────────────────────────────────────────────

async function taintsOf(world: KubeWorld, node: string): Promise<string[]> {
  const cluster = await world.cluster();
  const n = await cluster.client.get<Node>({ resource: 'nodes' }, node);
  return (n.spec?.taints ?? []).map(taintText);
}

Then(
  'node {node} has the taint {taint}',
  step(async function (this: KubeWorld, node: string, taint: Taint) {
    expect(await taintsOf(this, node), `taints of ${node}`).to.include(taintText(taint));
  }),
);

Then(
  'node {node} does not have the taint {taint}',
  step(async function (this: KubeWorld, node: string, taint: Taint) {
    expect(await taintsOf(this, node), `taints of ${node}`).to.not.include(taintText(taint));
  }),
);

Then(
  'node {node} has no NoExecute taints',
  step(async function (this: KubeWorld, node: string) {
    expect((await taintsOf(this, node)).filter((t) => t.endsWith(':NoExecute'))).to.deep.equal([]);
  }),
);

Then(
  'no node of zone/group {string} has a NoExecute taint',
  step(async function (this: KubeWorld, zone: string) {
    for (const n of zoneNodes(this, zone))
      expect(
        (await taintsOf(this, n)).filter((t) => t.endsWith(':NoExecute')),
        n,
      ).to.deep.equal([]);
  }),
);

// ── pods with tolerations ───────────────────────────────────────────────────────────────

Given(
  'a pod {string} running on node {node} with tolerations:',
  step(async function (this: KubeWorld, name: string, node: string, table: DataTable) {
    const tolerations = table.hashes().map((r) => ({
      key: r.key || undefined,
      operator: (r.operator || 'Equal') as 'Equal' | 'Exists',
      ...(r.value ? { value: r.value } : {}),
      ...(r.effect ? { effect: r.effect as 'NoExecute' } : {}),
      ...(r.seconds && r.seconds !== '-' ? { tolerationSeconds: Number(r.seconds) } : {}),
    }));
    await timeline(this);
    await runPodOn(this, name, node, 'default', { tolerations });
  }),
);

Then(
  'pod {string} has tolerations:',
  step(async function (this: KubeWorld, name: string, table: DataTable) {
    const cluster = await this.cluster();
    const pod = await cluster.client.get<Pod>({ resource: 'pods', namespace: 'default' }, name);
    expect(tolerationRows(pod.spec.tolerations)).to.deep.equal(table.hashes());
  }),
);

async function expectPodCondition(
  world: KubeWorld,
  name: string,
  type: string,
  status: string,
  reason?: string,
): Promise<void> {
  const cluster = await world.cluster();
  const pod = await cluster.client.get<Pod>({ resource: 'pods', namespace: 'default' }, name);
  expectCondition(`pod ${name}`, pod.status?.conditions, type, status, reason);
}

Then(
  'pod {string} has condition {word} {condition-status}',
  step(async function (this: KubeWorld, name: string, type: string, status: string) {
    await expectPodCondition(this, name, type, status);
  }),
);

Then(
  'pod {string} has condition {word} {condition-status} with reason {string}',
  step(async function (this: KubeWorld, name: string, type: string, status: string, reason: string) {
    await expectPodCondition(this, name, type, status, reason);
  }),
);

When(
  'node {node} reports condition {word} {condition-status}',
  step(async function (this: KubeWorld, node: string, type: string, status: string) {
    const cluster = await this.cluster();
    const n = await cluster.client.get<Node>({ resource: 'nodes' }, node);
    const now = new Date(cluster.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const conditions = (n.status?.conditions ?? []).filter((c) => c.type !== type);
    conditions.push({
      type,
      status: status as 'True',
      reason: 'SetByScenario',
      message: `${type} is ${status}`,
      lastHeartbeatTime: now,
      lastTransitionTime: now,
    });
    await cluster.client.patch(
      { resource: 'nodes' },
      node,
      'merge',
      { status: { conditions } },
      { subresource: 'status' },
    );
  }),
);

for (const [verb, unschedulable] of [
  ['cordon', true],
  ['uncordon', null],
] as const) {
  When(
    `I ${verb} node {node}`,
    step(async function (this: KubeWorld, node: string) {
      const cluster = await this.cluster();
      await cluster.client.patch({ resource: 'nodes' }, node, 'merge', { spec: { unschedulable } });
    }),
  );
}

When(
  'I taint node {node} with {taint}',
  step(async function (this: KubeWorld, node: string, taint: Taint) {
    const cluster = await this.cluster();
    const n = await cluster.client.get<Node>({ resource: 'nodes' }, node);
    const taints = [
      ...(n.spec?.taints ?? []),
      { key: taint.key, ...(taint.value ? { value: taint.value } : {}), effect: taint.effect },
    ];
    await timeline(this);
    taintedAt.set(this, { ...taintedAt.get(this), [node]: cluster.now() });
    await cluster.client.patch({ resource: 'nodes' }, node, 'merge', { spec: { taints } });
  }),
);

/** When each node was last tainted by the step above (the cluster's clock, just before the write). */
const taintedAt = new WeakMap<KubeWorld, Record<string, number>>();

// The taint eviction controller counts a toleration's seconds from when it saw the taint
// (processPodOnNode: the scheduled eviction's CreatedAt), which is at or after the write: on a
// real clock the steps between the taint and the wait take their own time, so the wait is
// anchored to the write instead of to the end of those steps.
When(
  '{duration} pass(es) after I tainted node {node}',
  step(async function (this: KubeWorld, ms: number, node: string) {
    const at = taintedAt.get(this)?.[node];
    if (at === undefined) throw new Error(`node ${node} was not tainted by this scenario`);
    await advanceUntil(this, at, ms, `node ${node} was tainted`);
  }),
);

When(
  'I remove the taint {string} from node {node}',
  step(async function (this: KubeWorld, key: string, node: string) {
    const cluster = await this.cluster();
    const n = await cluster.client.get<Node>({ resource: 'nodes' }, node);
    await cluster.client.patch({ resource: 'nodes' }, node, 'merge', {
      spec: { taints: (n.spec?.taints ?? []).filter((t) => t.key !== key) },
    });
  }),
);

Then(
  'the daemon pod on node {node} has tolerations:',
  step(async function (this: KubeWorld, node: string, table: DataTable) {
    const cluster = await this.cluster();
    const pods = (
      await cluster.client.list<Pod>({ resource: 'pods' }, { fieldSelector: `spec.nodeName=${node}` })
    ).items.filter((p) => p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet'));
    expect(pods, `daemon pods on ${node}`).to.have.length(1);
    expect(tolerationRows(pods[0].spec.tolerations)).to.deep.equal(table.hashes());
  }),
);

// ── nodes that report Ready=False (not silent: NotReady with fresh heartbeats) ────────────────

/** How often a not-ready node's status is posted: the kubelet's default --node-status-update-frequency. */
const NOT_READY_POST_MS = 10_000;

/**
 * Plays the kubelet of nodes whose runtime is down: their kubelets stop, and every 10 s each
 * node's Ready condition is posted as False (reason KubeletNotReady) with a fresh heartbeat and
 * the transition time of the first False — so the controller sees a live node that is not
 * ready (the "False" branch), never a silent one (the "Unknown" branch).
 */
async function reportNotReady(world: KubeWorld, nodes: string[], durationMs: number): Promise<void> {
  const cluster = await world.cluster();
  await timeline(world);
  await stopTogether(world, cluster, nodes);
  const end = cluster.now() + durationMs;
  // On a real clock the nodes' writes go out together, as their kubelets' would: one after
  // another they took seconds at load 20, and the node lifecycle controller's passes saw them
  // in two groups (nineteenth full run, docs/upstream-findings.md).
  const together = !world.driver.capabilities.virtualTime;
  for (;;) {
    const stamp = new Date(cluster.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const post = async (name: string) => {
      const node = await cluster.client.get<Node>({ resource: 'nodes' }, name);
      const previous = node.status?.conditions?.find((c) => c.type === 'Ready');
      const conditions = (node.status?.conditions ?? []).filter((c) => c.type !== 'Ready');
      conditions.push({
        type: 'Ready',
        status: 'False',
        reason: 'KubeletNotReady',
        message: 'container runtime is down',
        lastHeartbeatTime: stamp,
        lastTransitionTime: previous?.status === 'False' ? previous.lastTransitionTime : stamp,
      });
      await cluster.client.patch(
        { resource: 'nodes' },
        name,
        'merge',
        { status: { conditions } },
        { subresource: 'status' },
      );
      if (!world.readyFalseTimes.has(name)) world.readyFalseTimes.set(name, cluster.now());
    };
    if (together) await Promise.all(nodes.map(post));
    else for (const name of nodes) await post(name);
    const left = end - cluster.now();
    if (left <= 0) return;
    await cluster.advance(Math.min(NOT_READY_POST_MS, left));
  }
}

When(
  '{int} node(s) of zone/group {string} report(s) Ready "False" for {duration}',
  step(async function (this: KubeWorld, count: number, zone: string, ms: number) {
    const nodes = zoneNodes(this, zone).slice(0, Number(count));
    if (nodes.length < Number(count)) throw new Error(`zone "${zone}" has only ${nodes.length} nodes`);
    await reportNotReady(this, nodes, ms);
  }),
);

When(
  'every node of zone/group {string} reports Ready "False" for {duration}',
  step(async function (this: KubeWorld, zone: string, ms: number) {
    await reportNotReady(this, zoneNodes(this, zone), ms);
  }),
);

import { NotApplicableError } from '../src/drivers';
import { After, Given, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { Node } from '../src/api/core';
import { parseDuration } from '../src/api/duration';
import { isStatusError } from '../src/api/errors';
import { renderTimeline, TimelineRecorder } from '../src/report/timeline';
import { KubeWorld } from './world';
import {
  bestOrigin,
  describePasses,
  monitorPasses,
  PassReading,
  readPasses,
  readWrites,
  ZoneRules,
} from './zone-passes';
import { expectEvent, step } from './support';
import { runPodOn } from './pods.steps';

/**
 * Vocabulary for zones and eviction: nodes in zones, nodes that stop reporting, and when
 * each node's pods are marked for deletion — read from a timeline recorded through the
 * driver's client (watches), so the same steps judge any target.
 */

const ZONE_LABEL = 'topology.kubernetes.io/zone';
const REGION_LABEL = 'topology.kubernetes.io/region';
const BETA_ZONE_LABEL = 'failure-domain.beta.kubernetes.io/zone';

/** The timeline recorded through the driver's client (started on first use, rendered after the scenario). */
export async function timeline(world: KubeWorld): Promise<TimelineRecorder> {
  if (!world.timeline) {
    const cluster = await world.cluster();
    world.timeline = await TimelineRecorder.start(cluster.client, () => cluster.now());
  }
  return world.timeline;
}

/** The recording, for steps that assert WHEN things happened: they need exact event times. */
async function timedTimeline(world: KubeWorld): Promise<TimelineRecorder> {
  const cluster = await world.cluster();
  if (!cluster.capabilities.exactEventTimes) {
    throw new NotApplicableError(
      `target ${cluster.target} shows changes only when an advance of its virtual clock returns, so the suite cannot tell when each happened`,
    );
  }
  return timeline(world);
}

export function zoneNodes(world: KubeWorld, zone: string): string[] {
  const list = world.zoneNodes.get(zone);
  if (!list) throw new Error(`no nodes were created in zone "${zone}" in this scenario`);
  return list;
}

async function addZoneNode(
  world: KubeWorld,
  zone: string,
  name: string,
  labels: Record<string, string> = { [ZONE_LABEL]: zone },
): Promise<void> {
  const cluster = await world.cluster();
  await timeline(world);
  await cluster.addKubelet({ name, labels });
  await cluster.waitFor(
    `node ${name} to be Ready`,
    async () => {
      // Not registered yet is the one answer to wait through; any other failure fails the step.
      const n = await cluster.client.get<Node>({ resource: 'nodes' }, name).catch((e) => {
        if (isStatusError(e, 'NotFound')) return undefined;
        throw e;
      });
      return n?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    },
    60_000,
  );
  world.zoneNodes.set(zone, [...(world.zoneNodes.get(zone) ?? []), name]);
}

After(function (this: KubeWorld) {
  const r = this.timeline;
  if (!r) return;
  r.stop();
  this.attach(renderTimeline(r.data(), 'Nodes, taints and pod deletions over cluster time'), 'image/svg+xml');
});

// ── parameters ──────────────────────────────────────────────────────────────────────────

for (const [phrase, flag] of [
  ['node eviction rate', 'node-eviction-rate'],
  ['secondary node eviction rate', 'secondary-node-eviction-rate'],
]) {
  Given(
    `the ${phrase} is {float} nodes per second`,
    step(function (this: KubeWorld, rate: number) {
      this.setFlag(flag, String(rate));
    }),
  );
}

Given(
  'the large cluster size threshold is {int} nodes',
  step(function (this: KubeWorld, n: number) {
    this.setFlag('large-cluster-size-threshold', String(n));
  }),
);

Given(
  'the unhealthy zone threshold is {float}',
  step(function (this: KubeWorld, x: number) {
    this.setFlag('unhealthy-zone-threshold', String(x));
  }),
);

// ── nodes in zones ──────────────────────────────────────────────────────────────────────

async function addZone(world: KubeWorld, zone: string, count: number, pods: number): Promise<void> {
  const start = world.zoneNodes.get(zone)?.length ?? 0;
  for (let i = start + 1; i <= start + count; i++) {
    const name = `${zone}-node-${i}`;
    await addZoneNode(world, zone, name);
    for (let p = 1; p <= pods; p++) await runPodOn(world, `${name}-pod-${p}`, name);
  }
}

Given(
  'zone {string} has {int} ready node(s)',
  step(async function (this: KubeWorld, zone: string, count: number) {
    await addZone(this, zone, count, 0);
  }),
);

Given(
  'zone {string} has {int} ready node(s), each running {int} pod(s)',
  step(async function (this: KubeWorld, zone: string, count: number, pods: number) {
    await addZone(this, zone, count, pods);
  }),
);

/**
 * Nodes labelled otherwise: a zone in a region (known to later steps as "region/zone"), a
 * zone named only by the beta failure-domain label, or a group of nodes with no zone label
 * at all. Steps that say "zone" or "group" name the same registry of nodes.
 */
async function addLabelledNodes(
  world: KubeWorld,
  group: string,
  prefix: string,
  count: number,
  pods: number,
  labels: Record<string, string>,
): Promise<void> {
  const start = world.zoneNodes.get(group)?.length ?? 0;
  for (let i = start + 1; i <= start + count; i++) {
    const name = `${prefix}-node-${i}`;
    await addZoneNode(world, group, name, labels);
    for (let p = 1; p <= pods; p++) await runPodOn(world, `${name}-pod-${p}`, name);
  }
}

// Each with and without ", each running N pod(s)" (a Cucumber optional cannot hold a parameter).
for (const each of ['', ', each running {int} pod(s)']) {
  Given(
    `zone {string} in region {string} has {int} ready node(s)${each}`,
    step(
      async function (this: KubeWorld, zone: string, region: string, count: number, pods?: number) {
        await addLabelledNodes(this, `${region}/${zone}`, `${region}-${zone}`, count, pods ?? 0, {
          [REGION_LABEL]: region,
          [ZONE_LABEL]: zone,
        });
      },
      3 + (each ? 1 : 0),
    ),
  );

  Given(
    `zone {string}, labelled only with failure-domain.beta.kubernetes.io\\/zone, has {int} ready node(s)${each}`,
    step(
      async function (this: KubeWorld, zone: string, count: number, pods?: number) {
        await addLabelledNodes(this, zone, zone, count, pods ?? 0, { [BETA_ZONE_LABEL]: zone });
      },
      2 + (each ? 1 : 0),
    ),
  );

  Given(
    `a group {string} of {int} ready node(s) without zone labels${each}`,
    step(
      async function (this: KubeWorld, group: string, count: number, pods?: number) {
        await addLabelledNodes(this, group, group, count, pods ?? 0, {});
      },
      2 + (each ? 1 : 0),
    ),
  );
}

Given(
  'a ready node {node} in zone {string}',
  step(async function (this: KubeWorld, name: string, zone: string) {
    await addZoneNode(this, zone, name);
  }),
);

Given(
  'the timeline of the cluster is recorded',
  step(async function (this: KubeWorld) {
    await timeline(this);
  }),
);

/**
 * Nodes that "stop reporting" in one step stop at one instant. On a real clock their last
 * heartbeats go out at once: upstream's node lifecycle controller stamps a renewal with the
 * monitor pass that first sees it (tryUpdateNodeHealth's probeTimestamp), so renewals landing
 * between two passes go Unknown in the same pass. Stopped one after the other, under load
 * seconds apart, a pass could see the first alone: a zone of 5 with 1 down is Normal, and that
 * node was tainted before the zone became partially disrupted (zones.feature on upstream,
 * 2026-12-05). On a virtual clock, one after the other as before (no time passes between).
 */
export async function stopTogether(
  world: KubeWorld,
  cluster: Awaited<ReturnType<KubeWorld['cluster']>>,
  nodes: string[],
): Promise<void> {
  if (world.driver.capabilities.virtualTime) {
    for (const n of nodes) world.stopTimes.set(n, await cluster.stopKubelet(n));
    return;
  }
  // Their last Lease renewals close together, as on a virtual clock, so that one monitor pass
  // sees them all (zones.feature:80, twentieth full run: zone a's second node went 5.2 s after
  // the first, not 10 s — as when its mark falls a pass later and the zone's new state gives
  // the rate limiter a fresh bucket).
  const times = cluster.stopKubelets
    ? await cluster.stopKubelets(nodes)
    : await Promise.all(nodes.map((n) => cluster.stopKubelet(n)));
  for (const [i, n] of nodes.entries()) world.stopTimes.set(n, times[i]);
}

When(
  '{int} node(s) of zone/group {string} stop(s) reporting',
  step(async function (this: KubeWorld, count: number, zone: string) {
    const cluster = await this.cluster();
    const nodes = zoneNodes(this, zone).slice(0, Number(count));
    if (nodes.length < Number(count)) throw new Error(`zone "${zone}" has only ${nodes.length} nodes`);
    await stopTogether(this, cluster, nodes);
  }),
);

When(
  'every node of zone/group {string} stops reporting',
  step(async function (this: KubeWorld, zone: string) {
    const cluster = await this.cluster();
    await stopTogether(this, cluster, zoneNodes(this, zone));
  }),
);

When(
  'every node of zones/groups {string} and {string} stops reporting',
  step(async function (this: KubeWorld, first: string, second: string) {
    const cluster = await this.cluster();
    await stopTogether(this, cluster, [...zoneNodes(this, first), ...zoneNodes(this, second)]);
  }),
);

When(
  'every node of zones/groups {string} and {string} stops reporting, seen down by the node controller in one pass',
  step(async function (this: KubeWorld, first: string, second: string) {
    const cluster = await this.cluster();
    await stopInOnePass(this, cluster, [...zoneNodes(this, first), ...zoneNodes(this, second)]);
  }),
);

/** How many times stopInOnePass stops the nodes before it gives up. */
const ONE_PASS_ATTEMPTS = 3;

/**
 * Stops the nodes together, and on a real clock sees that the node lifecycle controller marked
 * them all Unknown in one monitor pass; where it did not, starts their kubelets again, waits
 * until every node is Ready with no NoExecute taint, and stops them again. The final lease
 * renewals of nodes stopped together may straddle a pass (see zone-passes.ts): a pass then sees
 * some zones down and another still Normal, its first node is tainted at the normal rate, and
 * the taint can outlive the master disruption mode that the next pass enters — upstream's
 * handleDisruption removes taints through markNodeAsReachable with the nodes it listed at the
 * pass's start, whose short circuit (RemoveTaintOffNode) skips a node whose taint was written
 * after that listing (master-disruption.feature:20, twenty-third full run: b-node-3 Unknown at
 * 14:00:37, the other four at 14:00:42, b-node-3's NoExecute taint from 14:00:42 kept, its pod
 * evicted 300 s later). What the scenario judges needs every zone down at once, as it is on a
 * virtual clock (one instant, one pass); the attempts are attached to the report.
 */
async function stopInOnePass(
  world: KubeWorld,
  cluster: Awaited<ReturnType<KubeWorld['cluster']>>,
  nodes: string[],
): Promise<void> {
  if (world.driver.capabilities.virtualTime) return stopTogether(world, cluster, nodes);
  const r = await timedTimeline(world);
  const periodMs = parseDuration(world.requiredFlag('node-monitor-period'));
  for (let attempt = 1; ; attempt++) {
    await stopTogether(world, cluster, nodes);
    const since = Math.min(...stopTimesOf(world, nodes));
    let marks: (number | undefined)[] = [];
    await cluster.waitFor(
      `every node of ${nodes.join(', ')} Unknown`,
      async () => {
        marks = nodes.map((n) => r.becameUnknown(n, since));
        return marks.every((m) => m !== undefined);
      },
      5 * 60_000,
    );
    const at = marks as number[];
    const seen = nodes.map((n, i) => `${n} ${((at[i] - since) / 1000).toFixed(1)} s`).join(', ');
    if (
      monitorPasses(
        nodes.map((node, i) => ({ node, at: at[i] })),
        periodMs,
      ).length === 1
    ) {
      if (attempt > 1)
        world.attach(
          `attempt ${attempt}: every node marked Unknown in one pass (${seen} after the stop)`,
          'text/plain',
        );
      return;
    }
    const what = `the node controller marked them Unknown in more than one monitor pass (${seen} after the stop)`;
    if (attempt === ONE_PASS_ATTEMPTS)
      throw new Error(`in ${attempt} attempts ${what}: the scenario needs every node down in one pass`);
    world.attach(
      `attempt ${attempt}: ${what}; every kubelet started again, and stopped again once every node was Ready`,
      'text/plain',
    );
    for (const n of nodes) await cluster.startKubelet(n);
    await cluster.waitFor(
      `every node of ${nodes.join(', ')} Ready with no NoExecute taint`,
      async () => {
        const listed = await cluster.client.list<Node>({ resource: 'nodes' });
        const byName = new Map(listed.items.map((n) => [n.metadata.name, n]));
        return nodes.every((name) => {
          const n = byName.get(name);
          const ready = n?.status?.conditions?.find((c) => c.type === 'Ready');
          return ready?.status === 'True' && !n?.spec?.taints?.some((t) => t.effect === 'NoExecute');
        });
      },
      5 * 60_000,
    );
  }
}

When(
  'node {node} of zone/group {string} reports again',
  step(async function (this: KubeWorld, name: string, zone: string) {
    expect(zoneNodes(this, zone)).to.include(name);
    const cluster = await this.cluster();
    await cluster.startKubelet(name);
  }),
);

// ── when pods go ────────────────────────────────────────────────────────────────────────

function stopTimesOf(world: KubeWorld, nodes: string[]): number[] {
  const times = nodes.map((n) => world.stopTimes.get(n)).filter((t): t is number => t !== undefined);
  if (times.length === 0) throw new Error(`none of ${nodes.join(', ')} was stopped in this scenario`);
  return times;
}

function lastStop(world: KubeWorld, nodes: string[]): number {
  return Math.max(...stopTimesOf(world, nodes));
}

async function advanceTo(world: KubeWorld, at: number): Promise<void> {
  const cluster = await world.cluster();
  if (at > cluster.now()) await cluster.advance(at - cluster.now());
}

/** When the first pod of each node of the zone was marked for deletion (firstDeletions). */
function evictionsIn(world: KubeWorld, zone: string): Promise<{ node: string; at: number }[]> {
  return firstDeletions(world, zoneNodes(world, zone));
}

/**
 * When the first pod of each of `nodes` was marked for deletion, for the nodes where one was,
 * earliest first: as the timeline's watch saw it or, on a real clock where the target keeps
 * the API server's own record of its requests (requestTimes: upstream's audit log), when the
 * API server received the DELETE: a watch event reaches the suite late on a loaded machine (up
 * to half a second on upstream v1.32.13), which counted against checks within 1 s.
 */
async function firstDeletions(world: KubeWorld, nodes: readonly string[]): Promise<{ node: string; at: number }[]> {
  const timeline = await timedTimeline(world);
  const seen = nodes
    .map((node) => ({ node, deletions: timeline.podDeletions(node) }))
    .filter((x) => x.deletions.length > 0);
  const cluster = await world.cluster();
  let firstAt = (x: (typeof seen)[number]) => x.deletions[0].at;
  if (!cluster.capabilities.virtualTime && cluster.requestTimes) {
    const all = seen.flatMap((x) => x.deletions);
    const received = await cluster.requestTimes(
      'delete',
      all.map((d) => ({ resource: 'pods', namespace: d.namespace, name: d.pod })),
    );
    // A pod removed by no DELETE of its own (none such on upstream so far) keeps the watch's time.
    const at = new Map(all.map((d, i) => [d, received[i][0] ?? d.at]));
    firstAt = (x) => Math.min(...x.deletions.map((d) => at.get(d)!));
  }
  return seen.map((x) => ({ node: x.node, at: firstAt(x) })).sort((a, b) => a.at - b.at);
}

/** When each node's pods went, in seconds after the first node's; first, when given, at that time after the nodes stopped. */
async function expectGoneNodeByNode(
  world: KubeWorld,
  zone: string,
  offsets: number[],
  afterStop?: number,
): Promise<void> {
  if (afterStop !== undefined) await advanceTo(world, lastStop(world, zoneNodes(world, zone)) + afterStop);
  const got = await evictionsIn(world, zone);
  const first = got[0]?.at ?? 0;
  const actual = got.map((x) => (x.at - first) / 1000);
  const what = `seconds after the first node's pods went, per node: ${got.map((x) => `${x.node}@${((x.at - first) / 1000).toFixed(1)}`).join(', ') || 'none'}`;
  if (world.driver.capabilities.virtualTime) {
    expect(actual, what).to.deep.equal(offsets);
    return;
  }
  if (offsets.length === 0) {
    await expectNoneFromDisruptingPass(world, zone, got);
    return;
  }
  // On a real clock each deletion is timed by the API server's receipt of its DELETE where the
  // target records it (firstDeletions), else when its watch event arrives (under load, up to
  // half a second late: 4.7 / 9.9 s for 5 / 10 on upstream v1.32.13); the evictor takes its
  // token at a 100 ms tick (NodeEvictionPeriod): each offset within 1 s. The schedule's origin
  // is the one that fits best, not the first deletion: that one has the same jitter as the
  // others, and pinning the schedule to it counted its lateness against every other node
  // (the first 1.2 s late, the ten after it each 10.0 ± 0.1 s apart: other-values.feature:37
  // and :45 in the nineteenth and twentieth full runs). When the first went is judged apart
  // ("lost its pods between … seconds after the nodes stopped reporting").
  expect(actual.length, what).to.equal(offsets.length);
  const origin = bestOrigin(actual, offsets);
  for (const [i, a] of actual.entries())
    expect(a - origin, `${what} (the schedule from ${origin.toFixed(2)} s)`).to.be.closeTo(offsets[i], 1);
}

/**
 * "None" on a real clock: nothing goes from the monitor pass at which the zone reached the state
 * that stops it. Nodes stopped together do not always go Unknown in one pass there: the node
 * lifecycle controller stamps a lease renewal with the pass that first sees it
 * (tryUpdateNodeHealth's probeTimestamp), so final renewals that straddle a pass are marked one
 * period apart (upstream v1.32.13, 20 nodes with 11 down: 3 marked at 172.4 s, 8 at 177.4 s).
 * handleDisruption judges the zone at the end of each pass from the conditions written so far; a
 * node marked in an earlier pass is queued for its taint at the next one (processTaintBaseEviction
 * reads the condition that pass started from), and the tainter (doNoExecuteTaintingPass, every
 * 100 ms) may take it at --node-eviction-rate (burst 1) before that pass's handleDisruption
 * lowers the rate. So: a node whose pods went must have been marked in a pass after which the
 * zone was still below --unhealthy-zone-threshold, and at most one per token of the normal rate
 * from the pass after its mark to the disrupting pass. Marks in one pass: strictly none, as on a
 * virtual clock. The reading is attached to the scenario's report.
 */
async function expectNoneFromDisruptingPass(
  world: KubeWorld,
  zone: string,
  gone: { node: string; at: number }[],
): Promise<void> {
  const r = await timedTimeline(world);
  const nodes = zoneNodes(world, zone);
  const since = Math.min(...stopTimesOf(world, nodes));
  const reading = readPasses(
    nodes.map((node) => ({ node, at: r.becameUnknown(node, since) })),
    zoneRules(world, nodes),
  );
  expectWithinReading(world, reading, describePasses(reading, since), gone, 'marked at or after the pass');
}

/** What a reading allows to have gone (the early ones, at most its tokens), attached to the report. */
function expectWithinReading(
  world: KubeWorld,
  reading: PassReading,
  described: string,
  gone: { node: string; at: number }[],
  late: string,
): void {
  const text = `${described}; gone: ${gone.map((g) => g.node).join(', ') || 'none'}`;
  world.attach(text, 'text/plain');
  expect(
    gone.filter((g) => !reading.early.has(g.node)).map((g) => g.node),
    `${text}: nodes whose pods went although ${late} that stopped the zone`,
  ).to.deep.equal([]);
  expect(gone.length, text).to.be.at.most(reading.tokens);
}

Then(
  'the pods of zone/group {string} have gone node by node at {offsets} seconds',
  step(async function (this: KubeWorld, zone: string, offsets: number[]) {
    await expectGoneNodeByNode(this, zone, offsets);
  }),
);

Then(
  '{duration} after the nodes stopped reporting, the pods of zone/group {string} have gone node by node at {offsets} seconds',
  step(async function (this: KubeWorld, ms: number, zone: string, offsets: number[]) {
    await expectGoneNodeByNode(this, zone, offsets, ms);
  }),
);

Then(
  'the first node of zone/group {string} lost its pods between {float} and {float} seconds after the nodes stopped reporting',
  step(async function (this: KubeWorld, zone: string, from: number, to: number) {
    const got = await evictionsIn(this, zone);
    expect(got, `no pod of zone ${zone} was marked for deletion`).to.not.be.empty;
    const after = (got[0].at - lastStop(this, zoneNodes(this, zone))) / 1000;
    expect(after).to.be.within(from, to);
  }),
);

async function expectNoneMarked(world: KubeWorld, zone: string, afterStop?: number): Promise<void> {
  if (afterStop !== undefined) await advanceTo(world, lastStop(world, zoneNodes(world, zone)) + afterStop);
  const got = await evictionsIn(world, zone);
  const nodes = zoneNodes(world, zone);
  if (!world.driver.capabilities.virtualTime && nodes.some((n) => world.readyFalseTimes.has(n))) {
    expectNoneFromDisruptingWrite(world, nodes, got);
    return;
  }
  expect(
    got.map((x) => x.node),
    'nodes whose pods went',
  ).to.deep.equal([]);
}

/** The node lifecycle controller's rules for a zone of `nodes`, from the scenario's flags. */
function zoneRules(world: KubeWorld, nodes: string[]): ZoneRules {
  return {
    zoneSize: nodes.length,
    monitorPeriodMs: parseDuration(world.requiredFlag('node-monitor-period')),
    nodeEvictionRate: Number(world.requiredFlag('node-eviction-rate')),
    unhealthyZoneThreshold: Number(world.requiredFlag('unhealthy-zone-threshold')),
  };
}

/**
 * "None" on a real clock for nodes whose Ready=False the scenario wrote (as their kubelets would):
 * nothing may go that was written at or after the write that made the zone partially disrupted;
 * of those written before it, at most one per token of the normal rate (zone-passes.ts readWrites).
 * Written in one instant, as on a virtual clock: strictly none.
 */
function expectNoneFromDisruptingWrite(world: KubeWorld, nodes: string[], gone: { node: string; at: number }[]): void {
  const since = Math.min(...stopTimesOf(world, nodes));
  const reading = readWrites(
    nodes.map((node) => ({ node, at: world.readyFalseTimes.get(node) })),
    zoneRules(world, nodes),
  );
  const described = describePasses(reading, since, 'Ready=False writes (a monitor pass may fall between any two)');
  expectWithinReading(world, reading, described, gone, 'written at or after the write');
}

Then(
  'no pod of zone/group {string} has been marked for deletion',
  step(async function (this: KubeWorld, zone: string) {
    await expectNoneMarked(this, zone);
  }),
);

Then(
  '{duration} after the nodes stopped reporting, no pod of zone/group {string} has been marked for deletion',
  step(async function (this: KubeWorld, ms: number, zone: string) {
    await expectNoneMarked(this, zone, ms);
  }),
);

Then(
  'the pods of node {node} are/were marked for deletion between {float} and {float} seconds after its kubelet stopped',
  step(async function (this: KubeWorld, node: string, from: number, to: number) {
    const stoppedAt = this.lastHeartbeat.get(node) ?? this.stopTimes.get(node);
    if (stoppedAt === undefined) throw new Error(`the kubelet on ${node} was not stopped in this scenario`);
    await advanceTo(this, stoppedAt + to * 1000);
    const at = (await firstDeletions(this, [node]))[0]?.at;
    expect(at, `no pod of ${node} was marked for deletion within ${to} s`).to.not.equal(undefined);
    expect((at! - stoppedAt) / 1000, 'seconds after the kubelet stopped').to.be.within(from, to);
  }),
);

Then(
  'the first nodes of zones {string} and {string} lost their pods at the same moment',
  step(async function (this: KubeWorld, a: string, b: string) {
    const [ea, eb] = [await evictionsIn(this, a), await evictionsIn(this, b)];
    expect(ea, `no pod of zone ${a} went`).to.not.be.empty;
    expect(eb, `no pod of zone ${b} went`).to.not.be.empty;
    if (this.driver.capabilities.virtualTime) expect(ea[0].at - eb[0].at, 'ms between them').to.equal(0);
    // On a real clock each is seen when its watch event arrives, and each zone's evictor takes
    // its token at a 100 ms tick (as for "gone node by node" above): within 1 s, where one
    // shared limiter would put them 10 s apart (1/rate). Upstream v1.32.13: 22 ms apart.
    else expect(Math.abs(ea[0].at - eb[0].at), 'ms between them').to.be.at.most(1000);
  }),
);

Then(
  'no pod of node {node} has been marked for deletion',
  step(async function (this: KubeWorld, node: string) {
    const at = (await timedTimeline(this)).firstDeletion(node);
    expect(at, `a pod of ${node} was marked for deletion`).to.equal(undefined);
  }),
);

// ── the cloud, events ──────────────────────────────────────────────────────────────────────

When(
  'the cloud deletes the machine of node {node}',
  step(async function (this: KubeWorld, node: string) {
    const cluster = await this.cluster();
    this.lastHeartbeat.set(node, cluster.now());
    await cluster.deleteMachine(node);
  }),
);

Then(
  'there is an event {string} for pod {string}',
  step(async function (this: KubeWorld, reason: string, pod: string) {
    await expectEvent(this, reason, pod, `pod ${pod}`);
  }),
);

Then(
  'there is an event {string} for pod {string} with message {string}',
  step(async function (this: KubeWorld, reason: string, pod: string, message: string) {
    await expectEvent(this, reason, pod, `pod ${pod}`, message);
  }),
);

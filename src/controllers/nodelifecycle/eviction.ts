import { TimerHandle } from '../../clock';
import { DaemonSet, Node, NodeCondition, Pod, Taint } from '../../api/core';
import { clone } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { hasTaint, TAINT_NOT_READY, TAINT_UNREACHABLE } from '../../api/taints';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { NodeLifecycleController, PassEntry } from './controller';
import { ZoneDisruption } from './disruption';
import { NodeLifecycleOptions } from './options';
import { ActionResult, EVICTION_RATE_LIMITER_BURST, RateLimitedTimedQueue, TokenBucket } from './rate-limited-queue';
import { zoneKey } from '../../api/topology';
import { EXCLUDE_DISRUPTION_LABEL } from './zones';
import { swapNodeTaints, withPodCondition } from '../node-writes';
import { POD_NODE_INDEX, podsByNode } from '../pod-index';
import { ControllerBase } from '../controller-base';

/** Upstream NodeEvictionPeriod: how often the tainting (or eviction) pass drains the zone queues. */
export const NODE_EVICTION_PERIOD_MS = 100;
/** Upstream retries a node whose Ready condition it cannot read after 50 ms. */
const RETRY_MS = 50;

const NOT_READY_NO_EXECUTE = { key: TAINT_NOT_READY, effect: 'NoExecute' as const };
const UNREACHABLE_NO_EXECUTE = { key: TAINT_UNREACHABLE, effect: 'NoExecute' as const };

type EvictionMark = 'toBeEvicted' | 'evicted';

/**
 * What the node lifecycle controller does with each monitor pass's health results
 * (monitorNodeHealth after tryUpdateNodeHealth): zones and their disruption states, one
 * rate-limited queue per zone, and either NoExecute taints (taint-based eviction, v1.13+)
 * or direct pod deletion after --pod-eviction-timeout (the seed's v1.12 default); plus
 * MarkPodsNotReady when a node stops being Ready. The queues are drained every 100 ms,
 * but only while some queue holds a node, so an idle cluster costs nothing here.
 * Kept in one file (about 400 lines): the queues, the marks and the two eviction modes
 * share one state per node, and upstream keeps this in one controller (node_lifecycle_controller.go);
 * the pieces that stand alone already live beside it (zones, disruption, rate-limited queue,
 * node writes, health).
 */
export class NodeEvictionController extends ControllerBase {
  private readonly nodes: Informer<Node>;
  private readonly pods: Informer<Pod>;
  private readonly daemonSets: Informer<DaemonSet>;
  readonly queues = new Map<string, RateLimitedTimedQueue>();
  readonly disruption: ZoneDisruption;
  private readonly zoneOfNode = new Map<string, string>();
  private readonly marks = new Map<string, EvictionMark>();
  private readonly nodesToRetry = new Set<string>();
  private passTimer?: TimerHandle;
  private passing = false;
  /** Set on entering master disruption mode, cleared on leaving it. */
  masterDisruption = false;

  constructor(
    private readonly lifecycle: NodeLifecycleController,
    ctx: ControllerContext,
    private readonly options: NodeLifecycleOptions,
  ) {
    super(ctx);
    this.nodes = ctx.informer<Node>({ resource: 'nodes' });
    this.pods = ctx.informer<Pod>({ resource: 'pods' });
    this.pods.addIndexer(POD_NODE_INDEX, podsByNode);
    this.daemonSets = ctx.informer<DaemonSet>({ resource: 'daemonsets' });
    this.disruption = new ZoneDisruption(options);
  }

  run(): void {
    const listener = (results: readonly PassEntry[]) => this.afterMonitorPass(results);
    this.lifecycle.onPass(listener);
    this.ctx.onStop(() => this.lifecycle.offPass(listener));
    this.ctx.handle(this.pods, {
      onAdd: (pod) => this.processPod(pod),
      onUpdate: (old, pod) => {
        if (old.spec.nodeName !== pod.spec.nodeName) this.processPod(pod);
      },
    });
  }

  override stop(): Promise<void> {
    this.passTimer = undefined;
    return super.stop();
  }

  private get events() {
    return this.lifecycle.events;
  }

  private queueFor(zone: string): RateLimitedTimedQueue {
    let q = this.queues.get(zone);
    if (!q) {
      // addPodEvictorForNewZone: a token bucket at the normal rate, burst 1, starting full.
      q = new RateLimitedTimedQueue(
        new TokenBucket(this.options.nodeEvictionRate, EVICTION_RATE_LIMITER_BURST, () => this.clock.now()),
        () => this.clock.now(),
      );
      this.queues.set(zone, q);
      this.disruption.addZone(zone);
    }
    return q;
  }

  private podsOn(node: string): Pod[] {
    return this.pods.byIndex(POD_NODE_INDEX, node);
  }

  async afterMonitorPass(results: readonly PassEntry[]): Promise<void> {
    // classifyNodes: new nodes get their zone queue and are made reachable; gone ones forgotten.
    for (const { node } of results) {
      const name = node.metadata.name!;
      if (this.zoneOfNode.has(name)) continue;
      const zone = zoneKey(node.metadata.labels);
      this.zoneOfNode.set(name, zone);
      this.queueFor(zone);
      if (this.options.taintBasedEvictions) await this.markNodeAsReachable(node);
      else this.cancelPodEviction(name, zone);
    }
    // Every node of this pass is in zoneOfNode now, so only a larger zoneOfNode can hold a
    // gone node: the scan (a copy of thousands of entries) is skipped on every other pass.
    const judged =
      this.zoneOfNode.size > results.length ? new Set(results.map((r) => r.node.metadata.name!)) : undefined;
    for (const [name, zone] of judged ? [...this.zoneOfNode] : []) {
      if (judged!.has(name) || this.nodes.getByName(name)) continue;
      this.zoneOfNode.delete(name);
      this.marks.delete(name);
      this.nodesToRetry.delete(name);
      this.queues.get(zone)?.remove(name);
    }

    const zoneConditions = new Map<string, (NodeCondition | undefined)[]>();
    for (const { node, result } of results) {
      const name = node.metadata.name!;
      const zone = zoneKey(node.metadata.labels);
      if (this.zoneOfNode.get(name) !== zone) {
        this.zoneOfNode.set(name, zone);
        this.queueFor(zone);
      }
      if (!(node.metadata.labels && EXCLUDE_DISRUPTION_LABEL in node.metadata.labels)) {
        let list = zoneConditions.get(zone);
        if (!list) zoneConditions.set(zone, (list = []));
        list.push(result.current);
      }
      if (!result.current) continue;
      // A node with nothing to change is handled synchronously: no promise per node per pass.
      const work = this.options.taintBasedEvictions
        ? this.processTaintBaseEviction(node, zone, result.observed)
        : this.processNoTaintBaseEviction(node, zone, result.observed);
      if (work) await work;
      const wasReady = result.observed.status === 'True';
      if (result.current.status !== 'True' && wasReady) {
        this.events.normal(node, 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
        await this.markPodsNotReadyWithRetry(name);
      } else if (this.nodesToRetry.has(name) && !wasReady) {
        await this.markPodsNotReadyWithRetry(name);
      }
    }
    await this.handleDisruption(zoneConditions);
    this.schedulePasses();
  }

  private async markPodsNotReadyWithRetry(node: string): Promise<void> {
    if (await this.markPodsNotReady(this.podsOn(node), node)) this.nodesToRetry.delete(node);
    else this.nodesToRetry.add(node);
  }

  // ── taint-based eviction ──────────────────────────────────────────────────────────────

  /**
   * The node should carry `want` (not-ready or unreachable NoExecute): swap at once when it
   * carries the other one, else queue it for tainting at the zone's rate (re-queued unless
   * it already has `want`), as upstream's processTaintBaseEviction does for each status.
   */
  private async taintOrQueue(node: Node, zone: string, want: Taint, other: Taint): Promise<void> {
    const name = node.metadata.name!;
    if (hasTaint(node, other.key, 'NoExecute')) {
      // Upstream logs "Failed to instantly swap" and goes on with the next node.
      await swapNodeTaints(this.client, name, [want], [other], this.clock.now(), node).catch((e) =>
        this.ctx.report(e, `node ${name}`),
      );
      return;
    }
    if (!hasTaint(node, want.key, 'NoExecute')) this.queueFor(zone).remove(name);
    this.queueFor(zone).add(name, node.metadata.uid ?? '');
  }

  /** A promise only when there is something to wait for (a healthy node has not). */
  private processTaintBaseEviction(node: Node, zone: string, observed: NodeCondition): Promise<void> | undefined {
    const name = node.metadata.name!;
    const current = this.nodes.getByName(name) ?? node;
    switch (observed.status) {
      case 'False':
        return this.taintOrQueue(current, zone, NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE);
      case 'Unknown':
        return this.taintOrQueue(current, zone, UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE);
      case 'True':
        return this.markNodeAsReachable(current, zone);
    }
    return undefined;
  }

  /** Removes both NoExecute taints (if present) and takes the node out of its zone queue; a promise only when it writes. */
  private markNodeAsReachable(node: Node, zone = zoneKey(node.metadata.labels)): Promise<void> | undefined {
    const name = node.metadata.name!;
    const dequeue = (): void => {
      this.queueFor(zone).remove(name);
    };
    // Most nodes carry no taint at all: the two searches are skipped for them.
    const tainted = (node.spec?.taints?.length ?? 0) > 0;
    if (tainted && (hasTaint(node, TAINT_UNREACHABLE, 'NoExecute') || hasTaint(node, TAINT_NOT_READY, 'NoExecute'))) {
      return swapNodeTaints(
        this.client,
        name,
        [],
        [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE],
        this.clock.now(),
        node,
      )
        .catch((e) => this.ctx.report(e, `node ${name}`))
        .then(dequeue);
    }
    dequeue();
    return undefined;
  }

  /** doNoExecuteTaintingPass's action for one node. */
  private async taintNode(name: string): Promise<ActionResult> {
    const node = this.nodes.getByName(name);
    if (!node) return { done: true };
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
    if (!ready) return { done: false, retryAfterMs: RETRY_MS };
    let add: Taint, remove: Taint;
    if (ready.status === 'False') [add, remove] = [NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE];
    else if (ready.status === 'Unknown') [add, remove] = [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE];
    else return { done: true };
    try {
      const ok = await swapNodeTaints(this.client, name, [add], [remove], this.clock.now(), node);
      return ok ? { done: true } : { done: false, retryAfterMs: 0 };
    } catch (e) {
      // Upstream: "Failed to taint NoExecute on node", and the node is tried again.
      this.ctx.report(e, `node ${name}`);
      return { done: false, retryAfterMs: 0 };
    }
  }

  // ── eviction by deletion (before v1.27; the seed's default) ───────────────────────────

  /** A promise only when pods are evicted (a healthy node needs none). */
  private processNoTaintBaseEviction(node: Node, zone: string, observed: NodeCondition): Promise<void> | undefined {
    const name = node.metadata.name!;
    const health = this.lifecycle.healthOf(name);
    if (!health) return undefined;
    const now = this.clock.now();
    // Set whenever eviction is by deletion (src/cluster/config.ts nodeLifecycleOptions).
    const timeout = this.options.podEvictionTimeout!;
    if (observed.status === 'False' && now > health.readyTransitionTimestamp + timeout) return this.evictPods(node);
    if (observed.status === 'Unknown' && now > health.probeTimestamp + timeout) return this.evictPods(node);
    if (observed.status === 'True') this.cancelPodEviction(name, zone);
    return undefined;
  }

  private async evictPods(node: Node): Promise<void> {
    const name = node.metadata.name!;
    if (this.marks.get(name) === 'evicted') {
      // Already evicted: pods that arrived since go at once.
      await this.deletePods(name);
      return;
    }
    this.marks.set(name, 'toBeEvicted');
    this.queueFor(zoneKey(node.metadata.labels)).add(name, node.metadata.uid ?? '');
  }

  private cancelPodEviction(name: string, zone: string): void {
    this.marks.delete(name);
    this.queueFor(zone).remove(name);
  }

  /** doEvictionPass's action for one node. */
  private async evictNode(name: string): Promise<ActionResult> {
    try {
      await this.deletePods(name);
    } catch (e) {
      // Upstream doEvictionPass: HandleError("unable to evict node"), and the node stays queued.
      this.ctx.report(
        new Error(`unable to evict node ${JSON.stringify(name)}: ${(e as Error)?.message ?? e}`, { cause: e }),
      );
      return { done: false, retryAfterMs: 0 };
    }
    this.marks.set(name, 'evicted');
    return { done: true };
  }

  /**
   * Upstream DeletePods: reason NodeLost on every pod of the node, then delete each one
   * not already terminating and not owned by a DaemonSet.
   */
  private async deletePods(nodeName: string): Promise<void> {
    const pods = this.podsOn(nodeName);
    for (const pod of pods) {
      const ref = { resource: 'pods', namespace: pod.metadata.namespace };
      let current = pod;
      if (pod.status?.reason !== 'NodeLost') {
        const next = clone(pod);
        next.status = {
          ...next.status,
          reason: 'NodeLost',
          message: `Node ${nodeName} which was running pod ${pod.metadata.name} is unresponsive`,
        };
        try {
          current = await this.client.update<Pod>(ref, next, { subresource: 'status' });
        } catch (e) {
          if (isStatusError(e, 'NotFound')) continue;
          throw e;
        }
      }
      if (current.metadata.deletionGracePeriodSeconds !== undefined) continue;
      if (this.ownedByDaemonSet(current)) continue;
      this.events.normal(
        current,
        'NodeControllerEviction',
        `Marking for deletion Pod ${current.metadata.name} from Node ${nodeName}`,
      );
      try {
        await this.client.delete(ref, current.metadata.name!);
      } catch (e) {
        if (!isStatusError(e, 'NotFound')) throw e;
      }
    }
    const node = this.nodes.getByName(nodeName);
    if (pods.length > 0 && node)
      this.events.normal(node, 'DeletingAllPods', `Deleting all Pods from Node ${nodeName}.`);
  }

  private ownedByDaemonSet(pod: Pod): boolean {
    return (pod.metadata.ownerReferences ?? []).some(
      (o) =>
        o.kind === 'DaemonSet' &&
        o.controller &&
        this.daemonSets.getByName(o.name, pod.metadata.namespace)?.metadata.uid === o.uid,
    );
  }

  // ── MarkPodsNotReady ──────────────────────────────────────────────────────────────────

  /**
   * Sets Ready=False on each pod of the node that has a Ready condition; true when all writes
   * succeeded. A write that failed is reported (upstream MarkPodsNotReady returns them, and
   * the controller logs "Unable to mark all pods NotReady on node"), the node tried again.
   */
  private async markPodsNotReady(pods: Pod[], nodeName: string): Promise<boolean> {
    let ok = true;
    for (const pod of pods) {
      if (pod.spec.nodeName !== nodeName) continue;
      if (!pod.status?.conditions?.some((c) => c.type === 'Ready')) continue;
      const next = withPodCondition(pod, { type: 'Ready', status: 'False' }, this.clock.now());
      if (!next) continue;
      try {
        const written = await this.client.update<Pod>({ resource: 'pods', namespace: pod.metadata.namespace }, next, {
          subresource: 'status',
        });
        this.events.warning(written, 'NodeNotReady', 'Node is not ready');
      } catch (e) {
        if (isStatusError(e, 'NotFound')) continue;
        ok = false;
        this.ctx.report(
          new Error(`unable to mark pod ${pod.metadata.namespace}/${pod.metadata.name} NotReady on node ${nodeName}`, {
            cause: e,
          }),
        );
      }
    }
    return ok;
  }

  /** processPod: a pod bound to a node known not to be Ready is marked not ready at once. */
  private processPod(pod: Pod): void {
    const nodeName = pod.spec.nodeName;
    if (!nodeName || !this.lifecycle.healthOf(nodeName)) return;
    const ready = this.lifecycle.healthOf(nodeName)?.ready;
    if (!ready || ready.status === 'True') return;
    this.ctx.go(this.markPodsNotReady([pod], nodeName));
  }

  // ── zones ─────────────────────────────────────────────────────────────────────────────

  private async handleDisruption(zoneConditions: Map<string, (NodeCondition | undefined)[]>): Promise<void> {
    const decision = this.disruption.handle(zoneConditions);
    switch (decision.kind) {
      case 'stay-master-disruption':
        return;
      case 'enter-master-disruption':
        this.masterDisruption = true;
        for (const node of this.nodes.list()) {
          if (this.options.taintBasedEvictions) await this.markNodeAsReachable(node);
          else this.cancelPodEviction(node.metadata.name!, zoneKey(node.metadata.labels));
        }
        for (const q of this.queues.values()) q.swapLimiter(0);
        return;
      case 'exit-master-disruption':
        this.masterDisruption = false;
        this.lifecycle.restartHealthTimers(this.clock.now());
        for (const [zone, qps] of decision.rates) this.queueFor(zone).swapLimiter(qps);
        return;
      case 'normal':
        for (const [zone, qps] of decision.rates) this.queueFor(zone).swapLimiter(qps);
    }
  }

  // ── the 100 ms pass ───────────────────────────────────────────────────────────────────

  /**
   * Runs the pass every NodeEvictionPeriod while some queue holds a node its limiter may
   * let through. Started at a monitor pass, so the ticks fall on the same 100 ms grid as
   * upstream's ever-running loop; a pass with nothing to do is the same as no pass.
   */
  private schedulePasses(): void {
    if (this.passTimer || ![...this.queues.values()].some((q) => q.active)) return;
    this.passTimer = this.ctx.every(NODE_EVICTION_PERIOD_MS, () => this.pass());
  }

  private async pass(): Promise<void> {
    if (this.passing) return;
    this.passing = true;
    try {
      const action = this.options.taintBasedEvictions
        ? (n: string) => this.taintNode(n)
        : (n: string) => this.evictNode(n);
      for (const q of this.queues.values()) if (q.active) await q.try((v) => action(v.value));
    } finally {
      this.passing = false;
    }
    if (this.passTimer && ![...this.queues.values()].some((q) => q.active)) {
      this.ctx.cancel(this.passTimer);
      this.passTimer = undefined;
    }
  }
}

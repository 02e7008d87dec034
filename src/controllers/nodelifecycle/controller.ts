import { Lease, Node } from '../../api/core';
import { clone } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { EventRecorder } from '../../client/events';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { assessNodeHealth, gracePassed, HealthOptions, HealthResult, NodeHealth } from './health';
import { NodeLifecycleOptions } from './options';
import { ControllerBase } from '../controller-base';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** One pass's judgement of one node, as the pass's listeners (zones, eviction) receive it. */
export interface PassEntry {
  node: Node;
  result: HealthResult;
}

/** What the controller keeps of a node between passes. */
interface NodeRecord {
  /** The node as the controller first saw it (knownNodeSet), for the RemovingNode event. */
  registered: Node;
  /** Its Lease's informer key, made once. */
  leaseKey: string;
  /** nodeHealthMap's entry (none until a pass has judged the node). */
  health?: NodeHealth;
  /** The last judgement, with what it was made from, while it can be reused. */
  last?: { node: Node; lease: Lease | undefined; entry: PassEntry };
}

/**
 * The node lifecycle controller (pkg/controller/nodelifecycle): every node-monitor-period
 * it judges each node's health from heartbeats (status or Lease) and marks silent nodes
 * Unknown. Everything it knows comes from informers; everything it changes goes through
 * the API server.
 */
export class NodeLifecycleController extends ControllerBase {
  private readonly nodes: Informer<Node>;
  private readonly leases: Informer<Lease>;
  /**
   * Upstream's knownNodeSet and nodeHealthMap in one record per node, by name: a pass over
   * thousands of nodes then finds everything it keeps of a node with one lookup.
   */
  private readonly known = new Map<string, NodeRecord>();
  readonly events: EventRecorder;
  /** Per-node results of the last pass, for what builds on health (zones, eviction). */
  private readonly passListeners: ((results: readonly PassEntry[]) => Promise<void>)[] = [];

  constructor(
    ctx: ControllerContext,
    readonly options: NodeLifecycleOptions,
  ) {
    super(ctx);
    this.nodes = ctx.informer<Node>({ resource: 'nodes' });
    this.leases = ctx.informer<Lease>({ resource: 'leases', namespace: NODE_LEASE_NAMESPACE });
    this.events = ctx.events({ component: 'node-controller' });
  }

  /** Lets later slices (eviction, zones) act on each pass's results. */
  onPass(listener: (results: readonly PassEntry[]) => Promise<void>): void {
    this.passListeners.push(listener);
  }

  /** Takes a listener of onPass off again (its controller stopped). */
  offPass(listener: (results: readonly PassEntry[]) => Promise<void>): void {
    const i = this.passListeners.indexOf(listener);
    if (i >= 0) this.passListeners.splice(i, 1);
  }

  run(): void {
    // Upstream runs monitorNodeHealth at once and then every period (wait.Until).
    this.ctx.run(() => this.monitorNodeHealth());
    this.ctx.every(this.options.nodeMonitorPeriod, () => this.monitorNodeHealth());
  }

  /** The controller's record for a node (for diagnostics and reports). */
  healthOf(name: string): NodeHealth | undefined {
    return this.known.get(name)?.health;
  }

  /**
   * Leaving master disruption mode (handleDisruption): every node's probe and Ready
   * transition times become now, so grace periods and eviction timeouts start again.
   */
  restartHealthTimers(now: number): void {
    for (const rec of this.known.values())
      if (rec.health) rec.health = { ...rec.health, probeTimestamp: now, readyTransitionTimestamp: now };
  }

  async monitorNodeHealth(): Promise<void> {
    const now = this.clock.now();
    const nodes = this.nodes.list();
    // Each node's record, found once here for the whole pass.
    const records: NodeRecord[] = new Array(nodes.length);
    for (const [i, node] of nodes.entries()) {
      let rec = this.known.get(node.metadata.name!);
      if (!rec) {
        rec = { registered: node, leaseKey: `${NODE_LEASE_NAMESPACE}/${node.metadata.name}` };
        this.known.set(node.metadata.name!, rec);
        this.events.normal(
          node,
          'RegisteredNode',
          `Node ${node.metadata.name} event: Registered Node ${node.metadata.name} in Controller`,
        );
      }
      records[i] = rec;
    }
    // Every listed node is known now, so a node is gone exactly when known has more: only
    // then is the removal scan (and its set of names) worth its cost.
    const names = this.known.size > nodes.length ? new Set(nodes.map((n) => n.metadata.name!)) : undefined;
    for (const [name, { registered }] of names ? [...this.known] : []) {
      if (!names!.has(name)) {
        // Upstream monitorNodeHealth (v1.12 and v1.32): RecordNodeEvent "RemovingNode".
        this.events.normal(registered, 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
        this.known.delete(name);
      }
    }
    // In the order judged: the nodes needing no write first, then each write as it lands.
    const results: PassEntry[] = [];
    // Nodes that need no write are judged synchronously; only writes wait.
    const writes: Promise<void>[] = [];
    const options = this.healthOptions(now);
    for (const [i, node] of nodes.entries()) {
      const r = this.updateNodeHealth(node, records[i], options);
      if (r instanceof Promise)
        writes.push(
          r.then((w) => {
            if (w) results.push(w);
          }),
        );
      else results.push(r);
    }
    await Promise.all(writes);
    for (const listener of this.passListeners) await listener(results);
  }

  /** The options of one pass's judgements (one object for every node of the pass). */
  private healthOptions(now: number): HealthOptions {
    return {
      now,
      gracePeriodMs: this.options.nodeMonitorGracePeriod,
      startupGracePeriodMs: this.options.nodeStartupGracePeriod,
      conditionTypes: this.options.conditionTypes,
    };
  }

  private updateNodeHealth(
    node: Node,
    rec: NodeRecord,
    options: HealthOptions,
  ): PassEntry | Promise<PassEntry | undefined> {
    const lease = this.leases.get(rec.leaseKey);
    // Nothing the judgement depends on changed since the last pass (the same frozen node and
    // Lease, the record it left), and the grace period is not over: the same judgement.
    const last = rec.last;
    if (
      last &&
      last.node === node &&
      last.lease === lease &&
      last.entry.result.health === rec.health &&
      !gracePassed(options.now, rec.health, last.entry.result.gracePeriodMs)
    )
      return last.entry;
    const result = assessNodeHealth(node, rec.health, lease, options);
    if (!result.updatedConditions) {
      rec.health = result.health;
      const entry = { node, result };
      // Only a judgement with a Ready condition and nothing written is the same next time.
      rec.last = result.current ? { node, lease, entry } : undefined;
      return entry;
    }
    rec.last = undefined;
    return this.writeUnknown(node, rec, lease, result, options);
  }

  private async writeUnknown(
    node: Node,
    rec: NodeRecord,
    lease: Lease | undefined,
    result: HealthResult,
    options: HealthOptions,
  ): Promise<PassEntry | undefined> {
    // Write Unknown; on a conflict re-read and judge again (upstream retries 5 times).
    const name = node.metadata.name!;
    let current = node;
    for (let attempt = 0; attempt < 5; attempt++) {
      const r = attempt === 0 ? result : assessNodeHealth(current, rec.health, lease, options);
      if (!r.updatedConditions) {
        rec.health = r.health;
        return { node: current, result: r };
      }
      const next = clone(current);
      next.status = { ...next.status, conditions: r.updatedConditions };
      try {
        const written = await this.client.update<Node>({ resource: 'nodes' }, next, { subresource: 'status' });
        rec.health = r.health;
        return { node: written, result: r };
      } catch (e) {
        if (isStatusError(e, 'NotFound')) return undefined;
        if (!isStatusError(e, 'Conflict')) throw e;
        current = await this.client.get<Node>({ resource: 'nodes' }, name);
      }
    }
    // Upstream: "Update health of Node from Controller error, Skipping - no pods will be evicted".
    this.ctx.report(
      new Error(`updating the health of node ${JSON.stringify(name)} kept conflicting (5 tries); skipped`),
    );
    return undefined;
  }
}

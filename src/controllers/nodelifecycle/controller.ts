import { Clock, TimerHandle } from '../../clock';
import { Lease, Node } from '../../api/core';
import { clone } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { Client } from '../../client/client';
import { EventRecorder } from '../../client/events';
import { Informer, InformerFactory } from '../../client/informer';
import { assessNodeHealth, HealthOptions, HealthResult, NodeHealth } from './health';
import { NodeLifecycleOptions } from './options';
import { reportTo } from '../../client/background';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/**
 * The node lifecycle controller (pkg/controller/nodelifecycle): every node-monitor-period
 * it judges each node's health from heartbeats (status or Lease) and marks silent nodes
 * Unknown. Everything it knows comes from informers; everything it changes goes through
 * the API server.
 */
export class NodeLifecycleController {
  private readonly nodes: Informer<Node>;
  private readonly leases: Informer<Lease>;
  private readonly health = new Map<string, NodeHealth>();
  /** knownNodeSet: the nodes the last pass saw, by name. */
  private readonly known = new Map<string, Node>();
  private readonly leaseKeys = new Map<string, string>();
  private timer?: TimerHandle;
  readonly events: EventRecorder;
  /** Per-node results of the last pass, for what builds on health (zones, eviction). */
  private readonly passListeners: ((results: Map<string, { node: Node; result: HealthResult }>) => Promise<void>)[] =
    [];

  constructor(
    informers: InformerFactory,
    private readonly client: Client,
    private readonly clock: Clock,
    readonly options: NodeLifecycleOptions,
  ) {
    this.nodes = informers.informer<Node>({ resource: 'nodes' });
    this.leases = informers.informer<Lease>({ resource: 'leases', namespace: NODE_LEASE_NAMESPACE });
    this.events = new EventRecorder(client, clock, { component: 'node-controller' });
  }

  /** Lets later slices (eviction, zones) act on each pass's results. */
  onPass(listener: (results: Map<string, { node: Node; result: HealthResult }>) => Promise<void>): void {
    this.passListeners.push(listener);
  }

  run(): void {
    // Upstream runs monitorNodeHealth at once and then every period (wait.Until).
    void this.monitorNodeHealth().catch(reportTo('node lifecycle controller'));
    this.timer = this.clock.setInterval(
      () => void this.monitorNodeHealth().catch(reportTo('node lifecycle controller')),
      this.options.nodeMonitorPeriod,
    );
  }

  stop(): void {
    if (this.timer) this.clock.clear(this.timer);
  }

  /** The controller's record for a node (for diagnostics and reports). */
  healthOf(name: string): NodeHealth | undefined {
    return this.health.get(name);
  }

  /**
   * Leaving master disruption mode (handleDisruption): every node's probe and Ready
   * transition times become now, so grace periods and eviction timeouts start again.
   */
  restartHealthTimers(now: number): void {
    for (const [name, h] of this.health)
      this.health.set(name, { ...h, probeTimestamp: now, readyTransitionTimestamp: now });
  }

  async monitorNodeHealth(): Promise<void> {
    const now = this.clock.now();
    const nodes = this.nodes.list();
    for (const node of nodes) {
      if (!this.known.has(node.metadata.name!)) {
        this.known.set(node.metadata.name!, node);
        this.events.normal(
          node,
          'RegisteredNode',
          `Node ${node.metadata.name} event: Registered Node ${node.metadata.name} in Controller`,
        );
      }
    }
    // Every listed node is known now, so a node is gone exactly when known has more: only
    // then is the removal scan (and its set of names) worth its cost.
    const names = this.known.size > nodes.length ? new Set(nodes.map((n) => n.metadata.name!)) : undefined;
    for (const [name, gone] of names ? [...this.known] : []) {
      if (!names!.has(name)) {
        // Upstream monitorNodeHealth (v1.12 and v1.32): RecordNodeEvent "RemovingNode".
        this.events.normal(gone, 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
        this.known.delete(name);
        this.health.delete(name);
        this.leaseKeys.delete(name);
      }
    }
    const results = new Map<string, { node: Node; result: HealthResult }>();
    // Nodes that need no write are judged synchronously; only writes wait.
    const writes: Promise<void>[] = [];
    const options = this.healthOptions(now);
    for (const node of nodes) {
      const r = this.updateNodeHealth(node, options);
      if (r instanceof Promise)
        writes.push(
          r.then((w) => {
            if (w) results.set(node.metadata.name!, w);
          }),
        );
      else results.set(node.metadata.name!, r);
    }
    await Promise.all(writes);
    for (const listener of this.passListeners) await listener(results);
  }

  /**
   * The Lease's cache key for a node, kept: building "kube-node-lease/<name>" anew for each
   * node on each pass, and hashing it, cost more than the rest of a quiet node's judgement.
   */
  private leaseKey(name: string): string {
    let key = this.leaseKeys.get(name);
    if (key === undefined) this.leaseKeys.set(name, (key = `${NODE_LEASE_NAMESPACE}/${name}`));
    return key;
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
    options: HealthOptions,
  ): { node: Node; result: HealthResult } | Promise<{ node: Node; result: HealthResult } | undefined> {
    const name = node.metadata.name!;
    const lease = this.leases.get(this.leaseKey(name));
    const result = assessNodeHealth(node, this.health.get(name), lease, options);
    if (!result.updatedConditions) {
      if (this.health.get(name) !== result.health) this.health.set(name, result.health);
      return { node, result };
    }
    return this.writeUnknown(node, name, lease, result, options);
  }

  private async writeUnknown(
    node: Node,
    name: string,
    lease: Lease | undefined,
    result: HealthResult,
    options: HealthOptions,
  ): Promise<{ node: Node; result: HealthResult } | undefined> {
    // Write Unknown; on a conflict re-read and judge again (upstream retries 5 times).
    let current = node;
    for (let attempt = 0; attempt < 5; attempt++) {
      const r = attempt === 0 ? result : assessNodeHealth(current, this.health.get(name), lease, options);
      if (!r.updatedConditions) {
        this.health.set(name, r.health);
        return { node: current, result: r };
      }
      const next = clone(current);
      next.status = { ...next.status, conditions: r.updatedConditions };
      try {
        const written = await this.client.update<Node>({ resource: 'nodes' }, next, { subresource: 'status' });
        this.health.set(name, r.health);
        return { node: written, result: r };
      } catch (e) {
        if (isStatusError(e, 'NotFound')) return undefined;
        if (!isStatusError(e, 'Conflict')) throw e;
        current = await this.client.get<Node>({ resource: 'nodes' }, name);
      }
    }
    return undefined;
  }
}

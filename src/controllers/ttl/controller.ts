import { Node } from '../../api/core';
import { isStatusError } from '../../api/errors';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';

/** The annotation the kubelet reads as how long it may cache secrets and config maps (v1.ObjectTTLAnnotationKey). */
export const TTL_ANNOTATION = 'node.alpha.kubernetes.io/ttl';

/**
 * Upstream ttlBoundaries: the TTL for a cluster of a size. The ranges overlap, so the step
 * changes with hysteresis: up when the count exceeds a step's sizeMax, down when it falls
 * below its sizeMin (101 nodes → 15 s, back to 0 only below 90).
 */
export const TTL_BOUNDARIES: readonly { sizeMin: number; sizeMax: number; ttlSeconds: number }[] = [
  { sizeMin: 0, sizeMax: 100, ttlSeconds: 0 },
  { sizeMin: 90, sizeMax: 500, ttlSeconds: 15 },
  { sizeMin: 450, sizeMax: 1000, ttlSeconds: 30 },
  { sizeMin: 900, sizeMax: 2000, ttlSeconds: 60 },
  { sizeMin: 1800, sizeMax: 2 ** 31 - 1, ttlSeconds: 300 },
];

/**
 * The TTL controller (pkg/controller/ttl, since v1.6): counts the nodes it sees and writes
 * the TTL for that cluster size into each node's node.alpha.kubernetes.io/ttl annotation.
 * A node is looked at when it is added or updated, never when another one is deleted:
 * after the cluster shrinks, a node takes the new TTL at its next update (upstream relies
 * on the kubelet's status updates for that), so a node no one updates keeps the old one.
 */
export class TTLController {
  private readonly nodes: Informer<Node>;
  private readonly queue: WorkQueue;
  private nodeCount = 0;
  private boundaryStep = 0;

  constructor(private readonly ctx: ControllerContext) {
    this.nodes = ctx.informer<Node>({ resource: 'nodes' });
    // Run(ctx, 5) in kube-controller-manager's startTTLController.
    this.queue = ctx.workQueue((key) => this.sync(key), { name: 'ttlcontroller', workers: 5 });
  }

  /** The TTL the controller currently wants on every node. */
  get desiredTTLSeconds(): number {
    return TTL_BOUNDARIES[this.boundaryStep].ttlSeconds;
  }

  run(): void {
    this.ctx.handle(this.nodes, {
      onAdd: (n) => {
        this.nodeCount++;
        if (this.nodeCount > TTL_BOUNDARIES[this.boundaryStep].sizeMax) this.boundaryStep++;
        this.queue.add(n.metadata.name!);
      },
      onUpdate: (_o, n) => this.queue.add(n.metadata.name!),
      onDelete: () => {
        this.nodeCount--;
        if (this.nodeCount < TTL_BOUNDARIES[this.boundaryStep].sizeMin) this.boundaryStep--;
      },
    });
  }

  stop(): Promise<void> {
    return this.ctx.stop();
  }

  /** Upstream updateNodeIfNeeded: patch the annotation unless it already holds the desired TTL as an integer. */
  async sync(name: string): Promise<void> {
    const node = this.nodes.getByName(name);
    if (!node) return;
    const desired = this.desiredTTLSeconds;
    const current = node.metadata.annotations?.[TTL_ANNOTATION];
    if (current !== undefined && /^[+-]?\d+$/.test(current) && Number(current) === desired) return;
    try {
      await this.ctx.client.patch<Node>({ resource: 'nodes' }, name, 'strategic', {
        metadata: { annotations: { [TTL_ANNOTATION]: String(desired) } },
      });
    } catch (e) {
      // Deleted meanwhile: nothing left to annotate (upstream's next Get finds it gone).
      if (!isStatusError(e, 'NotFound')) throw e;
    }
  }
}

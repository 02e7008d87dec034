import { Node } from '../../api/core';
import { isStatusError } from '../../api/errors';
import { EventRecorder } from '../../client/events';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { CidrSet, CIDRSetError } from './cidr-set';
import { ControllerBase } from '../controller-base';

export interface NodeIpamOptions {
  /** --cluster-cidr (IPv4, single stack) */
  clusterCIDR: string;
  /** --node-cidr-mask-size (24 by default) */
  nodeCIDRMaskSize: number;
}

/**
 * The node IPAM controller's RangeAllocator (pkg/controller/nodeipam/ipam/range_allocator.go):
 * at start it occupies the podCIDRs nodes already carry; a node without one gets the next
 * block of --cluster-cidr; a deleted node's block is released. Exhaustion is a
 * CIDRNotAvailable event on the node, never a crash.
 */
export class RangeAllocator extends ControllerBase {
  private readonly nodes: Informer<Node>;
  readonly cidrs: CidrSet;
  private readonly queue: WorkQueue;
  /** Node name → the block reserved for it (until it is written or released). */
  private readonly reserved = new Map<string, string>();
  /**
   * Node name → the block just written to it, until the cache shows it: an update of the node
   * seen meanwhile (another controller's write) must not allocate a second block (upstream
   * keeps such a node in nodesInProcessing and skips it).
   */
  private readonly written = new Map<string, string>();
  private readonly events: EventRecorder;

  constructor(ctx: ControllerContext, options: NodeIpamOptions) {
    super(ctx);
    this.nodes = ctx.informer<Node>({ resource: 'nodes' });
    this.cidrs = new CidrSet(options.clusterCIDR, options.nodeCIDRMaskSize);
    this.queue = ctx.workQueue((name) => this.sync(name), { name: 'node-ipam', workers: 30 });
    this.events = ctx.events({ component: 'cidrAllocator' });
  }

  run(): void {
    for (const node of this.nodes.list()) this.occupyExisting(node);
    this.ctx.handle(this.nodes, {
      onAdd: (n) => this.queue.add(n.metadata.name!),
      onUpdate: (_o, n) => {
        if (!podCIDRs(n).length) this.queue.add(n.metadata.name!);
      },
      onDelete: (n) => {
        this.written.delete(n.metadata.name!);
        this.release(n);
      },
    });
  }

  private occupyExisting(node: Node): void {
    for (const cidr of podCIDRs(node)) {
      try {
        this.cidrs.occupy(cidr);
      } catch {
        /* upstream refuses to start; the reference reports it on the node instead */
      }
    }
  }

  private release(node: Node): void {
    for (const cidr of podCIDRs(node)) {
      try {
        this.cidrs.release(cidr);
      } catch {
        /* not ours */
      }
    }
    const held = this.reserved.get(node.metadata.name!);
    if (held) {
      this.cidrs.release(held);
      this.reserved.delete(node.metadata.name!);
    }
  }

  /** AllocateOrOccupyCIDR plus the worker that writes spec.podCIDR(s). */
  async sync(name: string): Promise<void> {
    const node = this.nodes.getByName(name);
    if (!node) return;
    const have = podCIDRs(node);
    if (have.length === 0 && this.written.has(name)) return;
    this.written.delete(name);
    if (have.length > 0) {
      for (const cidr of have) {
        try {
          this.cidrs.occupy(cidr);
        } catch (e) {
          if (!(e instanceof CIDRSetError)) throw e;
        }
      }
      const held = this.reserved.get(name);
      if (held && !have.includes(held)) this.cidrs.release(held);
      this.reserved.delete(name);
      return;
    }
    let cidr = this.reserved.get(name);
    if (!cidr) {
      try {
        cidr = this.cidrs.allocateNext();
      } catch (e) {
        if (!(e instanceof CIDRSetError)) throw e;
        this.events.normal(node, 'CIDRNotAvailable', `Node ${name} status is now: CIDRNotAvailable`);
        return;
      }
      this.reserved.set(name, cidr);
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.client.patch<Node>({ resource: 'nodes' }, name, 'merge', {
          spec: { podCIDR: cidr, podCIDRs: [cidr] },
        });
        this.reserved.delete(name);
        this.written.set(name, cidr);
        return;
      } catch (e) {
        if (isStatusError(e, 'NotFound')) break;
        if (isStatusError(e, 'Invalid')) {
          // Someone set another CIDR meanwhile: ours goes back.
          break;
        }
      }
    }
    this.cidrs.release(cidr);
    this.reserved.delete(name);
    const still = this.nodes.getByName(name);
    if (still) this.events.normal(still, 'CIDRAssignmentFailed', `Node ${name} status is now: CIDRAssignmentFailed`);
  }
}

function podCIDRs(node: Node): string[] {
  const list = node.spec?.podCIDRs ?? [];
  if (list.length > 0) return list;
  return node.spec?.podCIDR ? [node.spec.podCIDR] : [];
}

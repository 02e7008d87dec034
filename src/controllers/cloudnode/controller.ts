import { Node } from '../../api/core';
import { isStatusError } from '../../api/errors';
import { TAINT_CLOUD_UNINITIALIZED } from '../../api/taints';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { CloudProvider } from '../../cloud/provider';

/**
 * The cloud node controller of the cloud-controller-manager (k8s.io/cloud-provider
 * controllers/node, syncNode): a node registered by a --cloud-provider=external kubelet
 * carries the uninitialized taint; the controller reads the node's metadata from the cloud
 * (InstanceMetadata), writes its providerID, and lifts the taint in the same update. Until
 * then the node takes no pods that do not tolerate it. A node whose machine the cloud does
 * not know stays tainted, and is tried again (the queue's backoff). It is what the seed's
 * "--cloud-provider: reads the node's own metadata from the cloud" became once the in-tree
 * providers went (v1.31); the v1.12 kubelet read it itself (HollowKubelet.initialNode).
 */
export class CloudNodeController {
  private readonly nodes: Informer<Node>;
  private readonly queue: WorkQueue;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly cloud: CloudProvider,
  ) {
    this.nodes = ctx.informer<Node>({ resource: 'nodes' });
    this.queue = ctx.workQueue((name) => this.syncNode(name), { name: 'cloud-node', workers: 1 });
  }

  run(): void {
    const enqueue = (n: Node) => {
      if (uninitialized(n)) this.queue.add(n.metadata.name!);
    };
    this.ctx.handle(this.nodes, { onAdd: enqueue, onUpdate: (_o, n) => enqueue(n) });
  }

  stop(): Promise<void> {
    return this.ctx.stop();
  }

  async syncNode(name: string): Promise<void> {
    const node = this.nodes.getByName(name);
    if (!node || !uninitialized(node)) return;
    const metadata = await this.cloud.instanceMetadata(name, node.spec?.providerID);
    if (!metadata)
      throw new Error(`the cloud has no instance for node "${name}" (InstanceNotFound): it stays uninitialized`);
    const spec = { ...node.spec };
    if (!spec.providerID) spec.providerID = metadata.providerID;
    spec.taints = (spec.taints ?? []).filter((t) => t.key !== TAINT_CLOUD_UNINITIALIZED);
    if (spec.taints.length === 0) delete spec.taints;
    try {
      await this.ctx.client.update<Node>({ resource: 'nodes' }, { ...node, spec });
    } catch (e) {
      // Deleted meanwhile: nothing to initialize. A conflict: the informer brings the newer
      // node, whose update queues it again.
      if (isStatusError(e, 'NotFound') || isStatusError(e, 'Conflict')) return;
      throw e;
    }
  }
}

function uninitialized(node: Node): boolean {
  return (node.spec?.taints ?? []).some((t) => t.key === TAINT_CLOUD_UNINITIALIZED);
}

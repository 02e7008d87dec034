import { Node } from '../../api/core';
import { isStatusError } from '../../api/errors';
import { EventRecorder } from '../../client/events';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { CloudProvider } from '../../cloud/provider';
import { ControllerBase } from '../controller-base';

/**
 * NODE-CLOUD-GONE: every node-monitor-period, each node that is not Ready is checked with
 * the cloud; if its machine no longer exists the Node object is deleted. This was the
 * node controller's own job in v1.7 (event DeletingNode) and is the cloud node lifecycle
 * controller's (k8s.io/cloud-provider/controllers/nodelifecycle, MonitorNodes) today.
 */
export class CloudNodeLifecycleController extends ControllerBase {
  private readonly nodes: Informer<Node>;
  private readonly events: EventRecorder;

  constructor(
    ctx: ControllerContext,
    private readonly cloud: CloudProvider,
    private readonly periodMs: number,
  ) {
    super(ctx);
    this.nodes = ctx.informer<Node>({ resource: 'nodes' });
    this.events = ctx.events({ component: 'cloud-node-lifecycle-controller' });
  }

  run(): void {
    this.ctx.every(this.periodMs, () => this.monitorNodes());
  }

  async monitorNodes(): Promise<void> {
    for (const node of this.nodes.list()) {
      const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
      if (ready?.status === 'True') continue;
      if (await this.cloud.instanceExists(node.metadata.name!, node.spec?.providerID)) continue;
      this.events.normal(
        node,
        'DeletingNode',
        `Deleting node ${node.metadata.name} because it does not exist in the cloud provider`,
      );
      try {
        await this.client.delete({ resource: 'nodes' }, node.metadata.name!);
      } catch (e) {
        if (!isStatusError(e, 'NotFound')) throw e;
      }
    }
  }
}

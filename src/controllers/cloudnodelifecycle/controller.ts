import { Clock, Quiescence, TimerHandle } from '../../clock';
import { Node } from '../../api/core';
import { isStatusError } from '../../api/errors';
import { Client } from '../../client/client';
import { EventRecorder } from '../../client/events';
import { Informer, InformerFactory } from '../../client/informer';
import { CloudProvider } from '../../cloud/provider';
import { reportTo } from '../../client/background';

/**
 * NODE-CLOUD-GONE: every node-monitor-period, each node that is not Ready is checked with
 * the cloud; if its machine no longer exists the Node object is deleted. This was the
 * node controller's own job in v1.7 (event DeletingNode) and is the cloud node lifecycle
 * controller's (k8s.io/cloud-provider/controllers/nodelifecycle, MonitorNodes) today.
 */
export class CloudNodeLifecycleController {
  private readonly nodes: Informer<Node>;
  private timer?: TimerHandle;
  private readonly events: EventRecorder;

  constructor(
    informers: InformerFactory,
    private readonly client: Client,
    private readonly clock: Clock,
    private readonly quiescence: Quiescence,
    private readonly cloud: CloudProvider,
    private readonly periodMs: number,
  ) {
    this.nodes = informers.informer<Node>({ resource: 'nodes' });
    this.events = new EventRecorder(client, clock, { component: 'cloud-node-lifecycle-controller' });
  }

  run(): void {
    this.timer = this.clock.setInterval(
      () => void this.quiescence.track(this.monitorNodes()).catch(reportTo('cloud node lifecycle controller')),
      this.periodMs,
    );
  }

  stop(): void {
    if (this.timer) this.clock.clear(this.timer);
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

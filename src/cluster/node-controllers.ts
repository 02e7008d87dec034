import { Clock, Quiescence } from '../clock';
import { ApiServer } from '../apiserver/apiserver';
import { defaultTolerationSeconds } from '../apiserver/admission/default-toleration-seconds';
import { nodeTaintAdmission } from '../apiserver/admission/nodetaint';
import { ErrorSink } from '../client/background';
import { Client } from '../client/client';
import { ControllerContext } from '../client/controller-context';
import { InformerFactory } from '../client/informer';
import { SimulatedCloud } from '../cloud/simulated';
import { CloudNodeController } from '../controllers/cloudnode/controller';
import { CloudNodeLifecycleController } from '../controllers/cloudnodelifecycle/controller';
import { DaemonSetController } from '../controllers/daemonset/controller';
import { NodeLifecycleController } from '../controllers/nodelifecycle/controller';
import { NodeEvictionController } from '../controllers/nodelifecycle/eviction';
import { NoScheduleTaintController } from '../controllers/nodelifecycle/noschedule-taints';
import { RangeAllocator } from '../controllers/nodeipam/range-allocator';
import { PodGCController } from '../controllers/podgc/controller';
import { TaintEvictionController } from '../controllers/tainteviction/controller';
import { TTLController } from '../controllers/ttl/controller';
import { ClusterConfig } from '../profile/config';
import { nodeControllerOptions, nodeLifecycleOptions } from './config';

interface Runnable {
  run(): void;
  stop(): Promise<void>;
}

/**
 * Everything built around node health: eviction and zones, NoSchedule taints, the taint
 * eviction controller, pod GC, node IPAM, the cloud check, DaemonSets, and the
 * DefaultTolerationSeconds admission plugin — each enabled as the configuration says.
 */
export class NodeControllers {
  readonly eviction: NodeEvictionController;
  readonly taintEviction?: TaintEvictionController;
  readonly ipam?: RangeAllocator;
  readonly cloud?: SimulatedCloud;
  private readonly all: Runnable[] = [];

  /** Class names of the controllers it runs, for the documentation's architecture picture. */
  controllerNames(): string[] {
    return [this.eviction, ...this.all].map((c) => c.constructor.name);
  }

  constructor(c: {
    config: ClusterConfig;
    api: ApiServer;
    client: Client;
    informers: InformerFactory;
    clock: Clock;
    quiescence: Quiescence;
    reportError: ErrorSink;
    nodeLifecycle: NodeLifecycleController;
  }) {
    const { config } = c;
    const ctx = (name: string) => new ControllerContext(c, name);
    const options = nodeLifecycleOptions(config);
    const own = nodeControllerOptions(config);
    c.api.admission.use(defaultTolerationSeconds(own.defaultTolerations));
    // On by default wherever the TaintNodesByCondition feature is (v1.13, backported to v1.12.6).
    if (options.taintNodesByCondition) c.api.admission.use(nodeTaintAdmission());
    this.eviction = new NodeEvictionController(c.nodeLifecycle, ctx('node-lifecycle-controller'), options);
    this.all.push(this.eviction);
    if (options.taintNodesByCondition) {
      this.all.push(
        new NoScheduleTaintController(ctx('node-lifecycle-controller (NoSchedule taints)'), {
          outOfDisk: config.profile.kubelet.conditions.includes('OutOfDisk'),
        }),
      );
    }
    // The taint manager ran by default long before taint-based eviction (--enable-taint-manager, v1.6–v1.26).
    if (own.taintManager)
      this.all.push((this.taintEviction = new TaintEvictionController(ctx('taint-eviction-controller'))));
    this.all.push(
      new PodGCController(ctx('pod-garbage-collector-controller'), {
        quarantine: config.profile.features.orphanPodQuarantine ?? true,
      }),
    );
    if (own.ipam) this.all.push((this.ipam = new RangeAllocator(ctx('node-ipam-controller'), own.ipam)));
    if (own.simulatedCloud) {
      this.cloud = new SimulatedCloud();
      this.all.push(
        new CloudNodeLifecycleController(ctx('cloud-node-lifecycle-controller'), this.cloud, options.nodeMonitorPeriod),
      );
      // Releases without in-tree providers initialize the external kubelets' nodes (cluster.addKubelet).
      if (!(config.profile.features.inTreeCloudProviders ?? false))
        this.all.push(new CloudNodeController(ctx('cloud-node-controller'), this.cloud));
    }
    // Every release both profiles follow runs it (kube-controller-manager's "ttl" controller, v1.6+).
    this.all.push(new TTLController(ctx('ttl-controller')));
    this.all.push(
      new DaemonSetController(ctx('daemonset-controller'), {
        maxSurge: config.profile.features.daemonSetMaxSurge ?? true,
      }),
    );
  }

  run(): void {
    for (const r of this.all) r.run();
  }

  /** Resolves once the syncs under way have ended. */
  async stop(): Promise<void> {
    await Promise.all(this.all.map((r) => r.stop()));
  }
}

import { Clock, Quiescence } from '../clock';
import { ApiServer } from '../apiserver/apiserver';
import { limitRanger } from '../apiserver/admission/limitranger';
import { resourceQuotaAdmission } from '../apiserver/admission/resourcequota';
import { serviceAccountAdmission } from '../apiserver/admission/serviceaccount';
import { KubernetesServiceController } from '../apiserver/kubernetes-service';
import { InProcessClient } from '../apiserver/inprocess-client';
import { ServiceAllocations } from '../apiserver/service-allocation';
import { finalizeHandler } from '../apiserver/subresources/finalize';
import { scaleHandler } from '../apiserver/subresources/scale';
import { ErrorSink } from '../client/background';
import { Client } from '../client/client';
import { ControllerContext } from '../client/controller-context';
import { InformerFactory } from '../client/informer';
import { SimulatedLoadBalancers } from '../cloud/loadbalancer';
import { EndpointsController } from '../controllers/endpoints/controller';
import { EndpointSliceController } from '../controllers/endpointslice/controller';
import { EndpointSliceMirroringController } from '../controllers/endpointslice/mirroring';
import { DEFAULT_MAX_ENDPOINTS_PER_SLICE } from '../controllers/endpointslice/desired';
import { GarbageCollector } from '../controllers/garbagecollector/controller';
import { JobController } from '../controllers/job/controller';
import { NamespaceController } from '../controllers/namespace/controller';
import { ReplicationManager } from '../controllers/replicaset/replication';
import { DEFAULT_REPLICASET_OPTIONS, ReplicaSetController } from '../controllers/replicaset/controller';
import { DeploymentController } from '../controllers/deployment/controller';
import { StatefulSetController } from '../controllers/statefulset/controller';
import { ResourceQuotaController } from '../controllers/resourcequota/controller';
import { ServiceAccountsController } from '../controllers/serviceaccount/controller';
import { TokensController } from '../controllers/serviceaccount/tokens';
import { RootCACertPublisher } from '../controllers/rootcacertpublisher/publisher';
import { ServiceController } from '../controllers/service/controller';
import { TokenSigner } from '../serviceaccount/jwt';
import { Store } from '../store';
import { ClusterConfig } from '../profile/config';
import { controllerManagerOptions } from './config';

interface Parts {
  api: ApiServer;
  store: Store;
  client: Client;
  informers: InformerFactory;
  clock: Clock;
  quiescence: Quiescence;
  config: ClusterConfig;
  /** The cluster's background reporter: where every failure nobody waits for goes. */
  reportError: ErrorSink;
  /** The service-account key pair (--service-account-private-key-file). */
  serviceAccountSigner: TokenSigner;
  /** The cluster's root CA (PEM), when it has one. */
  rootCA?: string;
}

/**
 * The workload, namespace, service and quota half of the control plane: the API server's
 * admission plugins, subresources and service-IP allocation for them, the `kubernetes`
 * service, and the kube-controller-manager controllers that act on them. Every setting
 * comes from the cluster's flags and profile.
 */
export class ControllerManager {
  readonly cloud = new SimulatedLoadBalancers();
  readonly serviceAllocations: ServiceAllocations;
  readonly kubernetesService: KubernetesServiceController;
  private readonly securePort: number;
  readonly garbageCollector: GarbageCollector;
  readonly replication: ReplicationManager;
  readonly replicaSets: ReplicaSetController;
  readonly deployments: DeploymentController;
  readonly statefulSets: StatefulSetController;
  readonly jobs: JobController;
  readonly namespaces: NamespaceController;
  readonly serviceAccounts: ServiceAccountsController;
  readonly tokens: TokensController;
  /** The kube-root-ca.crt publisher, in releases that run it (v1.20+). */
  readonly rootCACertPublisher?: RootCACertPublisher;
  readonly endpoints: EndpointsController;
  /** The EndpointSlice controllers, in releases that serve discovery.k8s.io/v1 (v1.21+). */
  readonly endpointSlices?: EndpointSliceController;
  readonly endpointSliceMirroring?: EndpointSliceMirroringController;
  readonly services: ServiceController;
  readonly resourceQuota: ResourceQuotaController;

  constructor(p: Parts) {
    const options = controllerManagerOptions(p.config);
    const features = p.config.profile.features;
    const cidr = options.serviceClusterIPRange;
    // Through the API server's own handle: the range objects are its writes (COMM-APISERVER-ONLY).
    this.serviceAllocations = new ServiceAllocations(cidr, p.api.store, (w) => p.quiescence.track(w), p.reportError);
    p.api.addCreateHook(this.serviceAllocations);
    p.api.handleSubresource('replicationcontrollers', 'scale', scaleHandler);
    p.api.handleSubresource('namespaces', 'finalize', finalizeHandler);
    p.api.admission.use(limitRanger(p.api));
    p.api.admission.use(
      serviceAccountAdmission(p.api, { legacyTokenSecrets: features.legacyServiceAccountTokens ?? false }),
    );
    p.api.admission.use(
      resourceQuotaAdmission(p.api, {
        constraintMessages: features.perContainerQuotaMessages ? 'per-container' : 'legacy',
      }),
    );
    this.securePort = options.securePort;
    // The API server's own loop, not the controller manager's: upstream it runs inside
    // kube-apiserver on the loopback client (user system:apiserver, group system:masters).
    const loopback = new InProcessClient(p.api, p.quiescence, {
      username: 'system:apiserver',
      groups: ['system:masters', 'system:authenticated'],
    });
    this.kubernetesService = new KubernetesServiceController(
      loopback,
      p.clock,
      {
        clusterIP: this.serviceAllocations.ips.firstIP,
        advertiseAddress: options.advertiseAddress,
        securePort: options.securePort,
        intervalMs: 10_000,
      },
      p.reportError,
    );
    // Each controller its own context (cmd/kube-controller-manager's ControllerContext and the
    // context its loops run under), named as kube-controller-manager's --controllers names it.
    const ctx = (name: string) => new ControllerContext(p, name);
    this.garbageCollector = new GarbageCollector(ctx('garbage-collector-controller'), p.api.registry);
    const replicaOptions = {
      ...DEFAULT_REPLICASET_OPTIONS,
      deletionOrder: features.activePodsWithRanks ? ('ActivePodsWithRanks' as const) : ('ActivePods' as const),
    };
    this.replication = new ReplicationManager(ctx('replicationcontroller-controller'), replicaOptions);
    this.replicaSets = new ReplicaSetController(ctx('replicaset-controller'), replicaOptions);
    // Release differences of the Deployment controller, from the profile's version.
    const minor = Number(/^v1\.(\d+)/.exec(p.config.profile.kubernetesVersion)?.[1] ?? 32);
    this.deployments = new DeploymentController(ctx('deployment-controller'), {
      workers: 5,
      scaleEventFrom: minor >= 29,
      cleanupOrder: minor >= 20 ? 'revision' : 'creation',
    });
    this.statefulSets = new StatefulSetController(ctx('statefulset-controller'), { podIndexLabel: minor >= 28 });
    this.jobs = new JobController(ctx('job-controller'));
    // The deletion conditions on a namespace's status came in v1.16.
    this.namespaces = new NamespaceController(
      ctx('namespace-controller'),
      { deletionConditions: minor >= 16 },
      p.api.registry,
    );
    this.serviceAccounts = new ServiceAccountsController(ctx('serviceaccount-controller'));
    this.tokens = new TokensController(ctx('serviceaccount-token-controller'), p.serviceAccountSigner, {
      autoGenerate: features.legacyServiceAccountTokens ?? false,
      rootCA: p.rootCA,
    });
    // Nothing to publish without a CA (a cluster reached only in-process: benchmarks, unit tests).
    if (features.rootCACertPublisher && p.rootCA)
      this.rootCACertPublisher = new RootCACertPublisher(ctx('root-ca-cert-publisher'), p.rootCA);
    // The endpoints controller's rules are modelled at the two profiles' releases, v1.12 and v1.32.
    this.endpoints = new EndpointsController(ctx('endpoints-controller'), {
      rules: minor >= 20 ? 'v1.32' : 'v1.12',
    });
    if (features.endpointSlices) {
      this.endpointSlices = new EndpointSliceController(ctx('endpointslice-controller'), {
        maxEndpointsPerSlice: DEFAULT_MAX_ENDPOINTS_PER_SLICE,
      });
      this.endpointSliceMirroring = new EndpointSliceMirroringController(ctx('endpointslice-mirroring-controller'));
    }
    this.services = new ServiceController(ctx('service-lb-controller'), this.cloud, {
      clusterName: options.clusterName,
      nodeSelection: features.stableLoadBalancerNodeSet ? 'stable' : 'legacy',
    });
    this.resourceQuota = new ResourceQuotaController(ctx('resourcequota-controller'), options.resourceQuotaSyncPeriod);
  }

  /** The API server's part: what services already hold, then the `kubernetes` service. */
  async startApiServer(): Promise<void> {
    await this.serviceAllocations.start();
  }

  /** Called once the namespaces exist. */
  async bootstrap(): Promise<void> {
    // Upstream's controller publishes the secure listener's port (SecureServing.HostPort() in
    // pkg/controlplane/instance.go; NewBootstrapController in v1.12) and has nothing to publish
    // without one: with --secure-port 0 there is no `kubernetes` service, never one whose
    // targetPort is 0. Clients then reach the API only on the insecure port.
    if (this.securePort === 0) return;
    await this.kubernetesService.start();
  }

  /** Starts the controllers (their informers have synced). */
  run(): void {
    for (const c of this.controllers()) c.run();
  }

  /**
   * Stops the controllers only (leadership lost): the API server's parts keep running;
   * resolves once the syncs under way have ended.
   */
  async stopControllers(): Promise<void> {
    await Promise.all(this.controllers().map((c) => c.stop()));
  }

  async stop(): Promise<void> {
    this.kubernetesService.stop();
    this.serviceAllocations.stop();
    await this.stopControllers();
  }

  /** Class names of the controllers it runs, for the documentation's architecture picture. */
  controllerNames(): string[] {
    return this.controllers().map((c) => c.constructor.name);
  }

  private controllers() {
    return [
      this.garbageCollector,
      this.replication,
      this.replicaSets,
      this.deployments,
      this.statefulSets,
      this.jobs,
      this.namespaces,
      this.serviceAccounts,
      this.tokens,
      ...(this.rootCACertPublisher ? [this.rootCACertPublisher] : []),
      this.endpoints,
      ...(this.endpointSlices ? [this.endpointSlices] : []),
      ...(this.endpointSliceMirroring ? [this.endpointSliceMirroring] : []),
      this.services,
      this.resourceQuota,
    ];
  }
}

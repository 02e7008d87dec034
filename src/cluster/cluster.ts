import { Clock, Quiescence, RealClock, VirtualClock } from '../clock';
import { ApiServer } from '../apiserver/apiserver';
import type { ApiAuditReport } from '../apiserver/audit';
import { namespaceLifecycle } from '../apiserver/admission/namespace-lifecycle';
import { bindingHandler } from '../apiserver/subresources/binding';
import { evictionHandler } from '../apiserver/subresources/eviction';
import { coreRegistry } from '../api/resources';
import { MemoryStore, Store } from '../store';
import { Client } from '../client/client';
import { InProcessClient } from '../apiserver/inprocess-client';
import { InformerFactory } from '../client/informer';
import { ControllerContext } from '../client/controller-context';
import { isStatusError } from '../api/errors';
import { Namespace } from '../api/core';
import { NodeLifecycleController } from '../controllers/nodelifecycle/controller';
import { HollowKubelet } from '../kubelet/kubelet';
import { NodeControllers } from './node-controllers';
import { Scheduler } from '../scheduler/scheduler';
import { SchedulingDecision } from '../scheduler/decision';
import { ensureBootstrapPolicy } from '../apiserver/auth/bootstrap-policy';
import { TokenAuthenticator, TokenFile } from '../apiserver/auth/authenticator';
import { tokenReview } from '../apiserver/auth/reviews';
import { ServiceAccountAuthenticator } from '../apiserver/auth/serviceaccount';
import { TokenSigner } from '../serviceaccount/jwt';
import { SimulatedLoadBalancer } from '../cloud/loadbalancer';
import { ClusterConfig } from '../profile/config';
import {
  kubeletConfig,
  KubeletSpec,
  leaderElectionOptions,
  nodeLifecycleOptions,
  schedulerOptions,
  servingOptions,
} from './config';
import { ControllerManager } from './controller-manager';
import { serveOlderVersions } from '../api/resources/versions';
import { HollowProxy } from '../kubeproxy/proxy';
import { electionIdentity, LeaderElector, ResourceLock } from '../controllers/leaderelection/elector';
import { BackgroundReporter, ErrorSink } from '../client/background';

export class NoCloudProviderError extends Error {
  constructor() {
    super('this cluster runs without a cloud provider (set --cloud-provider=simulated)');
  }
}

/** Where virtual time starts: a fixed instant, so runs are reproducible to the millisecond. */
export const VIRTUAL_EPOCH = Date.UTC(2025, 0, 1, 0, 0, 0);

export interface ClusterOptions {
  config: ClusterConfig;
  clock?: 'virtual' | 'real';
  store?: Store;
  /** The tracker the store was opened with (a store delivers its watch events through it). */
  quiescence?: Quiescence;
  /** PEM of the service-account signing key (kept under --data-dir by `kubespec serve`); default a new one. */
  serviceAccountKey?: string;
  /**
   * PEM of the cluster's root CA, which the controller manager hands to pods (its
   * --root-ca-file, or the CA its own client trusts the API server by): ca.crt in token
   * secrets, the kube-root-ca.crt ConfigMaps. The CA the cluster's HTTPS is served with
   * (`kubespec serve`, the reference target); none for a cluster only reached in-process.
   */
  rootCA?: string;
  startTime?: number;
  /**
   * With --leader-elect, the scheduler campaigns for its own lock kube-system/kube-scheduler
   * (upstream kube-scheduler's --leader-elect) and schedules only while it holds it: for
   * API servers that share one etcd (kubespec serve turns it on for an etcd store), where
   * two schedulers would bind the same pods.
   */
  electScheduler?: boolean;
}

/**
 * The longest one settle may take in wall time, well inside CI's limits: on the real clock
 * components only react to what happened; in virtual time one settle may carry a large
 * scenario's whole reaction on a loaded machine, so it gets longer.
 */
export const SETTLE_LIMIT_MS = { real: 60_000, virtual: 5 * 60_000 };

/**
 * One control plane assembled from its parts: store, API server, controllers, kubelets.
 * Over 400 lines on purpose: one type, the façade drivers ask instead of its components
 * (ARCHITECTURE.md); how the parts are built is config.ts, controller-manager.ts and
 * node-controllers.ts, serving them over HTTP is serving.ts.
 */
export class Cluster {
  readonly quiescence: Quiescence;
  readonly clock: Clock;
  readonly store: Store;
  /** The store's revision before the API server first wrote (for the storage audit). */
  readonly initialRevision: number;
  readonly api: ApiServer;
  /** The controller manager's client (in-process, privileged). */
  readonly client: Client;
  readonly informers: InformerFactory;
  /**
   * The cluster's HandleError sink: every failure nobody waits for (a controller's sync, an
   * informer, a kubelet's write, the scheduler's) goes here, and only here — two clusters in
   * one process never see each other's. The reference driver listens to it.
   */
  readonly background = new BackgroundReporter();
  readonly reportError: ErrorSink = this.background.handle;
  readonly nodeLifecycle: NodeLifecycleController;
  readonly nodeControllers: NodeControllers;
  readonly scheduler: Scheduler;
  readonly kubelets = new Map<string, HollowKubelet>();
  readonly controllers: ControllerManager;
  /** One hollow kube-proxy per node, next to its kubelet. */
  readonly proxies = new Map<string, HollowProxy>();
  /** Called for every kubelet added (e.g. to serve its HTTPS API when the cluster serves HTTP). */
  readonly kubeletHooks: ((kubelet: HollowKubelet) => Promise<void>)[] = [];
  /** The service-account key pair: kube-controller-manager signs with it, the API server verifies. */
  readonly serviceAccountSigner: TokenSigner;
  /** The API server's bearer-token authenticators: --token-auth-file, then service-account tokens. */
  readonly tokenAuthenticators: TokenAuthenticator[];
  /** The controller manager's leader elector, with --leader-elect. */
  leaderElector?: LeaderElector;
  /** The scheduler's, with --leader-elect and electScheduler. */
  schedulerElector?: LeaderElector;
  private started = false;

  constructor(readonly options: ClusterOptions) {
    // A server restarted on its --data-dir signs with the key it had, so old tokens still verify.
    this.serviceAccountSigner = new TokenSigner(options.serviceAccountKey);
    this.quiescence = options.quiescence ?? new Quiescence();
    this.quiescence.settleLimitMs = options.clock === 'real' ? SETTLE_LIMIT_MS.real : SETTLE_LIMIT_MS.virtual;
    this.clock =
      options.clock === 'real'
        ? new RealClock()
        : new VirtualClock(options.startTime ?? VIRTUAL_EPOCH, this.quiescence);
    this.store = options.store ?? new MemoryStore(this.quiescence);
    this.initialRevision = this.store.revision();
    const features = options.config.profile.features;
    const registry = coreRegistry({
      jobRestartPolicyRequired: features.jobRestartPolicyRequired,
      namespaceRepeatDeleteAnswered: features.namespaceRepeatDeleteAnswered,
      daemonSetMaxSurge: features.daemonSetMaxSurge,
      podSchedulingGates: features.podSchedulingGates,
      endpointSlices: features.endpointSlices,
    });
    serveOlderVersions(registry, options.config.profile.olderApiVersions ?? {});
    this.api = new ApiServer(registry, this.store, this.clock, features.watchCacheFromList ?? true);
    this.api.admission.use(namespaceLifecycle(this.api));
    this.api.handleSubresource('pods', 'binding', bindingHandler);
    this.api.handleSubresource('pods', 'eviction', evictionHandler);
    this.client = new InProcessClient(this.api, this.quiescence, {
      username: 'system:kube-controller-manager',
      groups: ['system:authenticated'],
    });
    this.informers = new InformerFactory(this.client, this.clock, this.reportError);
    this.nodeLifecycle = new NodeLifecycleController(
      new ControllerContext(this, 'node-lifecycle-controller'),
      nodeLifecycleOptions(options.config),
    );
    this.nodeControllers = new NodeControllers(this);
    const schedulerClient = this.clientFor('system:kube-scheduler');
    this.scheduler = new Scheduler(
      new InformerFactory(schedulerClient, this.clock, this.reportError),
      schedulerClient,
      this.clock,
      this.quiescence,
      schedulerOptions(options.config),
      this.reportError,
    );
    this.controllers = new ControllerManager(this);
    const tokenFile = servingOptions(options.config).tokenAuthFile;
    this.tokenAuthenticators = [
      ...(tokenFile ? [TokenFile.load(tokenFile)] : []),
      new ServiceAccountAuthenticator(this.serviceAccountSigner, this.api),
    ];
  }

  get config(): ClusterConfig {
    return this.options.config;
  }

  get rootCA(): string | undefined {
    return this.options.rootCA;
  }

  get serviceAccountKey(): string | undefined {
    return this.options.serviceAccountKey;
  }

  get virtualClock(): VirtualClock | undefined {
    return this.clock instanceof VirtualClock ? this.clock : undefined;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.controllers.startApiServer();
    await this.bootstrapNamespaces();
    await ensureBootstrapPolicy(this.client);
    await this.controllers.bootstrap();
    await this.informers.start();
    const elect = leaderElectionOptions(this.config);
    if (elect) {
      // kube-controller-manager runs its controllers only while it holds the lock; losing it
      // stops them (upstream: the process exits).
      const election = { ...elect, lock: elect.lock as ResourceLock, namespace: 'kube-system' };
      if (this.options.electScheduler) {
        this.schedulerElector = new LeaderElector(
          this.clientFor('system:kube-scheduler'),
          this.clock,
          { ...election, name: 'kube-scheduler', identity: electionIdentity('kubespec-master') },
          {
            onStartedLeading: () => {
              void this.quiescence.track(this.scheduler.start()).catch(this.background.reportTo('scheduler'));
            },
            onStoppedLeading: () => this.scheduler.stop(),
          },
          this.reportError,
        );
        await this.schedulerElector.run();
      } else {
        await this.scheduler.start();
      }
      this.leaderElector = new LeaderElector(
        this.clientFor('system:kube-controller-manager'),
        this.clock,
        {
          ...election,
          name: 'kube-controller-manager',
          identity: electionIdentity('kubespec-master'),
        },
        {
          onStartedLeading: () => {
            this.nodeControllers.run();
            this.nodeLifecycle.run();
            this.controllers.run();
          },
          // Every controller's handlers leave the shared informers (which go on for the
          // API server's own loops), its queues and timers stop; the syncs under way end.
          onStoppedLeading: () => {
            void this.quiescence
              .track(this.stopControllers(() => this.controllers.stopControllers()))
              .catch(this.background.reportTo('kube-controller-manager'));
          },
        },
        this.reportError,
      );
      await this.leaderElector.run();
    } else {
      this.nodeControllers.run();
      this.nodeLifecycle.run();
      await this.scheduler.start();
      this.controllers.run();
    }
    await this.settle();
  }

  async stop(): Promise<void> {
    for (const k of this.kubelets.values()) k.stop();
    for (const p of this.proxies.values()) p.stop();
    this.scheduler.stop();
    this.leaderElector?.stop();
    this.schedulerElector?.stop();
    await this.stopControllers(() => this.controllers.stop());
    this.informers.stop();
    await this.store.close();
  }

  /** The node controllers, node lifecycle and the controller manager's (`rest`), each waited for. */
  private async stopControllers(rest: () => Promise<void>): Promise<void> {
    await Promise.all([this.nodeControllers.stop(), this.nodeLifecycle.stop(), rest()]);
  }

  /**
   * The parts this cluster is made of, grouped by the upstream process that runs them: the
   * documentation draws its architecture picture from this list, so the picture follows the code.
   */
  components(): { process: string; parts: string[] }[] {
    return [
      { process: 'kube-apiserver', parts: ['ApiServer', ...this.api.admission.names()] },
      { process: 'store', parts: [this.store.constructor.name] },
      {
        process: 'kube-controller-manager',
        parts: [
          ...new Set([
            this.nodeLifecycle.constructor.name,
            ...this.nodeControllers.controllerNames(),
            ...this.controllers.controllerNames(),
          ]),
        ],
      },
      { process: 'kube-scheduler', parts: [this.scheduler.constructor.name] },
      { process: 'kubelet', parts: ['HollowKubelet'] },
      { process: 'kube-proxy', parts: ['HollowProxy'] },
    ];
  }

  /**
   * Waits until no component has work in flight, for at most SETTLE_LIMIT_MS of wall time
   * (set on the quiescence, so the virtual clock's advance has it too: a hollow kubelet added
   * to a long-lived serve once kept a settle busy for 8 minutes): past it the caller gets an
   * error naming how much is still in flight, never a silent hang. Virtual time is not
   * touched: the limit only turns a stuck cluster into a failure.
   */
  async settle(): Promise<void> {
    await this.quiescence.settle();
  }

  /** Moves virtual time forward (virtual clock only). */
  async advance(ms: number): Promise<void> {
    const clock = this.virtualClock;
    if (!clock) throw new Error('this cluster runs on the real clock: time cannot be advanced');
    await clock.advance(ms);
  }

  /** A client acting as the given user, for components and tests. */
  clientFor(username: string, groups: string[] = ['system:authenticated']): Client {
    return new InProcessClient(this.api, this.quiescence, { username, groups });
  }

  async addKubelet(spec: KubeletSpec): Promise<HollowKubelet> {
    if (this.kubelets.has(spec.name)) throw new Error(`a kubelet for node "${spec.name}" already runs`);
    // On a cloud the kubelet runs on a machine of it, and learns its node's metadata there:
    // itself in releases with in-tree providers, else (--cloud-provider=external) from the
    // cloud node controller, which initializes the node it registers tainted.
    const cloud = this.nodeControllers.cloud;
    const inTree = this.config.profile.features.inTreeCloudProviders ?? false;
    const external = cloud && !inTree ? { 'cloud-provider': 'external', ...spec.flags } : spec.flags;
    const config = {
      ...kubeletConfig(this.config, { ...spec, ...(external ? { flags: external } : {}) }), // a bad spec fails before anything exists
      ...(cloud && inTree ? { providerID: cloud.providerID(spec.name) } : {}),
    };
    cloud?.addMachine(spec.name);
    const kubelet = new HollowKubelet(
      config,
      this.clientFor(`system:node:${spec.name}`, ['system:nodes', 'system:authenticated']),
      this.clock,
      this.reportError,
    );
    this.kubelets.set(spec.name, kubelet);
    let proxy: HollowProxy | undefined;
    try {
      await kubelet.start();
      proxy = new HollowProxy(
        spec.name,
        this.clientFor('system:kube-proxy', ['system:node-proxier', 'system:authenticated']),
      );
      this.proxies.set(spec.name, proxy);
      await proxy.start();
      for (const hook of this.kubeletHooks) await hook(kubelet);
    } catch (e) {
      // A kubelet that failed to start leaves nothing behind: no running loops, no entry
      // that would refuse the same name later.
      kubelet.stop();
      proxy?.stop();
      this.kubelets.delete(spec.name);
      this.proxies.delete(spec.name);
      throw e;
    }
    await this.settle();
    return kubelet;
  }

  /**
   * Takes a hollow machine away for good: its kubelet and kube-proxy stop and are forgotten,
   * and its cloud machine goes (a shared cluster removes what a finished scenario made; the
   * Node object is the caller's to delete). False when no kubelet runs under that name.
   */
  removeKubelet(name: string): boolean {
    const kubelet = this.kubelets.get(name);
    if (!kubelet) return false;
    kubelet.stop();
    this.kubelets.delete(name);
    this.proxies.get(name)?.stop();
    this.proxies.delete(name);
    this.nodeControllers.cloud?.deleteMachine(name);
    return true;
  }

  /**
   * Stops a kubelet right after one last heartbeat (status, and Lease where leases exist),
   * so "the kubelet stopped" has a precise moment; returns that heartbeat's time.
   */
  async silenceKubelet(name: string): Promise<number> {
    const kubelet = this.kubelet(name);
    await kubelet.syncNodeStatus(true);
    if (kubelet.config.useLease) await kubelet.renewLease();
    await this.settle();
    const at = this.clock.now();
    kubelet.stop();
    return at;
  }

  /** Who a bearer token is, as the API server's TokenReview answers (undefined: not authenticated). */
  async authenticate(token: string): Promise<{ username: string; groups: string[] } | undefined> {
    const review = (await tokenReview(this.tokenAuthenticators, { spec: { token } })) as {
      status: { authenticated: boolean; user?: { username: string; groups: string[] } };
    };
    return review.status.authenticated
      ? { username: review.status.user!.username, groups: review.status.user!.groups }
      : undefined;
  }

  /** The simulated cloud's machines, or undefined when the cluster runs without a cloud provider. */
  cloudMachines(): string[] | undefined {
    return this.nodeControllers.cloud?.machineNames();
  }

  /**
   * An operator deletes a cloud machine: it goes from the cloud and its kubelet stops with
   * it. False when the cloud has no such machine; throws when there is no cloud provider.
   */
  async deleteMachine(name: string): Promise<boolean> {
    const cloud = this.nodeControllers.cloud;
    if (!cloud) throw new NoCloudProviderError();
    if (!cloud.deleteMachine(name)) return false;
    this.kubelets.get(name)?.stop();
    await this.settle();
    return true;
  }

  /** The load balancers the service controller has ensured in the simulated cloud. */
  async loadBalancers(): Promise<SimulatedLoadBalancer[]> {
    await this.settle();
    return this.controllers.cloud.list();
  }

  /** Who wrote and read through the API server, and whether storage moved only by its writes (once at rest). */
  async apiAudit(): Promise<ApiAuditReport> {
    await this.settle();
    const audit = this.api.audit;
    const readsByUser = Object.fromEntries([...audit.readsByUser].map(([user, c]) => [user, { ...c }]));
    return {
      writesByUser: Object.fromEntries(audit.writesByUser),
      writesByUserResource: Object.fromEntries(
        [...audit.writesByUserResource].map(([user, m]) => [user, Object.fromEntries(m)]),
      ),
      readsByUser,
      apiServerStoreWrites: audit.storeWrites,
      storeRevisionDelta: this.store.revision() - this.initialRevision,
    };
  }

  /** Compacts storage up to now (once at rest); returns the revision compacted to. */
  async compactStorage(): Promise<number> {
    await this.settle();
    const revision = this.store.revision();
    await this.store.compact(revision);
    return revision;
  }

  /** The scheduler's decisions for a pod (NAMESPACE/NAME), oldest first, once at rest. */
  async schedulerDecisions(pod: string): Promise<SchedulingDecision[]> {
    await this.settle();
    return this.scheduler.decisions.filter((d) => d.pod === pod);
  }

  /** One connection through a node's kube-proxy: the backend it picks, or undefined when refused. */
  async route(
    node: string,
    ip: string,
    port: number,
    protocol = 'TCP',
  ): Promise<{ ip: string; port: number } | undefined> {
    const proxy = this.proxies.get(node);
    if (!proxy) throw new Error(`no kube-proxy runs on node "${node}"`);
    await this.settle();
    return proxy.route(ip, port, protocol);
  }

  kubelet(name: string): HollowKubelet {
    const k = this.kubelets.get(name);
    if (!k)
      throw new Error(`no kubelet runs for node "${name}" (known: ${[...this.kubelets.keys()].join(', ') || 'none'})`);
    return k;
  }

  private async bootstrapNamespaces(): Promise<void> {
    const names = ['default', 'kube-system', 'kube-public'];
    if (this.config.profile.features.nodeLease) names.push('kube-node-lease');
    for (const name of names) {
      try {
        await this.client.create<Namespace>(
          { resource: 'namespaces' },
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
        );
      } catch (e) {
        if (!isStatusError(e, 'AlreadyExists')) throw e;
      }
    }
  }
}

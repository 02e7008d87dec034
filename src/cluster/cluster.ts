import { Clock, Quiescence, RealClock, VirtualClock } from '../clock';
import { ApiServer } from '../apiserver/apiserver';
import { namespaceLifecycle } from '../apiserver/admission/namespace-lifecycle';
import { bindingHandler } from '../apiserver/subresources/binding';
import { evictionHandler } from '../apiserver/subresources/eviction';
import { coreRegistry } from '../api/resources';
import { MemoryStore, Store } from '../store';
import { Client } from '../client/client';
import { InProcessClient } from '../client/inprocess';
import { InformerFactory } from '../client/informer';
import { isStatusError } from '../api/errors';
import { Namespace } from '../api/core';
import { NodeLifecycleController } from '../controllers/nodelifecycle/controller';
import { HollowKubelet } from '../kubelet/kubelet';
import { NodeControllers } from './node-controllers';
import { Scheduler } from '../scheduler/scheduler';
import { schedulerOptions } from '../scheduler/options';
import { ensureBootstrapPolicy } from '../apiserver/auth/bootstrap-policy';
import { ClusterConfig, kubeletConfig, KubeletSpec, nodeLifecycleOptions } from './config';
import { ControllerManager } from './controller-manager';
import { HollowProxy } from '../kubeproxy/proxy';
import { electionIdentity, LeaderElector, ResourceLock } from '../controllers/leaderelection/elector';

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
  startTime?: number;
}

/** One control plane assembled from its parts: store, API server, controllers, kubelets. */
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
  readonly nodeLifecycle: NodeLifecycleController;
  readonly nodeControllers: NodeControllers;
  readonly scheduler: Scheduler;
  readonly kubelets = new Map<string, HollowKubelet>();
  readonly controllers: ControllerManager;
  /** One hollow kube-proxy per node, next to its kubelet. */
  readonly proxies = new Map<string, HollowProxy>();
  /** Called for every kubelet added (e.g. to serve its HTTPS API when the cluster serves HTTP). */
  readonly kubeletHooks: ((kubelet: HollowKubelet) => Promise<void>)[] = [];
  /** The controller manager's leader elector, with --leader-elect. */
  leaderElector?: LeaderElector;
  private started = false;

  constructor(readonly options: ClusterOptions) {
    this.quiescence = options.quiescence ?? new Quiescence();
    this.clock = options.clock === 'real' ? new RealClock() : new VirtualClock(options.startTime ?? VIRTUAL_EPOCH, this.quiescence);
    this.store = options.store ?? new MemoryStore(this.quiescence);
    this.initialRevision = this.store.revision();
    this.api = new ApiServer(coreRegistry({ jobRestartPolicyRequired: options.config.profile.features.jobRestartPolicyRequired }), this.store, this.clock);
    this.api.admission.use(namespaceLifecycle(this.api));
    this.api.handleSubresource('pods', 'binding', bindingHandler);
    this.api.handleSubresource('pods', 'eviction', evictionHandler);
    this.client = new InProcessClient(this.api, this.quiescence, { username: 'system:kube-controller-manager', groups: ['system:authenticated'] });
    this.informers = new InformerFactory(this.client);
    this.nodeLifecycle = new NodeLifecycleController(this.informers, this.client, this.clock, nodeLifecycleOptions(options.config));
    this.nodeControllers = new NodeControllers(this);
    const schedulerClient = this.clientFor('system:kube-scheduler');
    this.scheduler = new Scheduler(new InformerFactory(schedulerClient), schedulerClient, this.clock, this.quiescence, schedulerOptions(options.config));
    this.controllers = new ControllerManager(this);
  }

  get config(): ClusterConfig {
    return this.options.config;
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
    const kcm = this.config.flags['kube-controller-manager'];
    if (kcm['leader-elect']) {
      // kube-controller-manager runs its controllers only while it holds the lock; losing it
      // stops them (upstream: the process exits).
      await this.scheduler.start();
      this.leaderElector = new LeaderElector(this.clientFor('system:kube-controller-manager'), this.clock, {
        lock: (kcm['leader-elect-resource-lock'] ?? 'leases') as ResourceLock,
        name: 'kube-controller-manager',
        namespace: 'kube-system',
        identity: electionIdentity('kubespec-master'),
        leaseDurationMs: kcm['leader-elect-lease-duration'] ?? 15_000,
        renewDeadlineMs: kcm['leader-elect-renew-deadline'] ?? 10_000,
        retryPeriodMs: kcm['leader-elect-retry-period'] ?? 2_000,
      }, {
        onStartedLeading: () => { this.nodeControllers.run(); this.nodeLifecycle.run(); this.controllers.run(); },
        onStoppedLeading: () => { this.nodeControllers.stop(); this.nodeLifecycle.stop(); this.controllers.stopControllers(); },
      });
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
    this.nodeLifecycle.stop();
    this.nodeControllers.stop();
    this.scheduler.stop();
    this.leaderElector?.stop();
    this.controllers.stop();
    this.informers.stop();
    await this.store.close();
  }

  /** Waits until no component has work in flight. */
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
    const config = kubeletConfig(this.config, spec); // a bad spec fails before anything exists
    this.nodeControllers.cloud?.addMachine(spec.name);
    const kubelet = new HollowKubelet(config, this.clientFor(`system:node:${spec.name}`, ['system:nodes', 'system:authenticated']), this.clock);
    this.kubelets.set(spec.name, kubelet);
    let proxy: HollowProxy | undefined;
    try {
      await kubelet.start();
      proxy = new HollowProxy(spec.name, this.clientFor('system:kube-proxy', ['system:node-proxier', 'system:authenticated']));
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

  kubelet(name: string): HollowKubelet {
    const k = this.kubelets.get(name);
    if (!k) throw new Error(`no kubelet runs for node "${name}" (known: ${[...this.kubelets.keys()].join(', ') || 'none'})`);
    return k;
  }

  private async bootstrapNamespaces(): Promise<void> {
    const names = ['default', 'kube-system', 'kube-public'];
    if (this.config.profile.features.nodeLease) names.push('kube-node-lease');
    for (const name of names) {
      try {
        await this.client.create<Namespace>({ resource: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      } catch (e) {
        if (!isStatusError(e, 'AlreadyExists')) throw e;
      }
    }
  }
}

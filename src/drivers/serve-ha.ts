import { KubeObject } from '../api/meta';
import { isStatusError } from '../api/errors';
import { Client } from '../client/client';
import { KubeconfigClient } from '../client/kubeconfig';
import { Flags, Profile } from '../profile/profile';
import { clusterConfig } from '../profile/config';
import { leaderElectionSettings } from '../cluster/config';
import { EtcdServer } from '../store/etcd-process';
import { ApiServerMember, KubeletSpec } from './driver';
import { ServeDriver } from './serve';
import { TargetDeclaration } from './targets';

/** How long the first server may take to win the election on a fresh etcd (it is alone: its first attempt). */
const FIRST_LEADS_WITHIN_MS = 60_000;
const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

/**
 * The serve-ha target: for each scenario an etcd of its own (loopback, free ports, a
 * temporary data dir) and two `kubespec serve --clock real --leader-elect true` on it, an HA
 * pair of masters sharing one PKI (the run's data dir, as `kubeadm join --control-plane`
 * copies it). The first starts alone and wins the elections; the second then stands by. The
 * driver speaks to the first; the hollow kubelets live in the second's process, so that they
 * outlive the kill of the leader; after killLeader the driver speaks to the survivor.
 */
export class ServeHaDriver extends ServeDriver {
  private readonly second: ServeDriver;
  private readonly etcd: EtcdServer;
  private firstKilled = false;

  constructor(profile: Profile, declaration: TargetDeclaration, options: { profileArg: string }) {
    const etcd = new EtcdServer();
    let started: Promise<string[]> | undefined;
    // Both servers on the scenario's etcd, at its root (the keys as kube-apiserver lays them out).
    const storeArgs = () =>
      (started ??= etcd.start().then((endpoint) => ['--store', endpoint.replace(/^http:/, 'etcd:')]));
    const serve = {
      profileArg: options.profileArg,
      clock: 'real' as const,
      forcedFlags: { 'kube-controller-manager': { 'leader-elect': 'true' } },
      storeArgs,
    };
    super(profile, declaration, serve);
    this.etcd = etcd;
    this.second = new ServeDriver(profile, declaration, serve);
    this.capabilities = {
      ...this.capabilities,
      virtualTime: false,
      // kubectl and the kubelets' HTTPS API would reach a server the scenario may kill.
      http: false,
      kubeletApi: false,
      durableStorage: false,
      apiServerDefaults: false,
      apiServerPair: true,
    };
  }

  override configure(flags: Flags): void {
    super.configure(flags);
    this.second.configure(flags);
  }

  /** Starts the first server, waits until it leads, then starts the second (which stands by). */
  override async start(): Promise<void> {
    if (this.startedPair) return this.startedPair;
    this.startedPair = (async () => {
      await super.start();
      if (this.startError) return;
      try {
        const id = identities(this.serverOutput());
        await this.waitFor(
          'the first server to hold the controller manager lock',
          async () => (await this.holder(this.apiClient, 'kube-controller-manager')) === id.controllerManager,
          FIRST_LEADS_WITHIN_MS,
        );
        this.firstApi = this.apiClient;
        await this.second.start();
        if (this.second.startFailure) throw this.second.startFailure;
      } catch (e) {
        this.startError = e as Error;
      }
    })();
    return this.startedPair;
  }

  private startedPair?: Promise<void>;

  override async addKubelet(spec: KubeletSpec): Promise<void> {
    await this.start();
    return this.second.addKubelet(spec);
  }

  override async stopKubelet(name: string): Promise<number> {
    return this.second.stopKubelet(name);
  }

  override async startKubelet(name: string): Promise<void> {
    return this.second.startKubelet(name);
  }

  async apiServers(): Promise<ApiServerMember[]> {
    await this.start();
    if (this.startError) throw this.startError;
    const member = (name: string, d: ServeDriver, alive: boolean): ApiServerMember => {
      const id = identities(d.serverOutput());
      return {
        name,
        client: d === this ? this.firstApi! : d.apiClient,
        controllerManagerIdentity: id.controllerManager,
        schedulerIdentity: id.scheduler,
        alive,
        audit: () => d.apiAudit(),
      };
    };
    return [member('first', this, !this.firstKilled), member('second', this.second, true)];
  }

  /** The first server's own client, also after the driver's client moved to the survivor. */
  private firstApi?: KubeconfigClient;

  async killLeader(): Promise<number> {
    const [first, second] = await this.apiServers();
    const holder = await this.holder(this.apiClient, 'kube-controller-manager');
    if (holder === second.controllerManagerIdentity)
      throw new Error('the second server leads: the target kills only the first (the second hosts the kubelets)');
    if (holder !== first.controllerManagerIdentity)
      throw new Error(`the controller manager lock is held by ${holder ?? 'nobody'}, neither server of the pair`);
    const at = Date.now();
    await this.killServer();
    this.firstKilled = true;
    // From now on the driver speaks to the survivor, as a client with both servers in its
    // kubeconfig (or behind a load balancer) would.
    this.api = this.second.apiClient;
    return at;
  }

  /** The holder of a leader lock in kube-system, whichever kind --leader-elect-resource-lock names. */
  private async holder(c: Client, name: string): Promise<string | undefined> {
    // The profile's lock (the servers run with its --leader-elect-resource-lock), as config.ts reads it.
    const { lock } = leaderElectionSettings(clusterConfig(this.profile));
    const ref = {
      resource: lock === 'leases' ? 'leases.coordination.k8s.io' : lock,
      namespace: 'kube-system',
    };
    try {
      const obj = await c.get<KubeObject & { spec?: { holderIdentity?: string } }>(ref, name);
      if (lock === 'leases') return obj.spec?.holderIdentity;
      const raw = obj.metadata.annotations?.[LEADER_ANNOTATION];
      return raw ? (JSON.parse(raw) as { holderIdentity?: string }).holderIdentity : undefined;
    } catch (e) {
      if (isStatusError(e, 'NotFound')) return undefined;
      throw e;
    }
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.second.stop();
    await this.etcd.stop();
  }
}

/** The identities `kubespec serve --leader-elect true` prints: "leader election identity: X (scheduler: Y)". */
function identities(output: string): { controllerManager: string; scheduler: string } {
  const m = /^leader election identity: (\S+) \(scheduler: (\S+)\)$/m.exec(output);
  if (!m) throw new Error(`kubespec serve printed no leader election identity:\n${output.slice(-2000)}`);
  return { controllerManager: m[1], scheduler: m[2] };
}

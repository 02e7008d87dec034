import { Event } from '../api/core';
import { Client } from '../client/client';
import { withWriteHooks } from '../client/after-writes';
import { Cluster, NoCloudProviderError } from '../cluster/cluster';
import { clusterConfig } from '../profile/config';
import { KubeletSpec } from '../cluster/config';
import { Flags, mergeFlags, Profile } from '../profile/profile';
import { Capabilities, ClusterDriver, NotApplicableError } from './driver';
import { SchedulingDecision } from '../scheduler/decision';
import { ReferenceHttp, referenceRootCA } from './reference-http';

/**
 * The reference target: the control plane in this process, on a virtual clock. Each
 * scenario gets a fresh cluster; time moves only when a step says so.
 */
export class ReferenceDriver implements ClusterDriver {
  readonly target: string = 'reference';
  readonly capabilities: Capabilities = {
    virtualTime: true,
    configurableFlags: true,
    hollowKubelets: true,
    cloudProvider: true,
    schedulerDecisions: true,
    http: true,
    audit: true,
    exactEventTimes: true,
    kubeletApi: true,
    dedicatedCluster: true,
    apiServerDefaults: true,
  };
  readonly http = new ReferenceHttp(async () => {
    await this.start();
    return this.cluster;
  });
  private flags: Flags = {};
  private instance?: Cluster;
  private settling?: Client;
  private readonly handled: string[] = [];
  private stopListening?: () => void;
  /** See timeMoves. */
  private moves = 0;

  constructor(readonly profile: Profile) {}

  configure(flags: Flags): void {
    if (this.instance)
      throw new Error(
        'control-plane flags must be set before the cluster starts (put the Given steps that set them first)',
      );
    this.flags = mergeFlags(this.flags, flags);
  }

  /** The assembled cluster (for the reference's own diagnostics and benchmarks). */
  get cluster(): Cluster {
    if (!this.instance) throw new Error('the cluster has not started');
    return this.instance;
  }

  async start(): Promise<void> {
    if (this.instance) return;
    // Served over HTTPS on demand with the process's CA: that CA is the cluster's root CA from the start.
    const cluster = new Cluster({
      config: clusterConfig(this.profile, this.flags),
      clock: 'virtual',
      rootCA: referenceRootCA(),
    });
    // This cluster's failures only: another cluster in the process reports to its own.
    this.stopListening = cluster.background.onHandledError((e) =>
      this.handled.push(`${new Date(cluster.clock.now()).toISOString()} ${e.component}: ${e.message}`),
    );
    this.instance = cluster;
    await this.instance.start();
  }

  async stop(): Promise<void> {
    await this.http.stop();
    await this.instance?.stop();
    this.stopListening?.();
    this.stopListening = undefined;
  }

  /** What the components handed to the HandleError sink since this cluster started. */
  unexpectedErrors(): string[] {
    return [...this.handled];
  }

  async compactStorage(): Promise<void> {
    await this.cluster.compactStorage();
  }

  /** The admin client; each call returns once the cluster has reacted to it (at rest). */
  get client(): Client {
    if (!this.settling) {
      const admin = this.cluster.clientFor('kubernetes-admin', ['system:masters', 'system:authenticated']);
      this.settling = withWriteHooks(
        () => admin,
        () => this.cluster.settle(),
      );
    }
    return this.settling;
  }

  now(): number {
    return this.cluster.clock.now();
  }

  timeMoves(): number {
    return this.moves;
  }

  async advance(ms: number): Promise<void> {
    if (ms > 0) this.moves++;
    await this.cluster.advance(ms);
  }

  async waitFor(description: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    // Virtual time: check, then step to the next instant anything is due, up to the limit.
    const deadline = this.now() + timeoutMs;
    await this.cluster.settle();
    while (!(await check())) {
      if (this.now() >= deadline)
        throw new Error(`timed out after ${timeoutMs / 1000}s of cluster time waiting for ${description}`);
      this.moves++;
      await this.cluster.advance(Math.min(1000, deadline - this.now()));
    }
  }

  async addKubelet(spec: KubeletSpec): Promise<void> {
    await this.start();
    await this.cluster.addKubelet(spec);
  }

  async stopKubelet(name: string): Promise<number> {
    return this.cluster.silenceKubelet(name);
  }

  async startKubelet(name: string): Promise<void> {
    await this.cluster.kubelet(name).start();
    await this.cluster.settle();
  }

  async deleteMachine(name: string): Promise<void> {
    let deleted: boolean;
    try {
      deleted = await this.cluster.deleteMachine(name);
    } catch (e) {
      throw e instanceof NoCloudProviderError ? new NotApplicableError(e.message) : e;
    }
    if (!deleted) throw new Error(`the cloud has no machine "${name}"`);
  }

  async apiAudit() {
    return this.cluster.apiAudit();
  }

  async schedulerDecisions(pod: string): Promise<SchedulingDecision[]> {
    return this.cluster.schedulerDecisions(pod);
  }

  async route(node: string, clusterIP: string, port: number): Promise<{ ip: string; port: number } | undefined> {
    return this.cluster.route(node, clusterIP, port);
  }

  async loadBalancers() {
    return this.cluster.loadBalancers();
  }

  async authenticate(token: string) {
    return this.cluster.authenticate(token);
  }

  async events(filter: { involvedName?: string; reason?: string; namespace?: string } = {}): Promise<Event[]> {
    const list = await this.client.list<Event>({ resource: 'events', namespace: filter.namespace });
    return list.items.filter(
      (e) =>
        (!filter.involvedName || e.involvedObject.name === filter.involvedName) &&
        (!filter.reason || e.reason === filter.reason),
    );
  }
}

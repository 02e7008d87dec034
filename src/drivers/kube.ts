import { Event } from '../api/core';
import type { ApiAuditReport } from '../apiserver/audit';
import { isStatusError } from '../api/errors';
import { Client, ResourceRef } from '../client/client';
import { KubeconfigClient } from '../client/kubeconfig';
import { withWriteHooks } from '../client/after-writes';
import { reportTo } from '../client/background';
import { RealClock } from '../clock';
import { clusterConfig } from '../profile/config';
import { kubeletConfig, KubeletSpec, servingOptions, ServingOptions } from '../cluster/config';
import { Flags, mergeFlags, Profile } from '../profile/profile';
import { HollowKubelet } from '../kubelet/kubelet';
import { Capabilities, ClusterDriver, NotApplicableError } from './driver';
import { TargetDeclaration, unmetFlags } from './targets';
import { cleanRuns, removeLabelled } from './clean';
import type { SchedulingDecision } from '../scheduler/decision';
import { TimedWatches } from './timed-watches';
import { apiReviews, KubeletNetwork } from './kubelet-network';

/** The kubespec control endpoints a `kubespec serve` offers (absent on other servers). */
interface ClockAnswer {
  now: string;
  mode: 'virtual' | 'real';
}

/**
 * The kube target: any API server from a kubeconfig. Objects go over HTTP(S); time is the
 * server's virtual clock when it offers one (kubespec serve --clock virtual), else real;
 * hollow kubelets run in the server when it can host them, else here as API clients that
 * join the cluster as KWOK's do. Everything a scenario creates is removed afterwards, also
 * when it failed. Exact event times on a virtual clock are timed-watches.ts; the rest is kept
 * in one class, whose clock, kubelets, clean-up and observations share one connection's state.
 */
export class KubeDriver implements ClusterDriver {
  readonly target: string;
  capabilities: Capabilities;
  private clockMode: 'virtual' | 'real' = 'real';
  private serverKubelets = false;
  private readonly localKubelets = new Map<string, HollowKubelet>();
  private readonly remoteKubelets = new Set<string>();
  private readonly created: { ref: ResourceRef; name: string }[] = [];
  private readonly tracking: Client;
  private waitedMs = 0;
  /** See timeMoves. */
  private moves = 0;
  private started = false;
  private readonly realClock = new RealClock();

  /** The API server's client; set at construction, or by a subclass when it has started one. */
  protected api!: KubeconfigClient;
  /**
   * Where the target's API server reaches the hollow kubelets this driver runs (their HTTPS
   * API and their pods, through its egress proxy): set by a target that configured its API
   * server so (upstream), else they join as API clients only (capability kubeletApi off).
   */
  protected kubeletNetwork?: KubeletNetwork;
  /** Why the target could not be reached, when it could not (a subclass's server failed to start). */
  protected startError?: Error;

  private connected(): KubeconfigClient {
    if (!this.api) throw this.startError ?? new Error(`target ${this.target} is not connected`);
    return this.api;
  }

  constructor(
    readonly profile: Profile,
    readonly declaration: TargetDeclaration,
    api?: KubeconfigClient,
  ) {
    if (api) this.api = api;
    this.target = declaration.name;
    // As declared until start() asks the server itself (a clock endpoint means virtual time).
    this.capabilities = { ...declaration.capabilities, configurableFlags: declaration.configurableFlags, http: false };
    // Records what is created (for clean-up) and lets a virtual clock settle after each write.
    this.tracking = withWriteHooks(
      () => this.timedClient(),
      () => this.settle(),
      (ref, made) => this.created.push({ ref, name: made.metadata.name! }),
    );
  }

  /**
   * kube-apiserver's serving as the profile states its defaults, translated by config.ts: what
   * a target that starts its own API server gets where the scenario names no value (the
   * scenario's own values go to the server as their text).
   */
  protected profileServing(): ServingOptions {
    // The profile is the driver's for its life: its serving defaults are worked out once.
    this.servingDefaults ??= servingOptions(clusterConfig(this.profile));
    return this.servingDefaults;
  }

  private servingDefaults?: ServingOptions;

  configure(flags: Flags): void {
    if (this.declaration.configurableFlags)
      throw new Error(`target ${this.target} declares configurable flags, but the kube driver cannot set them`);
    // A flag the scenario does not state is the profile's default: a target declared with
    // another value (a real clock's 4 s grace period) cannot run a scenario that assumes it.
    const assumed: Flags = {};
    for (const [c, values] of Object.entries(this.declaration.flags) as [keyof Flags, Record<string, string>][]) {
      for (const flag of Object.keys(values ?? {})) {
        const dflt = this.profile.flags[c]?.[flag];
        if (dflt !== undefined && flags[c]?.[flag] === undefined) assumed[c] = { ...assumed[c], [flag]: dflt };
      }
    }
    const unmet = unmetFlags(this.declaration.flags, mergeFlags(assumed, flags));
    if (unmet.length > 0) throw new NotApplicableError(`target ${this.target} cannot run with ${unmet.join(', ')}`);
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    try {
      const clock = await this.api.request<ClockAnswer>('GET', '/kubespec/v1/clock');
      this.clockMode = clock.mode;
      this.kubespecServer = true;
      // A kubespec serve hosts hollow kubelets itself: on a virtual clock they must live there
      // to follow its time, and on the real clock its settle then covers them too. On any
      // other cluster they run here as API clients, the way KWOK's join.
      this.serverKubelets = true;
    } catch (e) {
      if (!isStatusError(e) || (e.code !== 404 && e.code !== 403)) throw e;
    }
    // A kubespec serve (it answered the clock) also tells the scheduler's decisions.
    // On a virtual clock, a server that tells when each revision was written (kubespec serve)
    // lets the watches place every change at its cluster time, exactly as in process.
    if (this.clockMode === 'virtual' && this.kubespecServer) {
      const timed = new TimedWatches(this.api);
      if (await timed.available()) this.timedWatches = timed;
    }
    this.capabilities = {
      ...this.capabilities,
      virtualTime: this.clockMode === 'virtual',
      exactEventTimes: this.clockMode === 'real' || this.timedWatches !== undefined,
      ...(this.kubespecServer ? { schedulerDecisions: true } : {}),
    };
    // On a shared kubespec serve the scenarios take turns, on either clock: the scheduler and
    // the node controller are the cluster's, so a pod of one scenario could land on another's
    // node (real clock), and time one scenario moves would break another's timing (virtual).
    if (this.cleanupOnStop && this.kubespecServer) await this.holdClock();
    if (this.clockMode === 'virtual' && this.cleanupOnStop) {
      // A fresh server starts on a whole minute; a shared one is wherever the last scenario
      // left it. Starting on the next whole minute gives every periodic component (heartbeats,
      // monitor passes, seconds-truncated timestamps) the phase it has on a fresh cluster.
      await this.refreshServerTime();
      const offset = this.now() % 60_000;
      if (offset !== 0) await this.advance(60_000 - offset);
    }
  }

  private kubespecServer = false;

  /** The scheduler's decisions for a pod, from a kubespec serve's /kubespec/v1/scheduler/decisions. */
  async schedulerDecisions(pod: string): Promise<SchedulingDecision[]> {
    const [namespace, name] = pod.split('/');
    const r = await this.api
      .request<{ items: SchedulingDecision[] }>('GET', '/kubespec/v1/scheduler/decisions', {
        query: { pod: `${namespace}/${name}` },
      })
      .catch((e) => {
        if (isStatusError(e) && (e.code === 404 || e.code === 403))
          throw new NotApplicableError(`target ${this.target} does not expose the scheduler's decisions`);
        throw e;
      });
    return r.items;
  }

  private clockHolder?: string;
  private clockRenewal?: NodeJS.Timeout;

  /**
   * On a shared kubespec serve a scenario holds the server's lock (/kubespec/v1/locks/clock)
   * from start to stop, so scenarios run in parallel take turns there (waiting in real time):
   * on a virtual clock, time another scenario moved in between would break its timing; on
   * either clock, the one scheduler could place a scenario's pod on another's node. The lock
   * is renewed while held.
   */
  private async holdClock(): Promise<void> {
    const holder = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
    const ttlSeconds = 120;
    const take = () => this.api.request('POST', '/kubespec/v1/locks/clock', { body: { holder, ttlSeconds } });
    const deadline = Date.now() + this.declaration.maxScenarioTimeMs * 4 + 10 * 60_000;
    for (;;) {
      try {
        await take();
        break;
      } catch (e) {
        if (isStatusError(e) && (e.code === 404 || e.code === 405)) return; // a server without locks
        // A proxy in between (kubectl proxy) answers 5xx "EOF" when its connection to the
        // server broke; taking the lock again with the same holder is harmless.
        const proxyHiccup = isStatusError(e) && e.code >= 500 && /\bEOF\b/.test(e.message);
        if (!isStatusError(e, 'Conflict') && !proxyHiccup) throw e;
        if (Date.now() > deadline)
          throw new Error(
            `the lock of ${this.target} (its scenarios take turns) stayed held by another scenario (${e.message})`,
          );
        await new Promise<void>((resolve) => setTimeout(resolve, 100));
      }
    }
    this.clockHolder = holder;
    // A failed renewal is told, and retried on the next tick (the lock lives 120 s, renewed
    // every 30 s). A Conflict means another holder has it: this scenario's timing is no
    // longer its own, which stop() then reports as the scenario's failure.
    this.clockRenewal = setInterval(
      () =>
        void take().catch((e) => {
          if (isStatusError(e, 'Conflict'))
            this.clockLost ??= new Error(
              `the lock of ${this.target} (its scenarios take turns) was taken by another scenario while this one held it (${e.message})`,
            );
          reportTo(`kube driver: renewing the clock lock of ${this.target}`)(e);
        }),
      30_000,
    );
    this.clockRenewal.unref();
  }

  /** Set when the clock lock was lost while the scenario ran (see holdClock). */
  private clockLost?: Error;

  private async releaseClock(): Promise<void> {
    if (!this.clockHolder) return;
    clearInterval(this.clockRenewal);
    const holder = this.clockHolder;
    this.clockHolder = undefined;
    // Already expired or taken over is fine (404 / 409); any other failure leaves the lock
    // held until it expires, which delays the next scenario: told, not thrown (the verdict stands).
    await this.api.request('DELETE', `/kubespec/v1/locks/clock/${encodeURIComponent(holder)}`).catch((e) => {
      if (isStatusError(e) && (e.code === 404 || e.code === 409)) return;
      reportTo(`kube driver: releasing the clock lock of ${this.target}`)(e);
    });
    const lost = this.clockLost;
    this.clockLost = undefined;
    if (lost) throw lost;
  }

  /** False when the whole cluster is thrown away after the scenario (nothing to clean). */
  protected cleanupOnStop = true;

  async stop(): Promise<void> {
    for (const k of this.localKubelets.values()) k.stop();
    // The proxy itself is the target's (its API server dials it, also for the next scenario).
    await this.kubeletNetwork?.stopKubelets();
    if (!this.api || !this.cleanupOnStop) return;
    // Remove what the scenario made, newest first; hollow kubelets the server hosts go for
    // good (else they would re-register their nodes); nodes last.
    const gone = (e: unknown) => {
      if (!isStatusError(e) || (e.code !== 404 && e.code !== 409)) throw e;
    };
    for (const { ref, name } of [...this.created].reverse()) {
      await this.api.delete(ref, name, { gracePeriodSeconds: 0 }).catch(gone);
    }
    for (const name of this.remoteKubelets) {
      await this.api.request('DELETE', `/kubespec/v1/kubelets/${encodeURIComponent(name)}`).catch(gone);
    }
    for (const name of [...this.localKubelets.keys(), ...this.remoteKubelets]) {
      await this.api.delete({ resource: 'nodes' }, name).catch(gone);
    }
    this.created.length = 0;
    this.remoteKubelets.clear();
    this.localKubelets.clear();
    try {
      if (this.cleanupSelector) await removeLabelled(this.api, this.cleanupSelector);
    } finally {
      await this.releaseClock();
    }
  }

  private cleanupSelector?: string;

  /** stop() also deletes whatever carries these labels (a shared cluster's scenario, see ScopedDriver). */
  removeAlsoLabelled(selector: string): void {
    this.cleanupSelector = selector;
  }

  /** Removes the leftovers of runs that were killed (their expiry label has passed). */
  async sweepExpired(): Promise<void> {
    await cleanRuns(this.connected());
  }

  get client(): Client {
    return this.tracking;
  }

  private serverNow?: number;
  /** Exact event times on a virtual clock over HTTP, when the server tells revision times. */
  private timedWatches?: TimedWatches;

  /** The API client; with revision times, its watches hand events over at their cluster times. */
  private timedClient(): Client {
    const api = this.connected();
    return this.timedWatches ? this.timedWatches.client() : api;
  }

  now(): number {
    const at = this.timedWatches?.eventTime;
    if (at !== undefined) return at;
    return this.clockMode === 'virtual' ? (this.serverNow ?? Date.now()) : Date.now();
  }

  /** On a virtual clock: advance by nothing, which returns once every component has settled. */
  private async settle(): Promise<void> {
    if (this.clockMode !== 'virtual') {
      // A kubespec serve on the real clock still says when its components have reacted.
      if (this.kubespecServer)
        await this.api.request('POST', '/kubespec/v1/settle', { body: {} }).catch((e) => {
          if (!isStatusError(e) || e.code !== 404) throw e;
        });
      return;
    }
    const r = await this.api.request<ClockAnswer>('POST', '/kubespec/v1/clock', { body: { advanceSeconds: 0 } });
    this.serverNow = Date.parse(r.now);
    await this.timedWatches?.sync();
  }

  private async refreshServerTime(): Promise<void> {
    if (this.clockMode !== 'virtual') return;
    const c = await this.api.request<ClockAnswer>('GET', '/kubespec/v1/clock');
    this.serverNow = Date.parse(c.now);
  }

  timeMoves(): number {
    return this.moves;
  }

  async advance(ms: number): Promise<void> {
    if (ms > 0) this.moves++;
    if (this.clockMode === 'virtual') {
      const r = await this.api.request<ClockAnswer>('POST', '/kubespec/v1/clock', {
        body: { advanceSeconds: ms / 1000 },
      });
      this.serverNow = Date.parse(r.now);
      await this.timedWatches?.sync();
      return;
    }
    this.waitedMs += ms;
    if (this.waitedMs > this.declaration.maxScenarioTimeMs) {
      throw new NotApplicableError(
        `needs more than the ${this.declaration.maxScenarioTimeMs / 1000} s of real time a scenario may take on ${this.target} (maxScenarioTime in its target declaration)`,
      );
    }
    await new Promise<void>((resolve) => this.realClock.setTimeout(resolve, ms));
  }

  async waitFor(description: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    await this.refreshServerTime();
    const deadline = this.now() + timeoutMs;
    if (this.clockMode === 'virtual') {
      while (!(await check())) {
        if (this.now() >= deadline)
          throw new Error(`timed out after ${timeoutMs / 1000}s of cluster time waiting for ${description}`);
        await this.advance(Math.min(1000, Math.max(1, deadline - this.now())));
      }
      return;
    }
    // Real time: re-check whenever a node or pod changes (a watch), or at the latest each second.
    let wake: () => void = () => undefined;
    const onChange = { onEvent: () => wake() };
    // The watches only wake the loop early; without one it still re-checks every second, so a
    // watch that fails to start or breaks is told (not thrown) and the wait goes on.
    const wakeUp = (resource: string) =>
      this.api
        .watch(
          { resource },
          {},
          {
            ...onChange,
            onClose: (e) => {
              if (e) reportTo(`kube driver: the ${resource} watch waking "${description}"`)(e);
            },
          },
        )
        .catch((e) => {
          reportTo(`kube driver: starting the ${resource} watch waking "${description}"`)(e);
          return undefined;
        });
    const watches = await Promise.all([wakeUp('nodes'), wakeUp('pods')]);
    // A check whose request failed for a reason that passes (a reset connection, 429, a
    // server-side timeout) is "not yet", as upstream's e2e polls judge (IsRetryableAPIError):
    // at load 44 a list of 1001 pods was cut off mid-answer (fourteenth and fifteenth full runs).
    let lastError: Error | undefined;
    const checked = async () => {
      try {
        return await check();
      } catch (e) {
        if (!retryableApiError(e)) throw e;
        lastError = e as Error;
        return false;
      }
    };
    try {
      while (!(await checked())) {
        this.moves++;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(
            `timed out after ${timeoutMs / 1000}s waiting for ${description}${lastError ? ` (the last check failed: ${lastError.message})` : ''}`,
          );
        await new Promise<void>((resolve) => {
          const timer = this.realClock.setTimeout(resolve, Math.min(1000, left));
          wake = () => {
            this.realClock.clear(timer);
            resolve();
          };
        });
      }
    } finally {
      for (const w of watches) w?.stop();
    }
  }

  async addKubelet(spec: KubeletSpec): Promise<void> {
    await this.start();
    this.connected(); // a server that did not start says why here
    if (this.serverKubelets) {
      await this.api.request('POST', '/kubespec/v1/kubelets', { body: { ...spec, nodeName: spec.name } });
      this.remoteKubelets.add(spec.name);
      await this.refreshServerTime();
      return;
    }
    const config = kubeletConfig(clusterConfig(this.profile, this.declaration.flags), spec);
    const kubelet = new HollowKubelet(config, this.kubeletClient(config.nodeName), this.realClock);
    this.localKubelets.set(spec.name, kubelet);
    // Its HTTPS API answers before its node registers, so the API server can dial it at once.
    await this.kubeletNetwork?.serve(kubelet);
    await kubelet.start();
  }

  /** The client a hollow kubelet run here acts through: the admin's, unless the target gives kubelets their own identity. */
  protected kubeletClient(_nodeName: string): Client {
    return this.api;
  }

  async stopKubelet(name: string): Promise<number> {
    if (this.remoteKubelets.has(name)) {
      const r = await this.api.request<{ lastHeartbeat?: string }>(
        'POST',
        `/kubespec/v1/kubelets/${encodeURIComponent(name)}/stop`,
        { body: {} },
      );
      await this.refreshServerTime();
      return r.lastHeartbeat ? Date.parse(r.lastHeartbeat) : this.now();
    }
    const k = this.localKubelets.get(name);
    if (!k) throw new Error(`no hollow kubelet for node "${name}" in this scenario`);
    return this.stopLocal([k]);
  }

  async stopKubelets(names: string[]): Promise<number[]> {
    const local = names.map((n) => this.localKubelets.get(n));
    // Kubelets a kubespec serve hosts keep its virtual clock: one at a time is together there.
    if (local.some((k) => !k)) {
      const times: number[] = [];
      for (const n of names) times.push(await this.stopKubelet(n));
      return times;
    }
    const at = await this.stopLocal(local as HollowKubelet[]);
    return names.map(() => at);
  }

  /** Every last status, then every last Lease renewal, then each stops; returns when they stopped. */
  private async stopLocal(kubelets: HollowKubelet[]): Promise<number> {
    await Promise.all(kubelets.map((k) => k.syncNodeStatus(true)));
    await Promise.all(kubelets.map((k) => (k.config.useLease ? k.renewLease() : undefined)));
    const at = Date.now();
    for (const k of kubelets) k.stop();
    return at;
  }

  async startKubelet(name: string): Promise<void> {
    if (this.remoteKubelets.has(name)) {
      await this.api.request('POST', `/kubespec/v1/kubelets/${encodeURIComponent(name)}/start`, { body: {} });
      await this.refreshServerTime();
      return;
    }
    const k = this.localKubelets.get(name);
    if (!k) throw new Error(`no hollow kubelet for node "${name}" in this scenario`);
    await k.start();
  }

  /** A kubespec endpoint, or NotApplicableError when the server does not offer it (any other cluster). */
  private async kubespec<T>(
    method: string,
    path: string,
    why: string,
    options: { query?: Record<string, string> } = {},
  ): Promise<T> {
    try {
      return await this.api.request<T>(method, path, options);
    } catch (e) {
      if (
        isStatusError(e) &&
        (e.code === 404 || e.code === 405 || e.code === 403) &&
        (e.status.details?.kind === 'kubespec' || !e.status.details?.kind || e.code !== 404)
      ) {
        throw new NotApplicableError(`target ${this.target} ${why}`);
      }
      throw e;
    }
  }

  async deleteMachine(name: string): Promise<void> {
    try {
      await this.kubespec(
        'DELETE',
        `/kubespec/v1/cloud/machines/${encodeURIComponent(name)}`,
        `has no cloud provider the suite can reach to delete machine "${name}"`,
      );
    } catch (e) {
      if (isStatusError(e, 'Conflict')) throw new NotApplicableError(e.message); // a server without a cloud provider
      if (isStatusError(e, 'NotFound')) throw new Error(`the cloud has no machine "${name}"`);
      throw e;
    }
    await this.refreshServerTime();
    await this.timedWatches?.sync();
  }

  async route(node: string, clusterIP: string, port: number): Promise<{ ip: string; port: number } | undefined> {
    try {
      const r = await this.kubespec<{ backend: { ip: string; port: number } | null }>(
        'GET',
        `/kubespec/v1/proxies/${encodeURIComponent(node)}/route`,
        `offers no way to send a connection to ${clusterIP}:${port} through the kube-proxy of node "${node}"`,
        { query: { ip: clusterIP, port: String(port) } },
      );
      return r.backend ?? undefined;
    } catch (e) {
      if (isStatusError(e, 'NotFound')) throw new Error(`no kube-proxy runs on node "${node}"`);
      throw e;
    }
  }

  async loadBalancers(): Promise<
    { name: string; service: string; nodes: string[]; ingress: { ip?: string; hostname?: string }[] }[]
  > {
    const r = await this.kubespec<{
      items: { name: string; service: string; nodes: string[]; ingress: { ip?: string; hostname?: string }[] }[];
    }>('GET', '/kubespec/v1/cloud/loadbalancers', 'has no cloud provider the suite can inspect for load balancers');
    return r.items;
  }

  /** The API server's audit, from a kubespec serve (GET /kubespec/v1/audit). */
  async apiAudit(): Promise<ApiAuditReport> {
    return this.kubespec('GET', '/kubespec/v1/audit', "does not expose its API server's audit");
  }

  /** Compacts the server's storage up to now (POST /kubespec/v1/storage/compact). */
  async compactStorage(): Promise<void> {
    await this.kubespec('POST', '/kubespec/v1/storage/compact', 'cannot be told to compact its storage');
  }

  /** Asks the API server through a TokenReview, as any component checking a token would. */
  async authenticate(token: string): Promise<{ username: string; groups: string[] } | undefined> {
    const user = await apiReviews(() => this.api)
      .reviewToken(token)
      .catch((e) => {
        if (isStatusError(e) && e.code === 404)
          throw new NotApplicableError(`target ${this.target} serves no TokenReview API`);
        throw e;
      });
    return user && { username: user.username, groups: user.groups };
  }

  async events(filter: { involvedName?: string; reason?: string; namespace?: string } = {}): Promise<Event[]> {
    const fields = [
      filter.involvedName ? `involvedObject.name=${filter.involvedName}` : '',
      filter.reason ? `reason=${filter.reason}` : '',
    ]
      .filter(Boolean)
      .join(',');
    const list = await this.api.list<Event>(
      { resource: 'events', namespace: filter.namespace },
      fields ? { fieldSelector: fields } : {},
    );
    return list.items;
  }
}

/**
 * What upstream's e2e polls retry (test/utils IsRetryableAPIError, with utilnet's
 * IsConnectionReset and IsProbableEOF): an overloaded server's 429, a request timed out on the
 * server (504 Timeout, 500 ServerTimeout), a connection reset or cut before the answer ended.
 */
export function retryableApiError(e: unknown): boolean {
  if (isStatusError(e)) return ['TooManyRequests', 'Timeout', 'ServerTimeout'].includes(e.status.reason ?? '');
  const code = (e as { code?: string } | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

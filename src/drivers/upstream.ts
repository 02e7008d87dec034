import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { coreRegistry } from '../api/resources';
import { KubeconfigClient } from '../client/kubeconfig';
import { Flags, mergeFlags, Profile } from '../profile/profile';
import { tokenKubeconfig } from '../cluster/serving';
import { freePort, portFree } from '../util/ports';
import { WatchedProcess } from '../util/process';
import { KubeDriver } from './kube';
import { Capabilities, Credentials, HttpAccess, HttpEndpoint, NotApplicableError } from './driver';
import { TargetDeclaration } from './targets';
import { answers200, Binary, missingBinaries, startComponent, upstreamBinDir } from './upstream/components';
import { cloudControllerManagerBuilt, CloudLoadBalancer, UpstreamCloud } from './upstream/cloud';
import { translateFlags, UpstreamCommand } from './upstream/flags';
import { upstreamPki, UpstreamPki } from './upstream/pki';

export { missingBinaries, upstreamBinDir };

const START_TIMEOUT_MS = 120_000;

export interface UpstreamOptions {
  /** Where the four binaries are (default: upstreamBinDir()). */
  binDir?: string;
  /** Only etcd and kube-apiserver (for the benchmark, which starts the scheduler itself). */
  apiServerOnly?: boolean;
}

/**
 * The upstream target: for each scenario a fresh control plane of upstream Kubernetes v1.32
 * built from its Go modules (npm run upstream:build) — etcd, kube-apiserver,
 * kube-controller-manager and kube-scheduler on free loopback ports, with the scenario's
 * flags translated to theirs — judged through the kube driver over HTTPS. Hollow kubelets
 * join it on the real clock as API clients, as KWOK's do. Everything is stopped afterwards.
 */
export class UpstreamDriver extends KubeDriver {
  private flags: Flags = {};
  private readonly procs: WatchedProcess[] = [];
  private workDir?: string;
  private endpoint?: HttpEndpoint;
  private kubeconfigs = 0;
  private launched = false;
  private server?: string;
  private readonly binDir: string;
  protected override cleanupOnStop = false;
  readonly http: HttpAccess;

  constructor(
    profile: Profile,
    declaration: TargetDeclaration,
    private readonly options: UpstreamOptions = {},
  ) {
    // Its own copy: configure() records the scenario's flags in it, which the kube driver's
    // hollow kubelets read (their heartbeat frequencies, lease duration).
    super(profile, { ...declaration, flags: { ...declaration.flags } });
    this.binDir = options.binDir ?? upstreamBinDir();
    this.capabilities = {
      ...this.capabilities,
      http: true,
      cloudProvider: this.capabilities.cloudProvider && cloudControllerManagerBuilt(this.binDir),
    };
    this.http = this.httpAccess();
  }

  private httpAccess(): HttpAccess {
    const access: HttpAccess = {
      files: { kubeletCA: path.join(os.tmpdir(), `kubespec-upstream-kubelet-ca-${process.pid}.crt`) },
      serve: async () => {
        await this.start();
        if (this.startError) throw this.startError;
        return this.endpoint!;
      },
      kubeconfig: async (credentials: Credentials) => {
        const e = await access.serve();
        let text: string;
        if ('admin' in credentials) text = this.pki().kubeconfig(e.server, 'kubespec-admin', ['system:masters']);
        else if ('insecurePort' in credentials)
          throw new NotApplicableError(
            'kube-apiserver v1.32 has no insecure port (--insecure-port was removed in v1.24)',
          );
        else if ('user' in credentials) text = this.pki().kubeconfig(e.server, credentials.user, credentials.groups);
        else if ('basic' in credentials)
          throw new NotApplicableError(
            'kube-apiserver v1.32 has no HTTP basic auth (--basic-auth-file was removed in v1.19)',
          );
        else
          text = tokenKubeconfig(
            this.pki().ca.certPem,
            e.server,
            'token' in credentials ? credentials.token : undefined,
          );
        const file = path.join(this.workDir!, `kubeconfig-${++this.kubeconfigs}`);
        fs.writeFileSync(file, text, { mode: 0o600 });
        return file;
      },
    };
    return access;
  }

  private pki(): UpstreamPki {
    return upstreamPki();
  }

  /**
   * The scenario's flags, merged over the profile's; a flag upstream v1.32 no longer has (or
   * a value it cannot take on loopback) makes the scenario not applicable, with the reason.
   */
  override configure(flags: Flags): void {
    this.flags = mergeFlags(this.flags, flags);
    const all = mergeFlags(this.profile.flags, this.flags);
    this.declaration.flags = all;
    this.translate(all); // throws NotApplicableError early, before anything starts
  }

  /** Upstream command lines for the merged flags (ports and files are filled in at start). */
  private translate(all: Flags): UpstreamCommand {
    return translateFlags(all, this.flags);
  }

  /** Starts the control plane; one that refuses to start is remembered, not thrown (scenarios may expect it). */
  override async start(): Promise<void> {
    if (this.launched) return;
    this.launched = true;
    try {
      await this.launch();
    } catch (e) {
      this.startError =
        e instanceof NotApplicableError
          ? e
          : new Error(`upstream control plane did not start: ${(e as Error).message}`);
      await this.stopProcesses();
      if (e instanceof NotApplicableError) throw e;
    }
  }

  private spawn(name: Binary, args: string[]): WatchedProcess {
    const proc = startComponent(this.binDir, this.workDir!, name, args);
    this.procs.push(proc);
    return proc;
  }

  /** A kubeconfig for a component, with a client certificate for user. */
  private kubeconfig(name: string, user: string): string {
    const file = path.join(this.workDir!, `${name}.kubeconfig`);
    fs.writeFileSync(file, this.pki().kubeconfig(this.server!, user, []), { mode: 0o600 });
    return file;
  }

  /**
   * Starts a component on a free port, again on another one when something on this shared
   * machine took the port between freePort() and the component's bind (seen for
   * kube-controller-manager in a run beside other runs: "bind: address already in use").
   */
  private async onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      const before = this.procs.length;
      try {
        return await start(await freePort());
      } catch (e) {
        if (!/address already in use/.test((e as Error).message) || Date.now() > deadline) throw e;
        this.procs.splice(before); // the component that could not bind has exited
      }
    }
  }

  /**
   * Starts kube-scheduler on a free port (with a profile for schedulerName when given) and
   * waits for its /healthz. Part of start(); the benchmark calls it once its pods are pending.
   * `qps` lifts client-go's default client rate (50/s, burst 100), which otherwise caps
   * bindings at about 50 pods/s; scheduler_perf lifts it the same way.
   */
  async startScheduler(schedulerName?: string, qps?: number): Promise<void> {
    const work = this.workDir!;
    const schedConfig = this.kubeconfig('kube-scheduler', 'system:kube-scheduler');
    const configFile = path.join(work, 'kube-scheduler.yaml');
    fs.writeFileSync(
      configFile,
      [
        'apiVersion: kubescheduler.config.k8s.io/v1',
        'kind: KubeSchedulerConfiguration',
        `clientConnection: { kubeconfig: ${JSON.stringify(schedConfig)}${qps ? `, qps: ${qps}, burst: ${qps}` : ''} }`,
        'leaderElection: { leaderElect: false }',
        ...(schedulerName ? [`profiles: [ { schedulerName: ${JSON.stringify(schedulerName)} } ]`] : []),
        '',
      ].join('\n'),
    );
    await this.onFreePort(async (schedPort) => {
      const scheduler = this.spawn('kube-scheduler', [
        `--config=${configFile}`,
        `--authentication-kubeconfig=${schedConfig}`,
        `--authorization-kubeconfig=${schedConfig}`,
        '--bind-address=127.0.0.1',
        `--secure-port=${schedPort}`,
        `--cert-dir=${path.join(work, 'scheduler-certs')}`,
      ]);
      await scheduler.waitUntil(
        'kube-scheduler /healthz',
        () => answers200(`https://127.0.0.1:${schedPort}/healthz`, { rejectUnauthorized: false }),
        START_TIMEOUT_MS,
      );
    });
  }

  private async launch(): Promise<void> {
    const cmd = this.translate(mergeFlags(this.profile.flags, this.flags));
    const missing = missingBinaries(this.binDir);
    if (missing.length)
      throw new Error(
        `the upstream binaries are not built (no ${missing.join(', ')} in ${this.binDir}): run \`npm run upstream:build\``,
      );
    const pki = this.pki();
    this.workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-upstream-'));
    const work = this.workDir;
    const [etcdClient, etcdPeer] = await Promise.all([freePort(), freePort()]);
    // The secure port the scenario itself names (the kubernetes Service's targetPort shows it),
    // else any free one: the profile's default 6443 is not asked for, or every scenario of a
    // parallel run would compete for it and the one that names it could lose (found in the
    // second full run). Scenarios judging that default need @needs-api-server-defaults.
    const wanted = Number(this.flags['kube-apiserver']?.['secure-port'] ?? 0);
    const deadline = Date.now() + START_TIMEOUT_MS;
    const claim = async (): Promise<number> => {
      // Another scenario of this run may hold it for a while: wait for it, never settle for another.
      while (!(await portFree(wanted))) {
        if (Date.now() > deadline)
          throw new Error(
            `--secure-port=${wanted}, which the scenario names, stayed in use for ${START_TIMEOUT_MS / 1000} s (another process on this machine holds it)`,
          );
        await new Promise((r) => setTimeout(r, 500));
      }
      return wanted;
    };
    let apiPort = wanted > 0 ? await claim() : await freePort();

    // etcd: one member, no fsync (a scratch store per scenario).
    const etcd = this.spawn('etcd', [
      '--name=kubespec',
      `--data-dir=${path.join(work, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=kubespec=http://127.0.0.1:${etcdPeer}`,
      '--unsafe-no-fsync',
      '--log-level=warn',
    ]);
    await etcd.waitUntil('etcd', () => answers200(`http://127.0.0.1:${etcdClient}/health`), START_TIMEOUT_MS);

    const startApiServer = async (apiPort: number) => {
      const server = `https://127.0.0.1:${apiPort}`;
      const apiserver = this.spawn('kube-apiserver', [
        `--etcd-servers=http://127.0.0.1:${etcdClient}`,
        '--bind-address=127.0.0.1',
        `--secure-port=${apiPort}`,
        `--cert-dir=${path.join(work, 'apiserver-certs')}`,
        `--tls-cert-file=${pki.file('apiserver.crt')}`,
        `--tls-private-key-file=${pki.file('apiserver.key')}`,
        `--client-ca-file=${pki.file('ca.crt')}`,
        `--service-account-key-file=${pki.file('sa.pub')}`,
        `--service-account-signing-key-file=${pki.file('sa.key')}`,
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        '--allow-privileged=true',
        // Node,RBAC unless the scenario names its modes (a list flag: repeating it appends).
        ...(cmd.apiserver.some((a) => a.startsWith('--authorization-mode=')) ? [] : ['--authorization-mode=Node,RBAC']),
        ...cmd.apiserver,
      ]);
      const adminPair = pki.client('kubespec-admin', ['system:masters']);
      const tls: https.RequestOptions = { ca: pki.ca.certPem, cert: adminPair.certPem, key: adminPair.keyPem };
      await apiserver.waitUntil('kube-apiserver /readyz', () => answers200(`${server}/readyz`, tls), START_TIMEOUT_MS);
      return server;
    };
    let server: string;
    for (;;) {
      try {
        server = await startApiServer(apiPort);
        break;
      } catch (e) {
        // Something took the port between the check and the bind: a free one, or the named one once free again.
        if (!/address already in use/.test((e as Error).message) || Date.now() > deadline) throw e;
        this.procs.pop();
        apiPort = wanted > 0 ? await claim() : await freePort();
      }
    }

    this.server = server;
    const adminFile = path.join(work, 'admin.kubeconfig');
    fs.writeFileSync(adminFile, pki.kubeconfig(server, 'kubespec-admin', ['system:masters']), { mode: 0o600 });
    this.api = KubeconfigClient.fromFile(adminFile, coreRegistry({ endpointSlices: true }));
    this.endpoint = { server, secure: { host: '127.0.0.1', port: apiPort }, caFile: pki.file('ca.crt') };
    if (this.options.apiServerOnly) {
      await super.start();
      return;
    }
    const kcmConfig = this.kubeconfig('kube-controller-manager', 'system:kube-controller-manager');
    const kcm = await this.onFreePort(async (kcmPort) => {
      const proc = this.spawn('kube-controller-manager', [
        `--kubeconfig=${kcmConfig}`,
        `--authentication-kubeconfig=${kcmConfig}`,
        `--authorization-kubeconfig=${kcmConfig}`,
        ...(cmd.kcm.some((a) => a.startsWith('--leader-elect=')) ? [] : ['--leader-elect=false']),
        '--bind-address=127.0.0.1',
        `--secure-port=${kcmPort}`,
        `--cert-dir=${path.join(work, 'kcm-certs')}`,
        '--use-service-account-credentials=true',
        `--service-account-private-key-file=${pki.file('sa.key')}`,
        `--root-ca-file=${pki.file('ca.crt')}`,
        `--cluster-signing-cert-file=${pki.file('ca.crt')}`,
        `--cluster-signing-key-file=${pki.file('ca.key')}`,
        ...(this.namesCloud(cmd) ? ['--cloud-provider=external'] : []),
        ...cmd.kcm,
      ]);
      // /healthz is always allowed; their serving certificates are self-signed.
      await proc.waitUntil(
        'kube-controller-manager /healthz',
        () => answers200(`https://127.0.0.1:${kcmPort}/healthz`, { rejectUnauthorized: false }),
        START_TIMEOUT_MS,
      );
      return proc;
    });
    if (this.namesCloud(cmd)) await this.startCloud(kcmConfig);
    await this.startScheduler(cmd.schedulerName);

    // The controllers run once the service-account controller has made the default account.
    await kcm.waitUntil(
      'the controller manager (default/default ServiceAccount)',
      async () => {
        try {
          await this.api.get({ resource: 'serviceaccounts', namespace: 'default' }, 'default');
          return true;
        } catch (e) {
          return (e as Error).message; // not made yet
        }
      },
      START_TIMEOUT_MS,
    );
    await super.start();
  }

  /** A control plane that did not start fails the step that needs it, with the reason. */
  override async addKubelet(spec: Parameters<KubeDriver['addKubelet']>[0]): Promise<void> {
    await this.start();
    if (this.startError) throw this.startError;
    if (!this.cloud) return super.addKubelet(spec);
    // On a cloud each kubelet has its machine, and registers as --cloud-provider=external does.
    await this.cloud.addMachine(spec.name);
    await super.addKubelet({ ...spec, flags: { ...spec.flags, 'cloud-provider': 'external' } });
  }

  // ── the cloud (upstream/cloud.ts) ────────────────────────────────────────────────────────

  private cloud?: UpstreamCloud;
  private cloudAsked = false;

  /** @needs-cloud-provider gives the scenario a cloud even when its flags name none (the service controller's). */
  need(capabilities: readonly (keyof Capabilities)[]): void {
    if (capabilities.includes('cloudProvider')) this.cloudAsked = true;
  }

  private namesCloud(cmd: UpstreamCommand): boolean {
    return !!cmd.cloud || this.cloudAsked;
  }

  /** Our cloud-controller-manager, with kube-controller-manager's identity and node monitor period. */
  private async startCloud(kubeconfig: string): Promise<void> {
    const kcm = mergeFlags(this.profile.flags, this.flags)['kube-controller-manager'] ?? {};
    this.cloud = await this.onFreePort((port) =>
      UpstreamCloud.start({
        workDir: this.workDir!,
        spawn: (name, args) => this.spawn(name, args),
        port,
        kubeconfig,
        nodeMonitorPeriod: kcm['node-monitor-period'],
        clusterName: kcm['cluster-name'],
        timeoutMs: START_TIMEOUT_MS,
      }),
    );
  }

  /** The cloud of a scenario that names one, else not applicable (as on the reference without a provider). */
  private scenarioCloud(what: string): UpstreamCloud {
    if (this.startError) throw this.startError;
    if (!this.cloud)
      throw new NotApplicableError(
        `upstream: ${what} needs a cloud provider, and this scenario names none (--cloud-provider or @needs-cloud-provider)`,
      );
    return this.cloud;
  }

  /** The machine goes from the cloud, and its kubelet stops with it. */
  override async deleteMachine(name: string): Promise<void> {
    await this.start();
    await this.scenarioCloud(`deleting machine "${name}"`).deleteMachine(name);
    await this.stopKubelet(name);
  }

  override async loadBalancers(): Promise<CloudLoadBalancer[]> {
    await this.start();
    return this.scenarioCloud('listing load balancers').loadBalancers();
  }

  /** A component that died mid-scenario fails it, with its log's tail. */
  private checkAlive(): void {
    const dead = this.procs.find((p) => p.exited);
    if (dead) throw new Error(`${dead.exited}\n${dead.tail()}`);
  }

  override async advance(ms: number): Promise<void> {
    await super.advance(ms);
    this.checkAlive();
  }

  override async waitFor(description: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    try {
      await super.waitFor(description, check, timeoutMs);
    } finally {
      this.checkAlive();
    }
  }

  private async stopProcesses(): Promise<void> {
    // Reverse order: the clients first, etcd last.
    for (const p of [...this.procs].reverse()) await p.stop();
  }

  override async stop(): Promise<void> {
    const dead = this.procs.find((p) => p.exited);
    const tail = dead ? `${dead.exited}\n${dead.tail()}` : undefined;
    try {
      await super.stop();
    } finally {
      await this.stopProcesses();
      if (this.workDir && !process.env.KUBESPEC_UPSTREAM_KEEP)
        fs.rmSync(this.workDir, { recursive: true, force: true });
    }
    if (tail && !this.startError) throw new Error(tail);
  }
}

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
import { Credentials, HttpAccess, HttpEndpoint, NotApplicableError } from './driver';
import { TargetDeclaration } from './targets';
import { answers200, Binary, missingBinaries, startComponent, upstreamBinDir } from './upstream/components';
import { translateFlags, UpstreamCommand } from './upstream/flags';
import {
  apiServerArgs,
  controllerManagerArgs,
  etcdArgs,
  schedulerArgs,
  schedulerConfigYaml,
} from './upstream/commands';
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
    this.capabilities = { ...this.capabilities, http: true };
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
   * waits for its /healthz. Part of start(); the benchmark calls it once its pods are pending
   * (with `qps`, see schedulerConfigYaml).
   */
  async startScheduler(schedulerName?: string, qps?: number): Promise<void> {
    const work = this.workDir!;
    const schedConfig = this.kubeconfig('kube-scheduler', 'system:kube-scheduler');
    const configFile = path.join(work, 'kube-scheduler.yaml');
    fs.writeFileSync(configFile, schedulerConfigYaml(schedConfig, schedulerName, qps));
    await this.onFreePort(async (schedPort) => {
      const scheduler = this.spawn(
        'kube-scheduler',
        schedulerArgs({
          config: configFile,
          kubeconfig: schedConfig,
          port: schedPort,
          certDir: path.join(work, 'scheduler-certs'),
        }),
      );
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

    const pkiFile = (name: string) => pki.file(name);
    const etcd = this.spawn('etcd', etcdArgs(path.join(work, 'etcd'), etcdClient, etcdPeer));
    await etcd.waitUntil('etcd', () => answers200(`http://127.0.0.1:${etcdClient}/health`), START_TIMEOUT_MS);

    const startApiServer = async (apiPort: number) => {
      const server = `https://127.0.0.1:${apiPort}`;
      const apiserver = this.spawn(
        'kube-apiserver',
        apiServerArgs(
          { etcdClientPort: etcdClient, port: apiPort, certDir: path.join(work, 'apiserver-certs'), pki: pkiFile },
          cmd,
        ),
      );
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
      const proc = this.spawn(
        'kube-controller-manager',
        controllerManagerArgs(
          { kubeconfig: kcmConfig, port: kcmPort, certDir: path.join(work, 'kcm-certs'), pki: pkiFile },
          cmd,
        ),
      );
      // /healthz is always allowed; their serving certificates are self-signed.
      await proc.waitUntil(
        'kube-controller-manager /healthz',
        () => answers200(`https://127.0.0.1:${kcmPort}/healthz`, { rejectUnauthorized: false }),
        START_TIMEOUT_MS,
      );
      return proc;
    });
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
    await super.addKubelet(spec);
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

import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { coreRegistry } from '../api/resources';
import { KubeconfigClient } from '../client/kubeconfig';
import { Flags, mergeFlags, Profile } from '../profile/profile';
import { clusterConfig } from '../profile/config';
import { leaderElectionSettings } from '../cluster/config';
import { tokenKubeconfig } from '../cluster/serving';
import { isStatusError } from '../api/errors';
import { freePort, portFree } from '../util/ports';
import { RealClock } from '../clock';
import { reportTo } from '../client/background';
import { KubeDriver } from './kube';
import type { Client } from '../client/client';
import type { ApiAuditReport } from '../apiserver/audit';
import { waitServing } from './upstream/restart';
import { listeningAddress } from './upstream/listen';
import { apiReviews, egressSelectorConfiguration, KubeletNetwork } from './kubelet-network';
import {
  ApiServerMember,
  Capabilities,
  Credentials,
  HttpAccess,
  HttpEndpoint,
  NotApplicableError,
  type RequestRef,
} from './driver';
import { TargetDeclaration } from './targets';
import {
  answers200,
  answers200AsItself,
  Binary,
  Component,
  ComponentRunner,
  missingBinaries,
  processRunner,
  upstreamBinDir,
} from './upstream/components';
import { CloudLoadBalancer, UpstreamCloud } from './upstream/cloud';
import { translateFlags, UpstreamCommand } from './upstream/flags';
import {
  apiServerArgs,
  controllerManagerArgs,
  etcdArgs,
  schedulerArgs,
  schedulerConfigYaml,
  SchedulerElection,
  TARGET_AUTHORIZATION_MODE,
} from './upstream/commands';
import { upstreamPki, UpstreamPki } from './upstream/pki';
import * as pool from './upstream/pool';
import {
  auditFlags,
  auditOffset,
  lockIdentities,
  ObjectsAt,
  objectStates,
  readAudit,
  requestTimes,
} from './upstream/audit';
import { EtcdAccess } from './upstream/storage';
import { decisionsFromLog } from './upstream/scheduler-log';
import type { SchedulingDecision } from '../scheduler/decision';

export { missingBinaries, upstreamBinDir };

const START_TIMEOUT_MS = 120_000;
/**
 * How long a scenario waits for the secure port it must have (6443, or the one it names). Five
 * scenarios of a full run ask for 6443 and hold it about 80 s each, longer under load: the last
 * of them waited past 120 s (authz-default.feature:22, seventeenth run).
 */
const PORT_WAIT_MS = 600_000;
/** The admin's client certificate: CN kubernetes-admin, O system:masters, as kubeadm and every other target name it. */
const ADMIN = 'kubernetes-admin';

/**
 * How many connections a hollow kubelet opens to kube-apiserver at most. Upstream's kubelet
 * multiplexes its requests on one HTTP/2 connection (client-go); node's client speaks
 * HTTP/1.1, one request per connection at a time, so a kubelet given 101 pods at once opened
 * some 400 connections (status writes and their events), each a TLS handshake with a client
 * certificate. At load 46 kube-apiserver dropped them before the handshake ended ("Client
 * network socket disconnected before secure TLS connection was established", "socket hang
 * up"); each pod's sync failed, was retried 10 s later with the others, and 10 minutes later
 * 30 of the 101 were Ready (endpointslices.feature:70, twenty-second full run).
 */
const KUBELET_CONNECTIONS = 8;

/** One master of the control plane: its API server's URL and the directory of its files and logs. */
interface Master {
  server: string;
  dir: string;
}

/** The second master of an HA pair, and the first's processes (which killLeader ends). */
interface Pair {
  second: Master & { api: KubeconfigClient; endpoint: HttpEndpoint };
  first: { api: KubeconfigClient; procs: Component[]; killed: boolean };
}

export interface UpstreamOptions {
  /** Where the four binaries are (default: upstreamBinDir()), for the default runner (processes on this machine). */
  binDir?: string;
  /** Where the components run (default: processes on this machine; the container target: containers of upstream/image/). */
  runner?: ComponentRunner;
  /** Only etcd and kube-apiserver (for the benchmark, which starts the scheduler itself). */
  apiServerOnly?: boolean;
}

/**
 * The upstream target: for each scenario a fresh control plane of upstream Kubernetes v1.32
 * built from its Go modules (npm run upstream:build) — etcd, kube-apiserver,
 * kube-controller-manager and kube-scheduler on free loopback ports, with the scenario's
 * flags translated to theirs — judged through the kube driver over HTTPS. Hollow kubelets
 * join it on the real clock as API clients, as KWOK's do, and serve the kubelet API: the API
 * server reaches them (logs, exec, attach, port-forward, node, pod and service proxies)
 * through an egress proxy, as a konnectivity-proxied cluster reaches its nodes
 * (kubelet-network.ts). Everything is stopped afterwards. The components are processes of
 * this machine, or — the container target — each a container of upstream/image/ (the
 * ComponentRunner, upstream/components.ts; container/components.ts).
 */
export class UpstreamDriver extends KubeDriver {
  private flags: Flags = {};
  private readonly procs: Component[] = [];
  private workDir?: string;
  private endpoint?: HttpEndpoint;
  private kubeconfigs = 0;
  private launched = false;
  private server?: string;
  /** Reuse: the API server this scenario got from the pool or will give back (see upstream/pool.ts). */
  private reuse = {
    allowed: false, // set in the constructor: the runner says whether its components may outlive a scenario
    key: '',
    baseline: undefined as pool.Baseline | undefined,
    served: 0,
  };
  private etcdClientUrl?: string;
  private readonly runner: ComponentRunner;
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
    this.runner = options.runner ?? processRunner(options.binDir);
    this.reuse.allowed = pool.poolSize() > 0 && this.runner.reusable;
    this.capabilities = {
      ...this.capabilities,
      http: true,
      kubeletApi: true,
      // Its scoring, from kube-scheduler's own log (./upstream/scheduler-log.ts).
      schedulerDecisions: true,
      cloudProvider: this.capabilities.cloudProvider && this.runner.cloudControllerManager,
      apiServerPair: !!this.capabilities.apiServerPair && this.runner.apiServerPair,
    };
    this.http = this.httpAccess();
  }

  private httpAccess(): HttpAccess {
    const pki = () => this.pki();
    const access: HttpAccess = {
      files: {
        get kubeletCA() {
          return pki().file('kubelet-ca.crt');
        },
      },
      kubelet: async (node, credentials, method, p) => {
        await access.serve();
        return this.kubeletNetwork!.request(node, credentials, method, p);
      },
      serve: async () => {
        await this.start();
        if (this.startError) throw this.startError;
        return this.endpoint!;
      },
      kubeconfig: async (credentials: Credentials) => {
        const e = await access.serve();
        let text: string;
        if ('admin' in credentials) text = this.pki().kubeconfig(e.server, ADMIN, ['system:masters']);
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

  /**
   * A scenario that asks for a dedicated cluster, kills the control plane or judges the API
   * server's defaults gets a fresh one
   * that is stopped afterwards (never one from the pool, never given back).
   */
  need(capabilities: readonly (keyof Capabilities)[]): void {
    this.judgesDefaults = capabilities.includes('apiServerDefaults');
    // @needs-cloud-provider gives the scenario a cloud even when its flags name none (the service controller's).
    if (capabilities.includes('cloudProvider')) this.cloudAsked = true;
    this.pairAsked = capabilities.includes('apiServerPair');
    if (
      ['dedicatedCluster', 'durableStorage', 'apiServerDefaults', 'apiServerPair'].some((c) =>
        capabilities.includes(c as keyof Capabilities),
      )
    )
      this.reuse.allowed = false;
  }

  /** The scenario judges kube-apiserver's own defaults: port 6443 on every address, AlwaysAllow. */
  private judgesDefaults = false;

  /** Upstream command lines for the merged flags (ports and files are filled in at start). */
  private translate(all: Flags): UpstreamCommand {
    return translateFlags(all, this.flags, this.profile.flags);
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

  /** Starts a component with its log in `dir` (the second master of a pair has its own). */
  private spawn(name: Binary, args: string[], dir = this.workDir!): Component {
    const proc = this.runner.start(dir, name, args);
    this.commands.set(proc, args);
    this.procs.push(proc);
    return proc;
  }

  /** A kubeconfig for a component of `master`, with a client certificate for user. */
  private kubeconfig(name: string, user: string, master = this.firstMaster()): string {
    const file = path.join(master.dir, `${name}.kubeconfig`);
    fs.writeFileSync(file, this.pki().kubeconfig(master.server, user, []), { mode: 0o600 });
    return file;
  }

  /** The first (or only) master: its API server and the directory of its files and logs. */
  private firstMaster(): Master {
    return { server: this.server!, dir: this.workDir! };
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
  async startScheduler(
    schedulerName?: string,
    qps?: number,
    master = this.firstMaster(),
    election?: SchedulerElection,
  ): Promise<void> {
    const work = master.dir;
    const schedConfig = this.kubeconfig('kube-scheduler', 'system:kube-scheduler', master);
    const configFile = path.join(work, 'kube-scheduler.yaml');
    fs.writeFileSync(configFile, schedulerConfigYaml(schedConfig, schedulerName, qps, election));
    const logFile = path.join(work, 'kube-scheduler.log');
    this.schedulerLogStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    await this.onFreePort(async (schedPort) => {
      const scheduler = this.spawn(
        'kube-scheduler',
        schedulerArgs({
          config: configFile,
          kubeconfig: schedConfig,
          port: schedPort,
          certDir: path.join(work, 'scheduler-certs'),
        }),
        work,
      );
      await scheduler.waitUntil(
        'kube-scheduler /healthz',
        () =>
          answers200AsItself(
            `https://127.0.0.1:${schedPort}/healthz`,
            path.join(work, 'scheduler-certs', 'kube-scheduler.crt'),
          ),
        START_TIMEOUT_MS,
      );
    });
  }

  /** Where this scenario's kube-scheduler log begins (a reused work directory keeps the log of the scenarios before). */
  private schedulerLogStart = 0;

  /** The scoring decisions kube-scheduler logged for a pod (namespace/name) since this scenario's scheduler started. */
  override async schedulerDecisions(pod: string): Promise<SchedulingDecision[]> {
    const file = path.join(this.firstMaster().dir, 'kube-scheduler.log');
    const log = fs.readFileSync(file).subarray(this.schedulerLogStart).toString('utf8');
    return decisionsFromLog(log, pod);
  }

  private async launch(): Promise<void> {
    const cmd = this.translate(mergeFlags(this.profile.flags, this.flags));
    await this.runner.check();
    // The controllers are new for every scenario; an API server (and its etcd) may be reused.
    this.reuse.key = JSON.stringify([cmd.apiserver, this.flags['kube-apiserver']?.['secure-port']]);
    const idle = this.reuse.allowed && !this.options.apiServerOnly ? pool.take(this.reuse.key) : undefined;
    if (idle) this.adopt(idle);
    else await this.launchApiServer(cmd);
    if (this.options.apiServerOnly) {
      await super.start();
      return;
    }
    // The scenario's audit and storage revisions count from here (its controllers' start included).
    this.marks = { audit: auditOffset(this.workDir!), revision: await this.etcd().revision() };
    if (this.pairAsked) {
      // An HA pair: every master's controller manager and scheduler campaign (ha.feature).
      cmd.kcm.push('--leader-elect=true');
      await this.launchControllers(cmd);
      await this.launchSecondMaster(cmd);
    } else await this.launchControllers(cmd);
    if (this.reuse.allowed && !this.reuse.baseline) this.reuse.baseline = await pool.settledSnapshot(this.api);
    await super.start();
  }

  /** Takes over an idle API server from the pool (restored to its baseline). */
  private adopt(idle: pool.IdleControlPlane): void {
    this.procs.push(...idle.procs);
    this.workDir = idle.workDir;
    this.server = idle.server;
    this.endpoint = idle.endpoint;
    this.etcdClientUrl = idle.etcdClientUrl;
    this.reuse.baseline = idle.baseline;
    this.reuse.served = idle.served;
    this.kubeletNetwork = idle.kubeletNetwork;
    this.api = KubeconfigClient.fromFile(
      path.join(idle.workDir, 'admin.kubeconfig'),
      coreRegistry({ endpointSlices: true }),
    );
  }

  /** etcd and kube-apiserver, on free ports (or the secure port the scenario names). */
  private async launchApiServer(cmd: UpstreamCommand): Promise<void> {
    const pki = this.pki();
    this.workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-upstream-'));
    const work = this.workDir;
    // The secure port the scenario itself names (the kubernetes Service's targetPort shows it),
    // else any free one: the profile's default 6443 is not asked for, or every scenario of a
    // parallel run would compete for it and the one that names it could lose (found in the
    // second full run). Scenarios judging that default need @needs-api-server-defaults.
    // A scenario judging kube-apiserver's own defaults gets the profile's port (6443), waited for as the serve target does.
    const named = this.flags['kube-apiserver']?.['secure-port'];
    const wanted = named !== undefined ? Number(named) : this.judgesDefaults ? this.profileServing().securePort : 0;
    // A port the scenario must have may be held by another scenario for minutes; any free one is found at once.
    const deadline = Date.now() + (wanted > 0 ? PORT_WAIT_MS : START_TIMEOUT_MS);
    const claim = async (): Promise<number> => {
      // Another scenario of this run may hold it for a while: wait for it, never settle for another.
      while (!(await portFree(wanted))) {
        if (Date.now() > deadline)
          throw new Error(
            `--secure-port=${wanted}, which the scenario ${named !== undefined ? 'names' : 'judges as the default'}, stayed in use for ${PORT_WAIT_MS / 1000} s (another process on this machine holds it)`,
          );
        await new Promise((r) => setTimeout(r, 500));
      }
      return wanted;
    };
    let apiPort = wanted > 0 ? await claim() : await freePort();

    // The hollow kubelets' network, which the API server's egress selector dials through.
    const egress = { udsName: path.join(work, 'egress.sock') };
    this.kubeletNetwork = new KubeletNetwork(
      { kubeletCA: pki.kubeletCA, clusterCA: pki.ca },
      new RealClock(),
      apiReviews(() => this.api),
    );
    await this.kubeletNetwork.listen(egress);
    const egressFile = path.join(work, 'egress-selector.yaml');
    fs.writeFileSync(egressFile, egressSelectorConfiguration(egress));

    // etcd binds two ports (client, peer); another run's process may take either between
    // freePort() and the bind (seen with 20 control planes starting at once): again on others.
    const etcdClient = await this.onFreePort(async (client) => {
      const peer = await freePort();
      const etcd = this.spawn('etcd', etcdArgs(path.join(work, 'etcd'), client, peer));
      await etcd.waitUntil('etcd', () => answers200(`http://127.0.0.1:${client}/health`), START_TIMEOUT_MS);
      return client;
    });
    this.etcdClientUrl = `http://127.0.0.1:${etcdClient}`;
    this.egressFile = egressFile;

    const startApiServer = (apiPort: number) => this.startApiServer(cmd, apiPort, work, this.judgesDefaults);
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
    fs.writeFileSync(adminFile, pki.kubeconfig(server, ADMIN, ['system:masters']), { mode: 0o600 });
    this.api = KubeconfigClient.fromFile(adminFile, coreRegistry({ endpointSlices: true }));
    // Where it really listens, as the kernel says (a scenario judges the default bind address).
    const host = listeningAddress(apiPort) ?? '127.0.0.1';
    this.endpoint = { server, secure: { host, port: apiPort }, caFile: pki.file('ca.crt') };
  }

  private egressFile?: string;

  /**
   * One kube-apiserver on the control plane's etcd, its certificates and audit log in `dir`,
   * on `port`; resolves with its URL once it is ready. The PKI and service-account keys are
   * the run's, shared by every API server of a pair (as `kubeadm join --control-plane` copies them).
   */
  private async startApiServer(cmd: UpstreamCommand, port: number, dir: string, judgesDefaults: boolean) {
    const pki = this.pki();
    const server = `https://127.0.0.1:${port}`;
    const apiserver = this.spawn(
      'kube-apiserver',
      apiServerArgs(
        {
          etcdClientPort: Number(new URL(this.etcdClientUrl!).port),
          port,
          certDir: path.join(dir, 'apiserver-certs'),
          pki: (name) => pki.file(name),
          judgesDefaults,
          extra: [
            // A pair's API servers log the leader locks' bodies: who each candidate is (lockIdentities).
            ...auditFlags(dir, { lockBodies: this.pairAsked }),
            // Hollow kubelets it can dial (kubelet-network.ts): node and pod traffic through the
            // egress proxy, and the API server's client certificate at the kubelets.
            `--egress-selector-config-file=${this.egressFile}`,
            `--kubelet-client-certificate=${pki.file('apiserver-kubelet-client.crt')}`,
            `--kubelet-client-key=${pki.file('apiserver-kubelet-client.key')}`,
          ],
        },
        cmd,
      ),
      dir,
    );
    await apiserver.waitUntil(
      'kube-apiserver /readyz',
      () => answers200(`${server}/readyz`, this.adminTls()),
      START_TIMEOUT_MS,
    );
    return server;
  }

  /**
   * kube-controller-manager and kube-scheduler, fresh for every scenario, clients of `master`'s
   * API server; the first master's wait until the controllers run (the second's stand by).
   */
  private async launchControllers(cmd: UpstreamCommand, master = this.firstMaster()): Promise<void> {
    const pki = this.pki();
    const work = master.dir;
    const first = master.dir === this.workDir;
    const kcmConfig = this.kubeconfig('kube-controller-manager', 'system:kube-controller-manager', master);
    const kcm = await this.onFreePort(async (kcmPort) => {
      const proc = this.spawn(
        'kube-controller-manager',
        controllerManagerArgs(
          {
            kubeconfig: kcmConfig,
            port: kcmPort,
            certDir: path.join(work, 'kcm-certs'),
            pki: (name) => pki.file(name),
            extra: this.namesCloud(cmd) ? ['--cloud-provider=external'] : [],
          },
          cmd,
        ),
        work,
      );
      // /healthz is always allowed; the serving certificate is the one it wrote itself.
      await proc.waitUntil(
        'kube-controller-manager /healthz',
        () =>
          answers200AsItself(
            `https://127.0.0.1:${kcmPort}/healthz`,
            path.join(work, 'kcm-certs', 'kube-controller-manager.crt'),
          ),
        START_TIMEOUT_MS,
      );
      return proc;
    });
    if (first && this.namesCloud(cmd)) await this.startCloud(kcmConfig);
    await this.startScheduler(cmd.schedulerName, undefined, master, this.schedulerElection());
    if (!first) return;

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
  }

  /** Each process's command line (a restart starts the same ones again). */
  private readonly commands = new Map<Component, string[]>();
  private marks = { audit: 0, revision: 0 };
  private etcdAccess?: EtcdAccess;

  private etcd(): EtcdAccess {
    this.etcdAccess ??= new EtcdAccess(this.etcdClientUrl!);
    return this.etcdAccess;
  }

  /**
   * What kube-apiserver handled since the scenario's controllers started, from its audit
   * log (upstream/audit.ts), and how etcd's revision moved: every revision that changed
   * only kube-apiserver's keys counts as its write (see EtcdAccess.apiServerRevisionsSince).
   */
  override async apiAudit(): Promise<ApiAuditReport> {
    await this.start();
    if (this.startError) throw this.startError;
    return this.auditOf(this.workDir!, this.marks.audit);
  }

  /** When kube-apiserver received each successful `verb` of each object since the scenario's controllers started. */
  async requestTimes(verb: string, refs: readonly RequestRef[]): Promise<number[][]> {
    await this.start();
    if (this.startError) throw this.startError;
    return requestTimes(this.workDir!, this.marks.audit, verb, refs);
  }

  /** The objects of `ref` at `since` and after each write since, from the audit log's bodies (KEPT_STATES). */
  async objectStates(
    ref: { resource: string; namespace?: string; name?: string },
    since: number,
  ): Promise<ObjectsAt[] | undefined> {
    await this.start();
    if (this.startError) throw this.startError;
    return objectStates(this.workDir!, this.marks.audit, ref, since);
  }

  /** What the API server logging to `dir` handled since the audit log's offset `from`, and etcd's revisions. */
  private async auditOf(dir: string, from: number): Promise<ApiAuditReport> {
    const { writesByUser, writesByUserResource, readsByUser } = readAudit(dir, from);
    const now = await this.etcd().revision();
    const apiServerStoreWrites = await this.etcd().apiServerRevisionsSince(this.marks.revision);
    return {
      writesByUser,
      writesByUserResource,
      readsByUser,
      apiServerStoreWrites,
      storeRevisionDelta: now - this.marks.revision,
    };
  }

  // ── an HA pair of masters (capability apiServerPair, features/apiserver/ha.feature) ──────────

  /** The scenario asked for two API servers on one etcd (@needs-api-server-pair). */
  private pairAsked = false;
  private pair?: Pair;

  /** kube-scheduler elects its leader with kube-controller-manager's timings (the scenario states them once). */
  private schedulerElection(): SchedulerElection | undefined {
    if (!this.pairAsked) return undefined;
    // The merged flags parse (configure's translateFlags checked them); the pair elects, --leader-elect or not.
    return leaderElectionSettings(clusterConfig(this.profile, this.flags));
  }

  /**
   * Once the first master leads (its controller manager and scheduler wrote both locks through
   * its API server, the only candidates so far), a second kube-apiserver on the same etcd
   * (its own port, certificates dir and audit log; the run's PKI) and its own
   * kube-controller-manager and kube-scheduler, which stand by.
   */
  private async launchSecondMaster(cmd: UpstreamCommand): Promise<void> {
    const firstProcs = this.procs.filter((p) => p.name !== 'etcd');
    const [kcm, scheduler] = ['kube-controller-manager', 'kube-scheduler'].map(
      (n) => firstProcs.find((p) => p.name === n)!,
    );
    await kcm.waitUntil(
      'the first master to hold both leader locks',
      async () => {
        const id = lockIdentities(this.workDir!);
        if (!id.controllerManager || !id.scheduler)
          return `written through the first API server: ${JSON.stringify(id)}`;
        const held = await Promise.all([this.lockHolder('kube-controller-manager'), this.lockHolder('kube-scheduler')]);
        return (held[0] === id.controllerManager && held[1] === id.scheduler) || `held by ${held.join(', ')}`;
      },
      START_TIMEOUT_MS,
    );
    if (scheduler.exited)
      throw new Error(`${scheduler.exited}
${scheduler.tail()}`);
    const dir = path.join(this.workDir!, 'second');
    fs.mkdirSync(dir);
    const server = await this.onFreePort((port) => this.startApiServer(cmd, port, dir, false));
    const adminFile = path.join(dir, 'admin.kubeconfig');
    fs.writeFileSync(adminFile, this.pki().kubeconfig(server, ADMIN, ['system:masters']), { mode: 0o600 });
    const api = KubeconfigClient.fromFile(adminFile, coreRegistry({ endpointSlices: true }));
    const port = Number(new URL(server).port);
    const endpoint = { server, secure: { host: '127.0.0.1', port }, caFile: this.pki().file('ca.crt') };
    await this.launchControllers(cmd, { server, dir });
    this.pair = { second: { server, dir, api, endpoint }, first: { api: this.api, procs: firstProcs, killed: false } };
  }

  /** The holder of a leader Lease in kube-system, through the driver's API server. */
  private async lockHolder(name: string): Promise<string | undefined> {
    try {
      const lease = await this.api.get<{ metadata: object; spec?: { holderIdentity?: string } }>(
        { resource: 'leases.coordination.k8s.io', namespace: 'kube-system' },
        name,
      );
      return lease.spec?.holderIdentity;
    } catch (e) {
      if (isStatusError(e, 'NotFound')) return undefined;
      throw e;
    }
  }

  private startedPair(): Pair {
    if (this.startError) throw this.startError;
    if (!this.pair)
      throw new Error('upstream: this scenario runs one master (the pair is started for @needs-api-server-pair)');
    return this.pair;
  }

  /**
   * The two masters. Each candidate's identity (hostname_uuid, logged nowhere) is the one its
   * lock writes carried through its own API server: known for the leader, and for the
   * standby once it has taken a lock (lockIdentities).
   */
  async apiServers(): Promise<ApiServerMember[]> {
    await this.start();
    const pair = this.startedPair();
    const member = (name: string, dir: string, client: KubeconfigClient, alive: boolean, from: number) => {
      const id = lockIdentities(dir);
      return {
        name,
        client,
        controllerManagerIdentity: id.controllerManager,
        schedulerIdentity: id.scheduler,
        alive,
        audit: () => this.auditOf(dir, from),
      };
    };
    return [
      member('first', this.workDir!, pair.first.api, !pair.first.killed, this.marks.audit),
      member('second', pair.second.dir, pair.second.api, true, 0),
    ];
  }

  /**
   * SIGKILL, by PID, of the first master's kube-apiserver, kube-controller-manager and
   * kube-scheduler (a master dying: nothing is released), when its controller manager leads;
   * the driver, kubectl and the kubelets' reviews then speak to the second.
   */
  async killLeader(): Promise<number> {
    const [first, second] = await this.apiServers();
    const pair = this.startedPair();
    const holder = await this.lockHolder('kube-controller-manager');
    if (holder !== undefined && holder === second.controllerManagerIdentity)
      throw new Error('the second master leads: the target kills only the first (the kubelets speak to the second)');
    if (holder === undefined || holder !== first.controllerManagerIdentity)
      throw new Error(`the controller manager lock is held by ${holder ?? 'nobody'}, neither master of the pair`);
    const at = Date.now();
    await Promise.all(pair.first.procs.map((p) => p.kill()));
    pair.first.killed = true;
    this.api = pair.second.api;
    this.server = pair.second.server;
    this.endpoint = pair.second.endpoint;
    return at;
  }

  /** etcd v3 compaction at its current revision, through etcd's own API. */
  override async compactStorage(): Promise<void> {
    await this.start();
    if (this.startError) throw this.startError;
    await this.etcd().compact();
  }

  /**
   * SIGKILL of every process of the control plane (etcd included: the step kills the control
   * plane), then the same command lines again on the same data dir and ports; resolves once
   * kube-apiserver is ready and the controllers answer /healthz again.
   */
  async restartControlPlane(): Promise<void> {
    await this.start();
    if (this.startError) throw this.startError;
    const old = [...this.procs];
    await Promise.all(old.map((p) => p.kill()));
    this.etcdAccess?.close();
    this.etcdAccess = undefined;
    this.procs.length = 0;
    for (const p of old) {
      // A scenario that restarts its control plane never gets one from the pool (need()), so every process is its own.
      let args = this.commands.get(p);
      if (!args) throw new Error(`${p.name} was not started by this scenario: its command line is not known`);
      for (;;) {
        const proc = this.spawn(p.name as Binary, args);
        try {
          await waitServing(proc, args, this.server!, this.adminTls(), START_TIMEOUT_MS);
          break;
        } catch (e) {
          // While it was down another process of this machine may have taken its port (seen for
          // kube-controller-manager with 28 scenarios starting control planes, twentieth full run).
          // Only the controllers' ports are theirs to change: the API server's and etcd's are
          // what the scenario and the API server dial.
          const movable = p.name === 'kube-controller-manager' || p.name === 'kube-scheduler';
          if (!movable || !/address already in use/.test((e as Error).message)) throw e;
          this.procs.pop(); // it has exited
          const port = await freePort();
          args = args.map((a) => (a.startsWith('--secure-port=') ? `--secure-port=${port}` : a));
        }
      }
    }
  }

  private adminTls(): https.RequestOptions {
    const pair = this.pki().client(ADMIN, ['system:masters']);
    return { ca: this.pki().ca.certPem, cert: pair.certPem, key: pair.keyPem };
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

  /**
   * A hollow kubelet acts as its node, as a real one does (client certificate CN
   * system:node:<name>, O system:nodes): the Node authorizer and NodeRestriction judge its
   * writes, and the audit tells them from the admin's.
   */
  protected override kubeletClient(nodeName: string): Client {
    // A kubelet acts as its node where the Node authorizer judges it (Node,RBAC, this target's
    // default, as kubeadm's). A scenario naming other modes (RBAC alone, AlwaysAllow) grants
    // system:nodes nothing — v1.32's RBAC binds no role to that group — so there the kubelet
    // keeps the admin's identity, as before (found in the first full run: 19 scenarios).
    const named = this.flags['kube-apiserver']?.['authorization-mode'];
    const modes =
      named !== undefined
        ? named
        : this.judgesDefaults
          ? this.profileServing().authorizationMode
          : TARGET_AUTHORIZATION_MODE;
    // In a pair the kubelets speak to the second master, so that they outlive the kill of the first.
    const server = this.pair?.second.server ?? this.server!;
    const [user, groups] = modes.split(',').includes('Node')
      ? [`system:node:${nodeName}`, ['system:nodes']]
      : [ADMIN, ['system:masters']];
    if (!this.pair && user === ADMIN) return super.kubeletClient(nodeName);
    const file = path.join(this.workDir!, `kubelet-${nodeName}.kubeconfig`);
    fs.writeFileSync(file, this.pki().kubeconfig(server, user, groups), {
      mode: 0o600,
    });
    return KubeconfigClient.fromFile(file, coreRegistry({ endpointSlices: true }), undefined, {
      maxConnections: KUBELET_CONNECTIONS,
    });
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
    this.etcdAccess?.close();
    try {
      await super.stop();
    } finally {
      if (!dead && !this.startError && this.reuse.allowed && this.reuse.baseline) await this.giveBack();
      else {
        await this.kubeletNetwork?.stop();
        await this.stopProcesses();
        if (this.workDir && !process.env.KUBESPEC_UPSTREAM_KEEP)
          fs.rmSync(this.workDir, { recursive: true, force: true });
      }
    }
    if (tail && !this.startError) throw new Error(tail);
  }

  /**
   * Stops the controllers, restores the API server to its baseline and gives it back to the
   * pool; one that cannot be restored is stopped instead, with the reason told.
   */
  private async giveBack(): Promise<void> {
    const keep = !!process.env.KUBESPEC_UPSTREAM_KEEP;
    const [store, controllers] = [
      this.procs.filter((p) => p.name === 'etcd' || p.name === 'kube-apiserver'),
      this.procs.filter((p) => p.name !== 'etcd' && p.name !== 'kube-apiserver'),
    ];
    for (const p of controllers.reverse()) await p.stop();
    let why: string | undefined;
    try {
      why = await pool.restore(this.api, this.reuse.baseline!);
    } catch (e) {
      reportTo('upstream: restoring a control plane for the next scenario')(e);
      why = 'restoring it failed';
    }
    // Its audit log only grows (no rotation: a scenario reads from its own offset).
    if (why === undefined && auditOffset(this.workDir!) > 200 * 2 ** 20) why = 'its audit log passed 200 MiB';
    if (why !== undefined || store.some((p) => p.exited)) {
      // A decision, not a failure: the next scenario starts a fresh one.
      if (process.env.KUBESPEC_UPSTREAM_POOL_LOG) console.error(`upstream: control plane not reused: ${why}`);
      await pool.discard({ procs: store, workDir: this.workDir!, kubeletNetwork: this.kubeletNetwork }, keep);
      return;
    }
    await pool.giveBack(
      {
        key: this.reuse.key,
        procs: store,
        workDir: this.workDir!,
        server: this.server!,
        endpoint: this.endpoint!,
        etcdClientUrl: this.etcdClientUrl!,
        baseline: this.reuse.baseline!,
        served: this.reuse.served + 1,
        kubeletNetwork: this.kubeletNetwork!,
      },
      keep,
    );
  }
}

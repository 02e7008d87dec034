import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { coreRegistry } from '../api/resources';
import { KubeconfigClient } from '../client/kubeconfig';
import { Flags, mergeFlags, Profile } from '../profile/profile';
import { KubeDriver } from './kube';
import { Capabilities, Credentials, HttpAccess, HttpEndpoint, kubeletCaller, NotApplicableError } from './driver';
import { CertificateAuthority } from '../apiserver/auth/pki';
import { basicAuthKubeconfig, clientCertKubeconfig, kubeconfigYaml, tokenKubeconfig } from '../cluster/serving';
import { TargetDeclaration } from './targets';
import { EtcdServer } from '../store/etcd-process';
import { WatchedProcess } from '../util/process';
import { freePort, portFree } from '../util/ports';
import { onShutdown } from '../util/shutdown';

// Compiled, the driver starts the compiled CLI itself (the run already chose dist/ as current);
// from the sources, bin/kubespec chooses (dist/ when it is up to date, else ts-node).
const BIN = __filename.endsWith('.js')
  ? path.resolve(__dirname, '../cli/entry.js')
  : path.resolve(__dirname, '../../bin/kubespec');
/** Generous: on a loaded machine (CI, parallel runs) a server's start took over two minutes. */
const START_TIMEOUT_MS = 300_000;
/** How long a scenario waits for the secure port it must have (6443, or the one it names). */
const PORT_WAIT_MS = 300_000;

export interface ServeOptions {
  /** The profile as given on the command line (a name or a YAML path), passed to the server. */
  profileArg: string;
  clock: 'virtual' | 'real';
  /** Flags forced on every server after the scenario's own (to judge a deliberately wrong one). */
  forcedFlags?: Flags;
  /** Where the servers keep their PKI: shared by the run, so keys are made once. */
  dataDir?: string;
  /** The --store arguments, when not the declaration's (serve-ha: both servers on the scenario's etcd). */
  storeArgs?: () => Promise<string[]>;
}

/** Resolves once port is free on host; past the deadline, fails naming the port. */
export async function waitForPort(port: number, host: string, deadline: number): Promise<void> {
  const since = Date.now();
  while (!(await portFree(port, host))) {
    if (Date.now() > deadline)
      throw new Error(
        `port ${port} on ${host}, which the scenario must have, stayed in use for ${Math.round((Date.now() - since) / 1000)} s: another process on this machine holds it`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** What the serve target binds where the scenario neither names an address nor judges the profile's default. */
const LOOPBACK = '127.0.0.1';

/**
 * The run's data directories (PKI with the CA key, stores, kubeconfigs) go when the process
 * ends, interrupted or not: a run leaves nothing in /tmp. Each directory is registered once.
 */
const removed = new Set<string>();
function removeAtExit(dir: string): void {
  if (removed.has(dir)) return;
  removed.add(dir);
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  // On a signal, after the servers have stopped (clean-ups run newest first; this is the oldest).
  onShutdown(`the serve target's data directory ${dir}`, remove);
}

/** One etcd for every etcd-backed server of this run (each keeps its keys under its own prefix). */
let sharedEtcd: Promise<EtcdServer> | undefined;
function runEtcd(): Promise<EtcdServer> {
  if (!sharedEtcd) {
    const etcd = new EtcdServer();
    // It lives as long as the run: unref'd so the run can end, killed when it does.
    sharedEtcd = etcd.start().then(() => {
      etcd.unref();
      return etcd;
    });
    process.once('exit', () => etcd.killNow());
  }
  return sharedEtcd;
}

/**
 * The serve target: for each scenario a fresh `kubespec serve` process with the scenario's
 * flags, judged only through the kube driver over HTTPS. It proves the HTTP path end to
 * end: the same features, the same verdicts as in process.
 */
export class ServeDriver extends KubeDriver {
  private flags: Flags = {};
  private proc?: WatchedProcess;
  private kubeconfigCopy?: string;
  private endpoint?: HttpEndpoint;
  private readonly dataDir: string;
  private kubeconfigs = 0;
  protected override cleanupOnStop = false;

  constructor(
    profile: Profile,
    declaration: TargetDeclaration,
    private readonly options: ServeOptions,
  ) {
    super(profile, declaration);
    this.dataDir = options.dataDir ?? path.join(os.tmpdir(), `kubespec-serve-${process.pid}`);
    if (!options.dataDir) removeAtExit(this.dataDir); // ours: a given one is the caller's to keep
    // On its virtual clock the server hosts the kubelets and their HTTPS API.
    // It is a kubespec serve: the API audit is /kubespec/v1/audit.
    this.capabilities = {
      ...this.capabilities,
      http: true,
      kubeletApi: options.clock === 'virtual',
      dedicatedCluster: true,
      audit: true,
      durableStorage: declaration.store !== 'memory',
      apiServerDefaults: true,
    };
    this.http = this.httpAccess();
  }

  /** kubectl reaches the server as any client would, with kubeconfigs made from its PKI. */
  readonly http: HttpAccess;

  private httpAccess(): HttpAccess {
    const access: HttpAccess = {
      files: { kubeletCA: path.join(this.dataDir, 'pki', 'kubelet-ca.crt') },
      serve: async () => {
        await this.start();
        if (this.startError) throw this.startError;
        return this.endpoint!;
      },
      kubeconfig: async (credentials: Credentials) => {
        const e = await access.serve();
        let text: string;
        const caPem = fs.readFileSync(e.caFile, 'utf8');
        if ('admin' in credentials) text = fs.readFileSync(this.kubeconfigCopy!, 'utf8');
        else if ('insecurePort' in credentials) {
          if (!e.insecure) throw new NotApplicableError('the insecure port is off (--insecure-port 0)');
          text = kubeconfigYaml(`http://${e.insecure.host}:${e.insecure.port}`, 'insecure', {});
        } else if ('user' in credentials) {
          const ca = CertificateAuthority.load({
            certPem: caPem,
            keyPem: fs.readFileSync(path.join(path.dirname(e.caFile), 'ca.key'), 'utf8'),
          });
          text = clientCertKubeconfig(ca, e.server, credentials.user, credentials.groups);
        } else if ('basic' in credentials)
          text = basicAuthKubeconfig(caPem, e.server, credentials.basic.username, credentials.basic.password);
        else text = tokenKubeconfig(caPem, e.server, 'token' in credentials ? credentials.token : undefined);
        const file = `${this.kubeconfigCopy}-${++this.kubeconfigs}`;
        fs.writeFileSync(file, text, { mode: 0o600 });
        return file;
      },
      kubelet: async (node, credentials, method, p) => {
        await access.serve();
        return this.api.request<{ status: number; body: string }>(
          'POST',
          `/kubespec/v1/kubelets/${encodeURIComponent(node)}/request`,
          { body: { method, path: p, caller: kubeletCaller(credentials) } },
        );
      },
    };
    return access;
  }

  override configure(flags: Flags): void {
    this.flags = mergeFlags(this.flags, flags);
  }

  /** Starts the server; a server that refuses to start is remembered, not thrown (scenarios may expect it). */
  override async start(): Promise<void> {
    if (this.proc) return;
    try {
      await this.spawnServer();
    } catch (e) {
      this.startError = e as Error;
    }
  }

  /** The capabilities the scenario asks for: with apiServerDefaults it gets port 6443 (see wantedPort). */
  need(capabilities: readonly (keyof Capabilities)[]): void {
    this.judgesDefaults = capabilities.includes('apiServerDefaults');
  }

  /**
   * The secure port a scenario must get: the one it names; the profile's default (6443) when
   * it judges the defaults; else none (any free port: parallel scenarios do not queue for one).
   */
  private wantedPort(): number | undefined {
    const asked = mergeFlags(this.flags, this.options.forcedFlags ?? {})['kube-apiserver']?.['secure-port'];
    if (asked && asked !== '0') return Number(asked);
    if (this.judgesDefaults) return this.profileServing().securePort;
    return undefined;
  }

  /**
   * Starts the server on its port. A port the scenario must have is waited for while another
   * process holds it (a parallel scenario, another run on this machine), never swapped for
   * another; a free port taken between the check and the bind is swapped.
   */
  private async spawnServer(): Promise<void> {
    const deadline = Date.now() + PORT_WAIT_MS;
    for (;;) {
      const wanted = this.port ?? this.wantedPort();
      const port = wanted ?? (await freePort());
      if (wanted !== undefined) await waitForPort(wanted, this.bindAddress(), deadline);
      try {
        await this.launch(port);
        return;
      } catch (e) {
        if (!/address already in use/.test((e as Error).message)) throw e;
        if (Date.now() > deadline)
          throw new Error(`port ${port} stayed in use for ${PORT_WAIT_MS / 1000} s: ${(e as Error).message}`);
        this.proc = undefined;
        if (wanted === undefined) this.port = undefined;
      }
    }
  }

  /**
   * Where the server listens: what the scenario states; kube-apiserver's default (0.0.0.0,
   * every interface) only for a scenario that judges the defaults; else loopback — the
   * servers run with --authorization-mode AlwaysAllow, and a CI machine must not offer them
   * to its network for the length of a run.
   */
  private bindAddress(): string {
    const stated = mergeFlags(this.flags, this.options.forcedFlags ?? {})['kube-apiserver']?.['bind-address'];
    return stated ?? (this.judgesDefaults ? this.profileServing().bindAddress : LOOPBACK);
  }

  private async launch(port: number): Promise<void> {
    this.port = port;
    this.storeArgs ??= await this.storeFor(port);
    const dataDir = this.dataDir;
    const flags = mergeFlags(this.flags, this.options.forcedFlags ?? {});
    if (flags['kube-apiserver']) delete flags['kube-apiserver']['secure-port'];
    // The insecure port, where the scenario or the profile has one (the seed's 8080), on a
    // free port too: parallel servers would all ask for the same one.
    const named = flags['kube-apiserver']?.['insecure-port'];
    const insecurePort = named !== undefined ? Number(named) : this.profileServing().insecurePort;
    if (flags['kube-apiserver']) delete flags['kube-apiserver']['insecure-port'];
    const insecureArgs = ['--insecure-port', insecurePort === 0 ? '0' : String(await freePort())];
    // kube-apiserver's default where the scenario states no mode (`kubespec serve` alone
    // defaults to RBAC, a safer default for a server people start by hand).
    const authz = flags['kube-apiserver']?.['authorization-mode']
      ? []
      : ['--authorization-mode', this.profileServing().authorizationMode];
    // The data dir is shared by the run's servers (for the PKI): each keeps its objects in
    // a store of its own, or every scenario would start with the previous one's objects.
    const args = [
      BIN,
      'serve',
      '--profile',
      this.options.profileArg,
      '--clock',
      this.options.clock,
      '--data-dir',
      dataDir,
      ...this.storeArgs,
      '--secure-port',
      String(port),
      ...insecureArgs,
      ...(flags['kube-apiserver']?.['bind-address'] ? [] : ['--bind-address', this.bindAddress()]),
      ...authz,
    ];
    for (const values of Object.values(flags))
      for (const [k, v] of Object.entries(values ?? {})) args.push(`--${k}`, v);
    const proc = new WatchedProcess('kubespec serve', process.execPath, args, {
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
    });
    this.proc = proc;
    const kubeconfigLine = () => /^kubeconfig: (.+)$/m.exec(proc.output());
    await proc.waitUntil(
      'kubespec serve to print its kubeconfig',
      () => kubeconfigLine() !== null,
      START_TIMEOUT_MS,
      50,
    );
    const kubeconfig = kubeconfigLine()![1].trim();
    const output = proc.output();
    const insecure = /^insecure port: http:\/\/([^:]+):(\d+)/m.exec(output);
    const secureHost = /^secure port: https:\/\/(.+):\d+$/m.exec(output)?.[1] ?? '127.0.0.1';
    this.endpoint = {
      server: `https://127.0.0.1:${port}`,
      secure: { host: secureHost, port },
      ...(insecure ? { insecure: { host: insecure[1], port: Number(insecure[2]) } } : {}),
      caFile: path.join(dataDir, 'pki', 'ca.crt'),
    };
    // Its own copy: the next scenario's server rewrites the shared one.
    const own = path.join(dataDir, `kubeconfig-${port}`);
    fs.copyFileSync(kubeconfig, own);
    this.kubeconfigCopy = own;
    this.api = KubeconfigClient.fromFile(own, coreRegistry({ endpointSlices: true }));
    await super.start();
  }

  private port?: number;
  private judgesDefaults = false;
  private storeArgs?: string[];
  private storeFile?: string;

  /** Where this server keeps its objects: its own SQLite file, or its own key prefix on the run's etcd. */
  private async storeFor(port: number): Promise<string[]> {
    if (this.options.storeArgs) return this.options.storeArgs();
    switch (this.declaration.store) {
      case 'sqlite':
        this.storeFile = path.join(this.dataDir, `store-${port}.db`);
        for (const suffix of ['', '-wal', '-shm']) fs.rmSync(this.storeFile + suffix, { force: true });
        return ['--store', `sqlite:${this.storeFile}`];
      case 'etcd': {
        const etcd = await runEtcd();
        return [
          '--store',
          etcd.endpoint.replace(/^http:/, 'etcd:'),
          '--store-key-prefix',
          `/kubespec-${process.pid}-${port}`,
        ];
      }
      default:
        return ['--store', 'memory'];
    }
  }

  /** The admin's client of this server (once started). */
  get apiClient(): KubeconfigClient {
    return this.api;
  }

  /** Why the server did not start, if it did not. */
  get startFailure(): Error | undefined {
    return this.startError;
  }

  /** What the server printed so far. */
  serverOutput(): string {
    return this.proc?.output() ?? '';
  }

  /** SIGKILL, and no restart: the server is gone, as a master whose machine died (start() does not bring it back). */
  async killServer(): Promise<void> {
    await this.proc?.kill();
  }

  /** SIGKILL, then the same server again: same port, data dir and store. */
  async restartControlPlane(): Promise<void> {
    if (this.declaration.store === 'memory')
      throw new NotApplicableError(
        'this serve target keeps its objects in memory (its declaration says store: memory)',
      );
    await this.start();
    if (this.startError) throw this.startError;
    await this.proc!.kill();
    this.proc = undefined;
    await this.spawnServer();
  }

  override async stop(): Promise<void> {
    await super.stop();
    if (this.kubeconfigCopy) {
      for (let i = 0; i <= this.kubeconfigs; i++)
        fs.rmSync(i === 0 ? this.kubeconfigCopy : `${this.kubeconfigCopy}-${i}`, { force: true });
    }
    if (this.proc) await this.proc.stop();
    if (this.storeFile) for (const suffix of ['', '-wal', '-shm']) fs.rmSync(this.storeFile + suffix, { force: true });
  }
}

import { ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { coreRegistry } from '../api/resources';
import { KubeconfigClient } from '../client/kubeconfig';
import { Flags, mergeFlags, Profile } from '../profile/profile';
import { parseFlags } from '../profile/flags';
import { CertificateAuthority, KeyPair } from '../apiserver/auth/pki';
import { kubeconfigYaml, tokenKubeconfig } from '../cluster/serving';
import { KubeDriver } from './kube';
import { Credentials, HttpAccess, HttpEndpoint, NotApplicableError } from './driver';
import { TargetDeclaration } from './targets';

/** Where `npm run upstream:build` puts the binaries (KUBESPEC_UPSTREAM_CACHE overrides the cache). */
export function upstreamBinDir(): string {
  const cache = process.env.KUBESPEC_UPSTREAM_CACHE ?? path.join(os.homedir(), '.cache', 'kubespec-upstream');
  return path.join(cache, 'bin');
}

const BINARIES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;
type Binary = typeof BINARIES[number];
/** The binaries the target needs that are not in binDir. */
export function missingBinaries(binDir = upstreamBinDir()): string[] {
  return BINARIES.filter((b) => !fs.existsSync(path.join(binDir, b)));
}

const START_TIMEOUT_MS = 120_000;
const LOG_TAIL_LINES = 40;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

/**
 * The PKI of every control plane this process starts: one CA (client CA and serving CA),
 * leaf certificates sharing one key (RSA is slow on shared cores), and the service-account
 * key pair. Made once per process, in a directory removed when the process exits.
 */
class UpstreamPki {
  readonly dir: string;
  readonly ca: CertificateAuthority;
  private readonly issued = new Map<string, KeyPair>();

  constructor() {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `kubespec-upstream-pki-${process.pid}-`));
    process.once('exit', () => fs.rmSync(this.dir, { recursive: true, force: true }));
    this.ca = CertificateAuthority.create('kubespec-upstream-ca', { reuseLeafKey: true });
    fs.writeFileSync(this.file('ca.crt'), this.ca.certPem);
    fs.writeFileSync(this.file('ca.key'), this.ca.keyPair.keyPem, { mode: 0o600 });
    const serving = this.ca.issue({ commonName: 'kube-apiserver', dnsNames: ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'], ipAddresses: ['127.0.0.1'], usage: 'server' });
    fs.writeFileSync(this.file('apiserver.crt'), serving.certPem);
    fs.writeFileSync(this.file('apiserver.key'), serving.keyPem, { mode: 0o600 });
    // Service-account tokens: the controller manager signs with the private key, the API server verifies with it too.
    const sa = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    fs.writeFileSync(this.file('sa.key'), sa.privateKey, { mode: 0o600 });
    fs.writeFileSync(this.file('sa.pub'), sa.publicKey);
  }

  file(name: string): string {
    return path.join(this.dir, name);
  }

  /** A client certificate (CN = user, O = groups), issued once per identity. */
  client(user: string, groups: string[]): KeyPair {
    const key = `${user}|${groups.join(',')}`;
    let pair = this.issued.get(key);
    if (!pair) {
      pair = this.ca.issue({ commonName: user, organizations: groups, usage: 'client' });
      this.issued.set(key, pair);
    }
    return pair;
  }

  kubeconfig(server: string, user: string, groups: string[]): string {
    const pair = this.client(user, groups);
    return kubeconfigYaml(server, user, { 'client-certificate-data': b64(pair.certPem), 'client-key-data': b64(pair.keyPem) }, this.ca.certPem);
  }
}

let sharedPki: UpstreamPki | undefined;

/**
 * Every upstream process group still running, so that none outlives this process: they run
 * detached (their own groups), so a kubespec killed by a signal would otherwise leave them.
 */
const live = new Set<ChildProcess>();
let exitHooked = false;
function killLive(): void {
  for (const c of live) { try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ } }
  live.clear();
}
function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', killLive);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => { killLive(); process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1)); });
  }
}

/** One upstream process: its log file, and whether it ended before it was told to. */
class Proc {
  exited?: string;
  private stopping = false;

  constructor(readonly name: Binary, readonly child: ChildProcess, readonly log: string) {
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      // kube-controller-manager (and kube-scheduler) exit when they lose the leader lock, by
      // design (OnStoppedLeading: "leaderelection lost"; a supervisor restarts them): that is
      // the behaviour a leader-election scenario judges, not a crash.
      if (name !== 'etcd' && name !== 'kube-apiserver' && /leaderelection lost/.test(this.tail())) return;
      this.exited = `${name} exited unexpectedly (${signal ?? `code ${code}`})`;
    });
  }

  tail(): string {
    let text = '';
    try { text = fs.readFileSync(this.log, 'utf8'); } catch { /* never started */ }
    const lines = text.trimEnd().split('\n');
    return `--- last ${Math.min(LOG_TAIL_LINES, lines.length)} lines of ${this.name}'s log (${this.log}) ---\n${lines.slice(-LOG_TAIL_LINES).join('\n')}`;
  }

  /** Ends the process group (the binary and anything it started), SIGTERM then SIGKILL. */
  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const kill = (sig: NodeJS.Signals) => { try { process.kill(-child.pid!, sig); } catch { /* gone */ } };
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => kill('SIGKILL'), 5000);
      child.once('exit', () => { clearTimeout(timer); resolve(); });
      kill('SIGTERM');
    });
  }
}

/** GET url until it answers 200 (or the process dies, or the time is up). */
async function waitHealthy(what: string, url: string, proc: Proc, tls: https.RequestOptions | undefined, timeoutMs = START_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (proc.exited) throw new Error(`${proc.exited} while waiting for ${what}\n${proc.tail()}`);
    const status = await new Promise<number>((resolve) => {
      const mod = url.startsWith('https:') ? https : http;
      const req = mod.get(url, { ...(tls ?? {}), timeout: 5000 }, (res) => {
        let body = '';
        res.on('data', (c) => { body += c; });
        res.on('end', () => { last = `${res.statusCode}: ${body.slice(0, 500)}`; resolve(res.statusCode ?? 0); });
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (e) => { last = e.message; resolve(0); });
    });
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} not ready after ${timeoutMs / 1000}s (last answer: ${last})\n${proc.tail()}`);
}

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
  private readonly procs: Proc[] = [];
  private workDir?: string;
  private endpoint?: HttpEndpoint;
  private kubeconfigs = 0;
  private launched = false;
  private server?: string;
  private readonly binDir: string;
  protected override cleanupOnStop = false;
  readonly http: HttpAccess;

  constructor(profile: Profile, declaration: TargetDeclaration, private readonly options: UpstreamOptions = {}) {
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
        else if ('insecurePort' in credentials) throw new NotApplicableError('kube-apiserver v1.32 has no insecure port (--insecure-port was removed in v1.24)');
        else if ('user' in credentials) text = this.pki().kubeconfig(e.server, credentials.user, credentials.groups);
        else if ('basic' in credentials) throw new NotApplicableError('kube-apiserver v1.32 has no HTTP basic auth (--basic-auth-file was removed in v1.19)');
        else text = tokenKubeconfig(this.pki().ca.certPem, e.server, 'token' in credentials ? credentials.token : undefined);
        const file = path.join(this.workDir!, `kubeconfig-${++this.kubeconfigs}`);
        fs.writeFileSync(file, text, { mode: 0o600 });
        return file;
      },
    };
    return access;
  }

  private pki(): UpstreamPki {
    // Made again if its directory went (a clean-up of /tmp by something else on the machine
    // took it mid-run once, failing every later scenario at start-up).
    if (!sharedPki || !fs.existsSync(sharedPki.file('sa.key'))) sharedPki = new UpstreamPki();
    return sharedPki;
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
  private translate(all: Flags): { apiserver: string[]; kcm: string[]; scheduler: string[]; schedulerName?: string } {
    parseFlags(all);
    const api = all['kube-apiserver'] ?? {};
    const kcm = all['kube-controller-manager'] ?? {};
    const sch = all['kube-scheduler'] ?? {};
    const out = { apiserver: [] as string[], kcm: [] as string[], scheduler: [] as string[], schedulerName: undefined as string | undefined };
    const na = (why: string) => { throw new NotApplicableError(`upstream v1.32: ${why}`); };
    for (const [flag, value] of Object.entries(api)) {
      switch (flag) {
        case 'secure-port': case 'bind-address': break; // a free loopback port, set at start
        case 'insecure-bind-address': break; // meaningless without an insecure port
        case 'insecure-port':
          if (value !== '0') na(`--insecure-port=${value}: kube-apiserver has no insecure port since v1.24 (the flag was removed)`);
          break;
        case 'advertise-address': case 'service-cluster-ip-range': case 'default-not-ready-toleration-seconds':
        case 'default-unreachable-toleration-seconds': case 'enable-admission-plugins': case 'authorization-mode':
        case 'token-auth-file': case 'kubelet-certificate-authority': case 'anonymous-auth':
          out.apiserver.push(`--${flag}=${value}`);
          break;
        default: na(`kube-apiserver flag --${flag} has no translation`);
      }
    }
    for (const [flag, value] of Object.entries(kcm)) {
      switch (flag) {
        case 'pod-eviction-timeout':
          // Removed in v1.27 with the non-taint eviction path; only its default meaning survives
          // (the DefaultTolerationSeconds admission plugin's 300 s), so any explicit value is moot.
          if (this.flags['kube-controller-manager']?.['pod-eviction-timeout'] !== undefined) na(`--pod-eviction-timeout=${value}: removed from kube-controller-manager in v1.27 (eviction is taint-based only)`);
          break;
        case 'enable-taint-manager':
          if (value !== 'true') na(`--enable-taint-manager=${value}: removed in v1.27; the taint manager always runs`);
          break;
        case 'cloud-provider':
          if (value !== '' && value !== 'external') na(`--cloud-provider=${value}: in-tree cloud providers were removed (v1.31); only "external" remains`);
          if (value) out.kcm.push(`--cloud-provider=${value}`);
          break;
        case 'node-monitor-period': case 'node-monitor-grace-period': case 'node-startup-grace-period':
        case 'node-eviction-rate': case 'secondary-node-eviction-rate': case 'large-cluster-size-threshold':
        case 'unhealthy-zone-threshold': case 'allocate-node-cidrs': case 'cluster-cidr': case 'node-cidr-mask-size':
        case 'controllers': case 'resource-quota-sync-period': case 'cluster-name':
        // Leader election: the timings pass through; --leader-elect itself is off unless the
        // scenario turns it on (one controller manager per scenario, as the reference runs).
        case 'leader-elect': case 'leader-elect-lease-duration': case 'leader-elect-renew-deadline':
        case 'leader-elect-retry-period': case 'leader-elect-resource-lock':
          out.kcm.push(`--${flag}=${value}`);
          break;
        default: na(`kube-controller-manager flag --${flag} has no translation`);
      }
    }
    // The controller manager allocates service IPs nowhere, but the node IPAM controller
    // keeps the service range out of the pod CIDRs: same value as the API server's.
    if (api['service-cluster-ip-range']) out.kcm.push(`--service-cluster-ip-range=${api['service-cluster-ip-range']}`);
    for (const [flag, value] of Object.entries(sch)) {
      switch (flag) {
        case 'algorithm-provider': na(`--algorithm-provider=${value}: removed in v1.23 (the scheduler framework's profiles replaced algorithm providers)`); break;
        case 'policy-config-file': na(`--policy-config-file: scheduler Policy files were removed in v1.23`); break;
        case 'scheduler-name': out.schedulerName = value; break; // a KubeSchedulerConfiguration profile
        default: na(`kube-scheduler flag --${flag} has no translation`);
      }
    }
    return out;
  }

  /** Starts the control plane; one that refuses to start is remembered, not thrown (scenarios may expect it). */
  override async start(): Promise<void> {
    if (this.launched) return;
    this.launched = true;
    try {
      await this.launch();
    } catch (e) {
      this.startError = e instanceof NotApplicableError ? e : new Error(`upstream control plane did not start: ${(e as Error).message}`);
      await this.stopProcesses();
      if (e instanceof NotApplicableError) throw e;
    }
  }

  private spawn(name: Binary, args: string[]): Proc {
    const bin = path.join(this.binDir, name);
    if (!fs.existsSync(bin)) throw new Error(`no ${name} in ${this.binDir}: run \`npm run upstream:build\` first (KUBESPEC_UPSTREAM_CACHE sets the cache)`);
    const log = path.join(this.workDir!, `${name}.log`);
    const fd = fs.openSync(log, 'a');
    // Its own process group, so stop() ends it and anything it started.
    const child = spawn(bin, args, { stdio: ['ignore', fd, fd], detached: true });
    fs.closeSync(fd);
    track(child);
    const proc = new Proc(name, child, log);
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
   * Starts kube-scheduler (with a profile for schedulerName when given) and waits for its
   * /healthz. Part of start(); the benchmark calls it once its pods are pending.
   */
  /**
   * kube-scheduler on a free port. `qps` lifts client-go's default client rate (50/s, burst
   * 100), which otherwise caps bindings at about 50 pods/s; scheduler_perf lifts it the same way.
   */
  async startScheduler(schedulerName?: string, qps?: number): Promise<void> {
    const work = this.workDir!;
    const schedPort = await freePort();
    const schedConfig = this.kubeconfig('kube-scheduler', 'system:kube-scheduler');
    const configFile = path.join(work, 'kube-scheduler.yaml');
    fs.writeFileSync(configFile, [
      'apiVersion: kubescheduler.config.k8s.io/v1',
      'kind: KubeSchedulerConfiguration',
      `clientConnection: { kubeconfig: ${JSON.stringify(schedConfig)}${qps ? `, qps: ${qps}, burst: ${qps}` : ''} }`,
      'leaderElection: { leaderElect: false }',
      ...(schedulerName ? [`profiles: [ { schedulerName: ${JSON.stringify(schedulerName)} } ]`] : []),
      '',
    ].join('\n'));
    this.spawn('kube-scheduler', [
      `--config=${configFile}`, `--authentication-kubeconfig=${schedConfig}`, `--authorization-kubeconfig=${schedConfig}`,
      '--bind-address=127.0.0.1', `--secure-port=${schedPort}`, `--cert-dir=${path.join(work, 'scheduler-certs')}`,
    ]);
    const scheduler = this.procs[this.procs.length - 1];
    await waitHealthy('kube-scheduler /healthz', `https://127.0.0.1:${schedPort}/healthz`, scheduler, { rejectUnauthorized: false });
  }

  private async launch(): Promise<void> {
    const cmd = this.translate(mergeFlags(this.profile.flags, this.flags));
    const missing = missingBinaries(this.binDir);
    if (missing.length) throw new Error(`the upstream binaries are not built (no ${missing.join(', ')} in ${this.binDir}): run \`npm run upstream:build\``);
    const pki = this.pki();
    this.workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-upstream-'));
    const work = this.workDir;
    const [etcdClient, etcdPeer, kcmPort] = await Promise.all([freePort(), freePort(), freePort()]);
    // The secure port the scenario itself names (the kubernetes Service's targetPort shows it),
    // else any free one: the profile's default 6443 is not asked for, or every scenario of a
    // parallel run would compete for it and the one that names it could lose (found in the
    // second full run). Scenarios judging that default need @needs-api-server-defaults.
    const wanted = Number(this.flags['kube-apiserver']?.['secure-port'] ?? 0);
    const deadline = Date.now() + START_TIMEOUT_MS;
    const claim = async (): Promise<number> => {
      // Another scenario of this run may hold it for a while: wait for it, never settle for another.
      while (!(await portFree(wanted))) {
        if (Date.now() > deadline) throw new Error(`--secure-port=${wanted}, which the scenario names, stayed in use for ${START_TIMEOUT_MS / 1000} s (another process on this machine holds it)`);
        await new Promise((r) => setTimeout(r, 500));
      }
      return wanted;
    };
    let apiPort = wanted > 0 ? await claim() : await freePort();

    // etcd: one member, no fsync (a scratch store per scenario).
    const etcd = this.spawn('etcd', [
      '--name=kubespec', `--data-dir=${path.join(work, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdClient}`, `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`, `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=kubespec=http://127.0.0.1:${etcdPeer}`, '--unsafe-no-fsync', '--log-level=warn',
    ]);
    await waitHealthy('etcd', `http://127.0.0.1:${etcdClient}/health`, etcd, undefined);

    const startApiServer = async (apiPort: number) => {
    const server = `https://127.0.0.1:${apiPort}`;
    const apiserver = this.spawn('kube-apiserver', [
      `--etcd-servers=http://127.0.0.1:${etcdClient}`,
      '--bind-address=127.0.0.1', `--secure-port=${apiPort}`,
      `--cert-dir=${path.join(work, 'apiserver-certs')}`,
      `--tls-cert-file=${pki.file('apiserver.crt')}`, `--tls-private-key-file=${pki.file('apiserver.key')}`,
      `--client-ca-file=${pki.file('ca.crt')}`,
      `--service-account-key-file=${pki.file('sa.pub')}`, `--service-account-signing-key-file=${pki.file('sa.key')}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      '--allow-privileged=true',
      // Node,RBAC unless the scenario names its modes (a list flag: repeating it appends).
      ...(cmd.apiserver.some((a) => a.startsWith('--authorization-mode=')) ? [] : ['--authorization-mode=Node,RBAC']),
      ...cmd.apiserver,
    ]);
    const adminPair = pki.client('kubespec-admin', ['system:masters']);
    const tls: https.RequestOptions = { ca: pki.ca.certPem, cert: adminPair.certPem, key: adminPair.keyPem };
    await waitHealthy('kube-apiserver /readyz', `${server}/readyz`, apiserver, tls);
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
    this.api = KubeconfigClient.fromFile(adminFile, coreRegistry());
    this.endpoint = { server, secure: { host: '127.0.0.1', port: apiPort }, caFile: pki.file('ca.crt') };
    if (this.options.apiServerOnly) { await super.start(); return; }
    const kcmConfig = this.kubeconfig('kube-controller-manager', 'system:kube-controller-manager');
    const kcm = this.spawn('kube-controller-manager', [
      `--kubeconfig=${kcmConfig}`, `--authentication-kubeconfig=${kcmConfig}`, `--authorization-kubeconfig=${kcmConfig}`,
      ...(cmd.kcm.some((a) => a.startsWith('--leader-elect=')) ? [] : ['--leader-elect=false']),
      '--bind-address=127.0.0.1', `--secure-port=${kcmPort}`,
      `--cert-dir=${path.join(work, 'kcm-certs')}`,
      '--use-service-account-credentials=true', `--service-account-private-key-file=${pki.file('sa.key')}`,
      `--root-ca-file=${pki.file('ca.crt')}`,
      `--cluster-signing-cert-file=${pki.file('ca.crt')}`, `--cluster-signing-key-file=${pki.file('ca.key')}`,
      ...cmd.kcm,
    ]);
    // /healthz is always allowed; their serving certificates are self-signed.
    await waitHealthy('kube-controller-manager /healthz', `https://127.0.0.1:${kcmPort}/healthz`, kcm, { rejectUnauthorized: false });
    await this.startScheduler(cmd.schedulerName);

    // The controllers run once the service-account controller has made the default account.
    await this.waitReady('the controller manager (default/default ServiceAccount)', async () => {
      try { await this.api.get({ resource: 'serviceaccounts', namespace: 'default' }, 'default'); return true; } catch { return false; }
    }, kcm);
    await super.start();
  }

  private async waitReady(what: string, check: () => Promise<boolean>, proc: Proc): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await check())) {
      if (proc.exited) throw new Error(`${proc.exited} while waiting for ${what}\n${proc.tail()}`);
      if (Date.now() > deadline) throw new Error(`${what} not ready after ${START_TIMEOUT_MS / 1000}s\n${proc.tail()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
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
      if (this.workDir && !process.env.KUBESPEC_UPSTREAM_KEEP) fs.rmSync(this.workDir, { recursive: true, force: true });
    }
    if (tail && !this.startError) throw new Error(tail);
  }
}

import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { WatchedProcess } from '../../util/process';

/** Where `npm run upstream:build` puts the binaries (KUBESPEC_UPSTREAM_CACHE overrides the cache). */
export function upstreamBinDir(): string {
  const cache = process.env.KUBESPEC_UPSTREAM_CACHE ?? path.join(os.homedir(), '.cache', 'kubespec-upstream');
  return path.join(cache, 'bin');
}

const BINARIES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;
/** Ours (upstream/ccm), started only for the scenarios that name a cloud. */
export const CLOUD_CONTROLLER_MANAGER = 'cloud-controller-manager';
export type Binary = (typeof BINARIES)[number] | typeof CLOUD_CONTROLLER_MANAGER;

/** The binaries every scenario of the target needs that are not in binDir. */
export function missingBinaries(binDir = upstreamBinDir()): string[] {
  return BINARIES.filter((b) => !fs.existsSync(path.join(binDir, b)));
}

/**
 * One running component of a control plane, wherever it runs: a process on this machine
 * (WatchedProcess) or a container of upstream/image/ (container/components.ts).
 */
export interface Component {
  readonly name: string;
  /** Why it ended unbidden, if it did. */
  readonly exited?: string;
  /** The last lines of its output, headed with where its log is. */
  tail(): string;
  /** Polls `ready` until true; fails at once when it ends, or after timeoutMs, with its tail. */
  waitUntil(what: string, ready: () => Promise<boolean | string>, timeoutMs: number): Promise<void>;
  /** SIGTERM, SIGKILL after a grace period; an exit now is no failure. */
  stop(): Promise<void>;
  /** SIGKILL at once, as a crash would (a restart judges what survives it). */
  kill(): Promise<void>;
  /** Whether it keeps this process's event loop alive (an idle control plane kept for later must not). */
  ref(): void;
  unref(): void;
}

/**
 * Where the upstream target runs its components. Every path and port in their command lines
 * means the same to the component as to the driver, so the driver writes its files (PKI,
 * kubeconfigs, audit policy), reads theirs (audit log, logs) and dials their loopback ports
 * the same way whatever runs them.
 */
export interface ComponentRunner {
  /** Throws, saying what to do, when the four components cannot be started (not built, no image). */
  check(): Promise<void>;
  /** Whether our cloud-controller-manager can be started beside them (its build is optional). */
  readonly cloudControllerManager: boolean;
  /**
   * Whether a control plane may outlive its scenario, idle, for the next (upstream/pool.ts):
   * only what this process's exit ends by itself may (a process group does; a container does not).
   */
  readonly reusable: boolean;
  /**
   * Whether it can run an HA pair of masters on one etcd (capability apiServerPair): a second
   * kube-apiserver, kube-controller-manager and kube-scheduler, each master's SIGKILLed by PID.
   */
  readonly apiServerPair: boolean;
  /** Starts one component with its output in `<workDir>/<name>.log`. */
  start(workDir: string, name: Binary, args: string[]): Component;
}

/**
 * A kube-controller-manager (or kube-scheduler, or ours) exiting on a lost leader lock does so
 * by design (OnStoppedLeading: "leaderelection lost"; a supervisor restarts them): that is the
 * behaviour a leader-election scenario judges, not a crash.
 */
export function exitIsDesign(name: Binary): ((output: string) => boolean) | undefined {
  return name === 'etcd' || name === 'kube-apiserver' ? undefined : (out) => /leaderelection lost/.test(out);
}

/** The components as processes of this machine, from the binaries in binDir. */
export function processRunner(binDir = upstreamBinDir()): ComponentRunner {
  return {
    check: async () => {
      const missing = missingBinaries(binDir);
      if (missing.length)
        throw new Error(
          `the upstream binaries are not built (no ${missing.join(', ')} in ${binDir}): run \`npm run upstream:build\``,
        );
    },
    cloudControllerManager: fs.existsSync(path.join(binDir, CLOUD_CONTROLLER_MANAGER)),
    reusable: true,
    apiServerPair: true,
    start: (workDir, name, args) => startComponent(binDir, workDir, name, args),
  };
}

/**
 * One upstream component, started in its own process group (so stopping it ends anything it
 * started, and so does this process's exit) with its output in `<workDir>/<name>.log`, whose
 * tail a failure shows.
 */
function startComponent(binDir: string, workDir: string, name: Binary, args: string[]): WatchedProcess {
  const bin = path.join(binDir, name);
  if (!fs.existsSync(bin))
    throw new Error(
      `no ${name} in ${binDir}: run \`npm run upstream:build\` first (KUBESPEC_UPSTREAM_CACHE sets the cache)`,
    );
  return new WatchedProcess(name, bin, args, {
    logFile: path.join(workDir, `${name}.log`),
    group: true,
    exitIsDesign: exitIsDesign(name),
  });
}

/** GET url once: true on 200, else what it answered (for the error when it never does). */
/**
 * answers200 for a component's /healthz, answered by that component itself: the TLS peer must
 * present the self-signed serving certificate the component wrote into its own --cert-dir
 * (`certFile`; not there yet: not ready). A 200 alone was not enough: with 20 control planes
 * starting at once, another one's kube-scheduler took the port between freePort() and this
 * one's bind and answered the health check; this one exited a second later ("bind: address
 * already in use") and failed the scenario instead of being started again on another port.
 */
export function answers200AsItself(url: string, certFile: string): Promise<true | string> {
  let ca: Buffer;
  try {
    ca = fs.readFileSync(certFile);
  } catch (e) {
    return Promise.resolve(`no serving certificate yet (${(e as Error).message})`);
  }
  // The chain is what tells the components apart; their names (localhost, 127.0.0.1) are the same.
  return answers200(url, { ca, checkServerIdentity: () => undefined });
}

export function answers200(url: string, tls?: https.RequestOptions): Promise<true | string> {
  return new Promise((resolve) => {
    const mod = url.startsWith('https:') ? https : http;
    const req = mod.get(url, { ...(tls ?? {}), timeout: 5000 }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve(res.statusCode === 200 ? true : `${res.statusCode}: ${body.slice(0, 500)}`));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve(e.message));
  });
}

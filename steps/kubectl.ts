import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import yaml from 'js-yaml';
import { Credentials, NotApplicableError } from '../src/drivers';
import { KubectlResult, KubectlState, KubeWorld } from './world';
import { splitShellWords } from '../src/util/shell-words';

/**
 * Runs the installed kubectl, unmodified, against the target's API server: a private HOME
 * and discovery cache per scenario (kubectl caches discovery per host:port for hours), a
 * kubeconfig from the driver. A step waits for kubectl to exit, then for the cluster to
 * come to rest.
 */
export type { KubectlResult };

export function kubectlState(world: KubeWorld): KubectlState {
  if (!world.kubectl) {
    world.kubectl = { dir: fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-kubectl-')) };
    fs.mkdirSync(path.join(world.kubectl.dir, 'home'));
  }
  return world.kubectl;
}

export function cleanupKubectl(world: KubeWorld): void {
  const s = world.kubectl;
  if (!s) return;
  s.background?.child.kill();
  fs.rmSync(s.dir, { recursive: true, force: true });
  world.kubectl = undefined;
}

/** The oldest kubectl whose output the kubectl features were written against. */
export const KUBECTL_MIN_MINOR = 30;
let kubectlMinor: number | undefined | null;

/** kubectl's client minor version, or undefined when there is no kubectl on PATH. */
function installedKubectlMinor(): number | undefined {
  if (kubectlMinor === null) return undefined;
  if (kubectlMinor !== undefined) return kubectlMinor;
  const r = spawnSync('kubectl', ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  const minor = r.status === 0 ? Number(/"minor":\s*"(\d+)/.exec(r.stdout)?.[1]) : NaN;
  kubectlMinor = Number.isNaN(minor) ? null : minor;
  return kubectlMinor ?? undefined;
}

/** How a kubectl run differs from the plain one. */
export interface KubectlOptions {
  /** drop the cluster's CA from the kubeconfig: kubectl then trusts only the system's roots */
  withoutClusterCA?: boolean;
  /** bytes on its stdin */
  input?: string;
  /** environment variables added (e.g. KUBECTL_REMOTE_COMMAND_WEBSOCKETS) */
  env?: Record<string, string>;
}

/** A copy of a kubeconfig without certificate-authority(-data) in any cluster entry. */
function withoutCA(kubeconfig: string, dir: string): string {
  const doc = yaml.load(fs.readFileSync(kubeconfig, 'utf8')) as { clusters?: { cluster?: Record<string, unknown> }[] };
  for (const c of doc.clusters ?? []) {
    if (!c.cluster) continue;
    delete c.cluster['certificate-authority-data'];
    delete c.cluster['certificate-authority'];
  }
  const out = path.join(dir, 'no-cluster-ca.kubeconfig');
  fs.writeFileSync(out, yaml.dump(doc), { mode: 0o600 });
  return out;
}

async function prepare(
  world: KubeWorld,
  command: string,
  credentials: Credentials,
  options: KubectlOptions = {},
): Promise<{ args: string[]; env: NodeJS.ProcessEnv; cwd: string }> {
  const minor = installedKubectlMinor();
  if (minor === undefined)
    throw new NotApplicableError('no kubectl on PATH (install kubectl ≥ 1.30 to run the kubectl features)');
  if (minor < KUBECTL_MIN_MINOR)
    throw new NotApplicableError(
      `the kubectl features expect kubectl ≥ 1.${KUBECTL_MIN_MINOR}'s output; this machine has 1.${minor}`,
    );
  const cluster = await world.cluster();
  if (!cluster.http) throw new NotApplicableError(`target ${cluster.target} does not serve HTTP`);
  const [bin, ...args] = splitShellWords(command);
  if (bin !== 'kubectl') throw new Error(`only kubectl commands run here, got "${bin}"`);
  const s = kubectlState(world);
  const given = await cluster.http.kubeconfig(credentials);
  const kubeconfig = options.withoutClusterCA ? withoutCA(given, s.dir) : given;
  const env = {
    PATH: process.env.PATH,
    HOME: path.join(s.dir, 'home'),
    KUBECONFIG: kubeconfig,
    KUBECACHEDIR: path.join(s.dir, 'cache'),
  };
  return { args, env, cwd: s.dir };
}

/** The longest one kubectl command may run (inside the steps' 90 s timeout). */
const KUBECTL_LIMIT_MS = 60_000;
/** How long a stopped kubectl may take to print its goroutines before it is killed, and how much of them a failure shows. */
const KUBECTL_DUMP_MS = 3_000;
const KUBECTL_DUMP_CHARS = 20_000;

export async function runKubectl(
  world: KubeWorld,
  command: string,
  credentials: Credentials = { admin: true },
  options: KubectlOptions = {},
): Promise<KubectlResult> {
  const prepared = await prepare(world, command, credentials, options);
  const { args, cwd } = prepared;
  const env = { ...prepared.env, ...options.env };
  const started = Date.now();
  const result = await new Promise<KubectlResult>((resolve, reject) => {
    const child = spawn('kubectl', args, {
      env,
      cwd,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    // A kubectl that does not end (a stream that never closes) is stopped by its PID and the
    // step fails saying so, instead of a check failing later on a half output. SIGQUIT first:
    // a Go program prints every goroutine's stack as it exits, which shows what it waited on
    // (a request kube-apiserver never answered hung one for 60 s in the twenty-third full run).
    let timedOut = false;
    let kill: NodeJS.Timeout | undefined;
    const guard = setTimeout(() => {
      timedOut = true;
      child.kill('SIGQUIT');
      kill = setTimeout(() => child.kill('SIGKILL'), KUBECTL_DUMP_MS);
    }, KUBECTL_LIMIT_MS);
    child.on('error', (e) => {
      clearTimeout(guard);
      clearTimeout(kill);
      reject(new Error(`could not run kubectl: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(guard);
      clearTimeout(kill);
      if (timedOut)
        reject(
          new Error(
            `"${command}" did not end within ${KUBECTL_LIMIT_MS / 1000} s and was stopped (pid ${child.pid}; SIGQUIT, its goroutines below); stdout:\n${stdout}\nstderr:\n${stderr.slice(0, KUBECTL_DUMP_CHARS)}`,
          ),
        );
      else resolve({ command, code, stdout, stderr, ms: Date.now() - started });
    });
  });
  kubectlState(world).last = result;
  await (await world.cluster()).advance(0); // the cluster reacts to what kubectl did, then rests
  return result;
}

export async function startKubectl(world: KubeWorld, command: string, options: KubectlOptions = {}): Promise<void> {
  const prepared = await prepare(world, command, { admin: true });
  const { args, cwd } = prepared;
  const env = { ...prepared.env, ...options.env };
  const s = kubectlState(world);
  if (s.background) throw new Error('a kubectl already runs in the background');
  const child = spawn('kubectl', args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: string[] = [];
  child.stdout.on('data', (d) => out.push(String(d)));
  child.stderr.on('data', (d) => out.push(String(d)));
  s.background = { child, out };
}

/**
 * Waits (real time: kubectl is another process) until the background kubectl has printed a
 * line matching the pattern. Fails with what it printed. 60 s, as long as a foreground kubectl
 * may run: at load 40 (upstream, thirteenth full run) `kubectl port-forward` printed nothing in 15 s.
 */
export async function backgroundPrints(world: KubeWorld, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const s = kubectlState(world);
  if (!s.background) throw new Error('no kubectl runs in the background');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = s.background.out.join('').split('\n');
    const hit = lines.find((l) => pattern.test(l));
    if (hit) return hit;
    if (Date.now() > deadline || s.background.child.exitCode !== null) {
      throw new Error(
        `the background kubectl printed no line matching ${pattern}; it printed:\n${s.background.out.join('')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Reads kubectl's column output into rows keyed by header (columns split at the header's offsets). */
export function parseColumns(text: string): { header: string[]; rows: Record<string, string>[] } {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return { header: [], rows: [] };
  const head = lines[0];
  const starts: number[] = [];
  const header: string[] = [];
  const re = /\S+(?: \S+)*/g;
  for (let m = re.exec(head); m; m = re.exec(head)) {
    starts.push(m.index);
    header.push(m[0]);
  }
  const rows = lines.slice(1).map((line) => {
    const row: Record<string, string> = {};
    header.forEach((h, i) => {
      row[h] = line.slice(starts[i], i + 1 < starts.length ? starts[i + 1] : undefined).trim();
    });
    return row;
  });
  return { header, rows };
}

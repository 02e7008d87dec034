import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { parseDuration } from '../api/duration';
import { COMPONENTS, Component, Flags } from '../profile/profile';
import { parseFlags } from '../profile/flags';

/**
 * What a target declares about itself: the profile it follows, the flags it runs with,
 * what the suite may do to it, and how long a scenario may take there.
 */
export interface TargetDeclaration {
  name: string;
  profile: string;
  description: string;
  configurableFlags: boolean;
  capabilities: { virtualTime: boolean; hollowKubelets: boolean; cloudProvider: boolean };
  /**
   * The cluster outlives the run and may be shared (default): each scenario's names are its
   * own, it sees only its own nodes, and it removes what it made (ScopedDriver).
   */
  shared: boolean;
  /** Longest (real) time one scenario may need, ms. */
  maxScenarioTimeMs: number;
  flags: Flags;
  /** The store `kubespec serve` keeps its objects in (serve target): sqlite (default, as `kubespec serve`), memory or etcd. */
  store: 'memory' | 'sqlite' | 'etcd';
  /** The container target: the image that runs the control plane and how (absent elsewhere). */
  container?: ContainerSpec;
}

/**
 * A control plane in a container image (the container target, src/drivers/container.ts): what
 * to start, how to know it is ready, and where its kubeconfig is inside.
 */
export interface ContainerSpec {
  /** An image by name (pulled when missing and the engine can), or … */
  image?: string;
  /** … a directory with a Dockerfile, built at start (absolute; written relative to the declaration). */
  build?: string;
  /** Arguments to the image's entrypoint (its CMD when empty). */
  command: string[];
  env: Record<string, string>;
  /** Absolute path of the admin kubeconfig inside the container, copied out once it is there. */
  kubeconfig: string;
  readiness: {
    /** A line of the container's output (a regular expression) that says the control plane started. */
    log?: string;
    /** Then its API server's /readyz answers 200 (with the kubeconfig's credentials). */
    readyz: boolean;
    /** Then the default ServiceAccount exists (the controller manager runs its controllers). */
    defaultServiceAccount: boolean;
    timeoutMs: number;
  };
  /** Container ports published on loopback (network bridge), the API server's among them. */
  ports: number[];
  /** host: the container shares this machine's loopback (no port mapping); bridge: Docker's default network. */
  network: 'host' | 'bridge';
  privileged: boolean;
  /** Paths inside the container mounted as tmpfs (k3s wants /run). */
  tmpfs: string[];
  /** run: one container for the whole run, judged as a long-lived cluster (fixed flags, scoped names); scenario: a fresh one per scenario, started with the scenario's flags. */
  mode: 'run' | 'scenario';
  /**
   * The image runs upstream's four components with the command lines it is given (upstream/image/):
   * KUBESPEC_*_ARGS from src/drivers/upstream/commands.ts, the PKI copied into /etc/kubespec/pki.
   */
  upstreamComponents: boolean;
}

export const TARGET_DIR = path.resolve(__dirname, '../../targets');

export function loadTargetDeclaration(nameOrPath: string): TargetDeclaration {
  const file = nameOrPath.endsWith('.yaml') ? nameOrPath : path.join(TARGET_DIR, `${nameOrPath}.yaml`);
  if (!fs.existsSync(file)) throw new Error(`no target declaration ${file}`);
  const doc = yaml.load(fs.readFileSync(file, 'utf8')) as Record<string, unknown> | undefined;
  const where = path.relative(process.cwd(), file) || file;
  const need = (cond: unknown, what: string) => {
    if (!cond) throw new Error(`${where}: ${what}`);
  };
  need(doc && typeof doc === 'object', 'not a YAML mapping');
  need(typeof doc!.name === 'string', 'missing "name"');
  need(typeof doc!.profile === 'string', 'missing "profile"');
  need(typeof doc!.configurableFlags === 'boolean', '"configurableFlags" must be true or false');
  const caps = (doc!.capabilities ?? {}) as Record<string, unknown>;
  for (const k of ['virtualTime', 'hollowKubelets', 'cloudProvider'])
    need(typeof caps[k] === 'boolean', `capabilities.${k} must be true or false`);
  need(doc!.shared === undefined || typeof doc!.shared === 'boolean', '"shared" must be true or false');
  const flags: Flags = {};
  for (const [c, f] of Object.entries((doc!.flags ?? {}) as Record<string, Record<string, unknown>>)) {
    need(COMPONENTS.includes(c as Component), `flags: unknown component "${c}"`);
    flags[c as Component] = Object.fromEntries(Object.entries(f ?? {}).map(([k, v]) => [k, String(v)]));
  }
  parseFlags(flags); // unknown names and bad values fail here, not mid-run
  need(
    doc!.store === undefined || ['memory', 'sqlite', 'etcd'].includes(doc!.store as string),
    '"store" must be memory, sqlite or etcd',
  );
  const container = doc!.container === undefined ? undefined : containerSpec(doc!.container, file, need);
  if (container) {
    need(
      container.mode === 'run' ? !doc!.configurableFlags : !!doc!.configurableFlags,
      container.mode === 'run'
        ? 'container.mode run starts one container with fixed flags: "configurableFlags" must be false'
        : 'container.mode scenario starts each scenario with its flags: "configurableFlags" must be true',
    );
  }
  return {
    name: doc!.name as string,
    profile: doc!.profile as string,
    description: String(doc!.description ?? ''),
    configurableFlags: doc!.configurableFlags as boolean,
    capabilities: caps as TargetDeclaration['capabilities'],
    shared: doc!.shared === undefined ? true : (doc!.shared as boolean),
    maxScenarioTimeMs: doc!.maxScenarioTime ? parseDuration(String(doc!.maxScenarioTime)) : 10 * 60_000,
    flags,
    store: (doc!.store as TargetDeclaration['store'] | undefined) ?? 'sqlite',
    ...(container ? { container } : {}),
  };
}

const CONTAINER_FIELDS = [
  'image',
  'build',
  'command',
  'env',
  'kubeconfig',
  'readiness',
  'ports',
  'network',
  'privileged',
  'tmpfs',
  'mode',
  'upstreamComponents',
];

/** The `container:` block, checked field by field (a typo fails here, not after the image started). */
function containerSpec(raw: unknown, file: string, need: (cond: unknown, what: string) => void): ContainerSpec {
  need(raw && typeof raw === 'object' && !Array.isArray(raw), '"container" must be a mapping');
  const c = raw as Record<string, unknown>;
  for (const k of Object.keys(c))
    need(CONTAINER_FIELDS.includes(k), `container: unknown field "${k}" (known: ${CONTAINER_FIELDS.join(', ')})`);
  need(
    (c.image === undefined) !== (c.build === undefined),
    'container: give "image" (a name) or "build" (a directory with a Dockerfile), one of them',
  );
  need(
    c.image === undefined || (typeof c.image === 'string' && c.image !== ''),
    'container.image must be an image name',
  );
  need(c.build === undefined || (typeof c.build === 'string' && c.build !== ''), 'container.build must be a directory');
  const build = c.build === undefined ? undefined : path.resolve(path.dirname(file), c.build as string);
  if (build) need(fs.existsSync(path.join(build, 'Dockerfile')), `container.build: no Dockerfile in ${build}`);
  const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number');
  need(c.command === undefined || strings(c.command), 'container.command must be a list of arguments');
  need(
    c.env === undefined || (c.env && typeof c.env === 'object' && !Array.isArray(c.env)),
    'container.env must be a mapping of NAME: value',
  );
  need(
    typeof c.kubeconfig === 'string' && c.kubeconfig.startsWith('/'),
    'container.kubeconfig must be the absolute path of the admin kubeconfig inside the container',
  );
  const r = (c.readiness ?? {}) as Record<string, unknown>;
  need(typeof r === 'object' && !Array.isArray(r), 'container.readiness must be a mapping');
  for (const k of Object.keys(r))
    need(
      ['log', 'readyz', 'defaultServiceAccount', 'timeout'].includes(k),
      `container.readiness: unknown field "${k}" (known: log, readyz, defaultServiceAccount, timeout)`,
    );
  need(r.log === undefined || typeof r.log === 'string', 'container.readiness.log must be a regular expression');
  if (typeof r.log === 'string') {
    try {
      new RegExp(r.log);
    } catch (e) {
      need(false, `container.readiness.log: ${(e as Error).message}`);
    }
  }
  for (const k of ['readyz', 'defaultServiceAccount'])
    need(r[k] === undefined || typeof r[k] === 'boolean', `container.readiness.${k} must be true or false`);
  need(
    r.log !== undefined || r.readyz === true,
    'container.readiness: say how readiness is known: "log" (a line of its output) and/or "readyz: true"',
  );
  let timeoutMs = 3 * 60_000;
  if (r.timeout !== undefined) {
    try {
      timeoutMs = parseDuration(String(r.timeout));
    } catch (e) {
      need(false, `container.readiness.timeout: ${(e as Error).message}`);
    }
  }
  const ports = (c.ports ?? []) as unknown[];
  need(
    Array.isArray(ports) && ports.every((p) => Number.isInteger(p) && (p as number) > 0 && (p as number) < 65536),
    'container.ports must be a list of port numbers',
  );
  const network = c.network ?? 'host';
  need(network === 'host' || network === 'bridge', 'container.network must be host or bridge');
  need(
    network === 'host' || ports.length > 0,
    'container.network bridge needs "ports" (the API server\'s port at least, published on loopback)',
  );
  need(c.privileged === undefined || typeof c.privileged === 'boolean', 'container.privileged must be true or false');
  need(c.tmpfs === undefined || strings(c.tmpfs), 'container.tmpfs must be a list of paths');
  const mode = c.mode ?? 'run';
  need(
    mode === 'run' || mode === 'scenario',
    'container.mode must be run (one container for the run) or scenario (one per scenario)',
  );
  need(
    c.upstreamComponents === undefined || typeof c.upstreamComponents === 'boolean',
    'container.upstreamComponents must be true or false',
  );
  need(
    mode === 'run' || c.upstreamComponents === true,
    'container.mode scenario needs "upstreamComponents: true": the scenario\'s flags reach the image as upstream\'s command lines',
  );
  need(
    !(c.upstreamComponents === true && network !== 'host'),
    'container.upstreamComponents runs the components on loopback ports of this machine: "network" must be host',
  );
  return {
    ...(c.image !== undefined ? { image: c.image as string } : {}),
    ...(build ? { build } : {}),
    command: ((c.command ?? []) as unknown[]).map(String),
    env: Object.fromEntries(Object.entries((c.env ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)])),
    kubeconfig: c.kubeconfig as string,
    readiness: {
      ...(typeof r.log === 'string' ? { log: r.log } : {}),
      readyz: r.readyz === true,
      defaultServiceAccount: r.defaultServiceAccount === true,
      timeoutMs,
    },
    ports: ports as number[],
    network: network as ContainerSpec['network'],
    privileged: c.privileged === true,
    tmpfs: ((c.tmpfs ?? []) as unknown[]).map(String),
    mode: mode as ContainerSpec['mode'],
    upstreamComponents: c.upstreamComponents === true,
  };
}

/**
 * The flags a scenario asks for that a fixed target does not run with: each becomes a
 * not-applicable reason. Values are compared by meaning (40s = 0m40s).
 */
export function unmetFlags(declared: Flags, wanted: Flags): string[] {
  const d = parseFlags(declared);
  const w = parseFlags(wanted);
  const out: string[] = [];
  for (const c of COMPONENTS) {
    for (const [flag, value] of Object.entries(w[c] as Record<string, unknown>)) {
      const have = (d[c] as Record<string, unknown>)[flag];
      if (have === undefined) out.push(`--${flag}=${wanted[c]![flag]} (the target does not declare its value)`);
      else if (have !== value) out.push(`--${flag}=${wanted[c]![flag]} (it runs with ${declared[c]![flag]})`);
    }
  }
  return out;
}

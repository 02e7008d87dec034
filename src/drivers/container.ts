import * as fs from 'node:fs';
import * as path from 'node:path';
import { coreRegistry } from '../api/resources';
import { KubeconfigClient } from '../client/kubeconfig';
import { loadProfile, mergeFlags } from '../profile/profile';
import { ContainerSpec, loadTargetDeclaration, TargetDeclaration } from './targets';
import { ContainerEngine, StartedContainer, testcontainersEngine } from './container/engine';
import { launchContainer } from './container/launch';
import { upstreamImageInputs } from './container/upstream-image';
import { translateFlags } from './upstream/flags';
import { freePort } from '../util/ports';

/**
 * The container target's life cycle: a control plane in a container image (a target
 * declaration's `container:` block) is started, known ready, its kubeconfig copied out, and
 * stopped and removed afterwards — after the scenario or the run, also when it failed, timed
 * out, or the process got SIGINT/SIGTERM. Per run it is judged as any long-lived cluster
 * (`kube`, scoped names). Per scenario, upstream/image/ is the upstream target with its
 * components in containers (container/components.ts).
 */

export class NoContainerRuntimeError extends Error {
  constructor(reason: string) {
    super(
      `no container runtime reachable: ${reason}; use --target kube --kubeconfig <file> to judge a cluster you started yourself`,
    );
  }
}

export class ImageMissingError extends Error {}
export class ContainerExitedError extends Error {}
export class ReadinessTimeoutError extends Error {}

/** How many of its last output lines an error about a container shows. */
const TAIL_LINES = 30;

/** Throws NoContainerRuntimeError, with the engine's reason, when no engine answers. */
export async function requireContainerRuntime(engine: ContainerEngine): Promise<void> {
  try {
    await engine.probe();
  } catch (e) {
    throw new NoContainerRuntimeError((e as Error).message || String(e));
  }
}

let defaultEngine: Promise<ContainerEngine> | undefined;
/** testcontainers, loaded when a container target first needs it. */
export function containerEngine(): Promise<ContainerEngine> {
  defaultEngine ??= testcontainersEngine();
  return defaultEngine;
}

/** The image a declaration starts: its name, or the tag its build directory is built as. */
export function imageOf(spec: ContainerSpec): string {
  return (
    spec.image ??
    `kubespec-local/${path
      .basename(spec.build!)
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '-')}:latest`
  );
}

/**
 * Makes sure the image is there: built from its directory, or present. A missing image this
 * project builds (upstreamComponents) says how to build it; another is left to the engine to
 * pull at start, whose failure then says it is missing.
 */
const built = new Set<string>();

export async function ensureImage(spec: ContainerSpec, engine: ContainerEngine): Promise<string> {
  const image = imageOf(spec);
  if (spec.build) {
    // Once per process: the run checks it before the scenarios, which then find it built.
    if (built.has(spec.build)) return image;
    try {
      await engine.build(spec.build, image);
      built.add(spec.build);
    } catch (e) {
      throw new ImageMissingError(`image ${image}: building ${spec.build}/Dockerfile failed: ${(e as Error).message}`);
    }
    return image;
  }
  if (spec.upstreamComponents && !(await engine.hasImage(image)))
    throw new ImageMissingError(
      `image ${image} is missing: not on this engine; build it with \`npm run image:build\` (upstream/image/build.sh, after \`npm run upstream:build\`)`,
    );
  return image;
}

// ── One container ─────────────────────────────────────────────────────────────────────────

export interface RunningControlPlane {
  readonly container: StartedContainer;
  /** The kubeconfig file copied out (its server reached from this machine). */
  readonly kubeconfigFile: string;
  /** Why it stopped on its own, with its last lines, once it did. */
  exited(): string | undefined;
  /** Its last output lines. */
  tail(): string;
  /** Stops and removes it (once; later calls wait for the first). */
  stop(): Promise<void>;
}

export interface StartOptions {
  engine: ContainerEngine;
  /** Where the kubeconfig copied out is written. */
  kubeconfigFile: string;
  /** Added to the declaration's environment and files (the upstream image's command lines and PKI). */
  env?: Record<string, string>;
  files?: { target: string; content: string; mode?: number }[];
  /** How often readiness is checked, ms. */
  pollMs?: number;
}

/** The kubeconfig with its server's port the one this machine reaches it on (bridge: the published port). */
export function reachableKubeconfig(text: string, hostPort: (port: number) => number): string {
  return text.replace(
    /(server:\s*https?:\/\/)([^:/\s]+)(?::(\d+))?/,
    (_all, scheme: string, _host: string, port?: string) => {
      const inside = Number(port ?? (scheme.includes('https') ? 443 : 80));
      return `${scheme}127.0.0.1:${hostPort(inside)}`;
    },
  );
}

/**
 * Starts the declared container and waits until it is ready (its log line, its kubeconfig,
 * then /readyz and the default ServiceAccount when declared), within readiness.timeout. Fails
 * with what happened: the image missing, the container exited (its last lines), readiness
 * timed out (what it waited for, its last lines). A container that did not get ready is removed.
 */
export async function startControlPlane(spec: ContainerSpec, options: StartOptions): Promise<RunningControlPlane> {
  const { engine } = options;
  await requireContainerRuntime(engine);
  const image = await ensureImage(spec, engine);
  const lines: string[] = [];
  const logPattern = spec.readiness.log ? new RegExp(spec.readiness.log) : undefined;
  let logSeen = !logPattern;
  let ended = false;
  let container: StartedContainer;
  const tail = () => lines.slice(-TAIL_LINES).join('\n');
  // Removed on a signal too, even mid-start (container/launch.ts).
  const launched = launchContainer(engine, {
    image,
    command: spec.command,
    env: { ...spec.env, ...options.env },
    network: spec.network,
    ports: spec.ports,
    privileged: spec.privileged,
    tmpfs: spec.tmpfs,
    files: options.files ?? [],
    labels: {},
    onLine: (line) => {
      lines.push(line);
      if (lines.length > 4 * TAIL_LINES) lines.splice(0, lines.length - TAIL_LINES);
      if (!logSeen && logPattern!.test(line)) logSeen = true;
    },
    onEnd: () => {
      ended = true;
    },
  });
  const remove = launched.remove;
  try {
    try {
      container = await launched.started;
    } catch (e) {
      const reason = (e as Error).message;
      if (/pull|not found|no such image|manifest unknown|repository does not exist/i.test(reason))
        throw new ImageMissingError(`image ${image} is missing: not on this engine, and pulling it failed: ${reason}`);
      throw new Error(`container from ${image} did not start: ${reason}${lines.length ? `\n${tail()}` : ''}`);
    }
    const started = container;
    const deadline = Date.now() + spec.readiness.timeoutMs;
    let waitingFor = logPattern ? `its log line /${spec.readiness.log}/` : 'its kubeconfig';
    let lastAnswer = '';
    const exitedError = async (): Promise<string | undefined> => {
      const code = ended ? ((await started.exitCode()) ?? 'unknown') : await started.exitCode();
      if (code === undefined) return undefined;
      return `container from ${image} exited (status ${code}) before it was ready; its last lines:\n${tail()}`;
    };
    for (;;) {
      const exited = await exitedError();
      if (exited) throw new ContainerExitedError(exited);
      if (logSeen) {
        waitingFor = `its kubeconfig ${spec.kubeconfig}`;
        const text = await started.readFile(spec.kubeconfig);
        if (text) {
          fs.writeFileSync(
            options.kubeconfigFile,
            reachableKubeconfig(text, (p) => started.hostPort(p)),
            {
              mode: 0o600,
            },
          );
          const answer = await readinessAnswer(spec, options.kubeconfigFile);
          if (answer.ready) break;
          waitingFor = answer.waitingFor;
          lastAnswer = answer.last;
        }
      }
      if (Date.now() > deadline)
        throw new ReadinessTimeoutError(
          `container from ${image} was not ready within ${spec.readiness.timeoutMs / 1000} s: waiting for ${waitingFor}${lastAnswer ? ` (last answer: ${lastAnswer})` : ''}; its last lines:\n${tail()}`,
        );
      await new Promise((r) => setTimeout(r, options.pollMs ?? 250));
    }
    return {
      container: started,
      kubeconfigFile: options.kubeconfigFile,
      exited: () => (ended ? `container from ${image} exited; its last lines:\n${tail()}` : undefined),
      tail,
      stop: remove,
    };
  } catch (e) {
    await remove().catch((err: Error) => {
      throw new Error(`${(e as Error).message}\n(and removing the container failed: ${err.message})`);
    });
    throw e;
  }
}

/** Whether the API server behind the kubeconfig answers as declared (readyz, default ServiceAccount). */
async function readinessAnswer(
  spec: ContainerSpec,
  kubeconfigFile: string,
): Promise<{ ready: boolean; waitingFor: string; last: string }> {
  const client = KubeconfigClient.fromFile(kubeconfigFile, coreRegistry({ endpointSlices: true }));
  const steps: [boolean, string, () => Promise<unknown>][] = [
    [spec.readiness.readyz, `${client.server}/readyz`, () => client.request('GET', '/readyz')],
    [
      spec.readiness.defaultServiceAccount,
      'the default ServiceAccount (the controller manager)',
      () => client.get({ resource: 'serviceaccounts', namespace: 'default' }, 'default'),
    ],
  ];
  for (const [wanted, what, check] of steps) {
    if (!wanted) continue;
    try {
      await check();
    } catch (e) {
      return { ready: false, waitingFor: what, last: (e as Error).message.slice(0, 300) };
    }
  }
  return { ready: true, waitingFor: '', last: '' };
}

/** The container block of a declaration, or an error saying the declaration has none. */
export function containerSpecOf(declaration: TargetDeclaration): ContainerSpec {
  if (!declaration.container)
    throw new Error(
      `target declaration "${declaration.name}" has no "container:" block (see README, "Judge a distribution from its image")`,
    );
  return declaration.container;
}

/**
 * Starts the container of a declaration with its fixed flags: what `kubespec run` does once for
 * a run in mode run. An upstream-components image gets the command lines of the profile's
 * defaults and the declaration's flags, on free loopback ports.
 */
export async function startForRun(
  declaration: TargetDeclaration,
  kubeconfigFile: string,
  engine: ContainerEngine,
): Promise<RunningControlPlane> {
  const spec = containerSpecOf(declaration);
  let env: Record<string, string> | undefined;
  let files: StartOptions['files'];
  if (spec.upstreamComponents) {
    const profileFlags = loadProfile(declaration.profile).flags;
    const all = mergeFlags(profileFlags, declaration.flags);
    const ports = await upstreamPorts();
    ({ env, files } = upstreamImageInputs(translateFlags(all, declaration.flags, profileFlags), ports));
  }
  return startControlPlane(spec, { engine, kubeconfigFile, env, files });
}

/** Free loopback ports for the upstream image's five listeners (the host network is this machine's). */
export async function upstreamPorts(apiserver?: number) {
  const [etcdClient, etcdPeer, api, kcm, scheduler] = await Promise.all([
    freePort(),
    freePort(),
    apiserver ? Promise.resolve(apiserver) : freePort(),
    freePort(),
    freePort(),
  ]);
  return { etcdClient, etcdPeer, apiserver: api, kcm, scheduler };
}

/**
 * What `kubespec run` does for a container target before the scenarios: the engine and image
 * checked (a missing one fails the run once, exit 2, instead of every scenario), and in mode
 * run the container started, its kubeconfig in the report directory, for the kube driver.
 */
export async function prepareContainerTarget<O extends { targetConfig?: string; kubeconfig?: string }>(
  target: string,
  options: O,
  reportDir: string,
  engine?: ContainerEngine,
): Promise<{ target: string; options: O; stop(): Promise<void> }> {
  const declaration = loadTargetDeclaration(options.targetConfig ?? target);
  const spec = containerSpecOf(declaration);
  const theEngine = engine ?? (await containerEngine());
  await requireContainerRuntime(theEngine);
  const resolved = { ...options, targetConfig: options.targetConfig ?? target };
  if (spec.mode === 'scenario') {
    await ensureImage(spec, theEngine);
    return { target, options: resolved, stop: async () => undefined };
  }
  console.log(`${declaration.name}: starting ${imageOf(spec)} for the run (testcontainers)…`);
  const started = Date.now();
  const running = await startForRun(declaration, path.join(reportDir, `${declaration.name}.kubeconfig`), theEngine);
  console.log(`${declaration.name}: ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    target,
    options: { ...resolved, kubeconfig: running.kubeconfigFile },
    stop: async () => {
      // The scenarios it broke have failed with it; this says why, once.
      const exited = running.exited();
      if (exited) console.error(`${declaration.name}: ${exited}`);
      await running.stop();
    },
  };
}

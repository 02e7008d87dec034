import * as fs from 'node:fs';
import * as path from 'node:path';
import { pollUntil, tailOf } from '../../util/process';
import { Binary, Component, ComponentRunner, exitIsDesign } from '../upstream/components';
import { upstreamPki } from '../upstream/pki';
import { ensureImage, requireContainerRuntime } from '../container';
import { ContainerSpec } from '../targets';
import type { ContainerEngine, StartedContainer } from './engine';
import { LaunchedContainer, launchContainer } from './launch';

/**
 * The container target's components: each of upstream's components in a container of its own,
 * from upstream/image/ (where they are in /usr/local/bin), on the host network — so its
 * loopback ports are this machine's — with the directories its command line names mounted at
 * the same paths: the control plane's scratch directory (its etcd data, certificates, audit
 * log, kubeconfigs, and the Unix socket of the egress proxy through which kube-apiserver
 * dials the hollow kubelets) and the PKI. The upstream target's driver (UpstreamDriver) thus
 * runs them exactly as it runs the processes of `--target upstream`: same command lines,
 * same waits, same audit, restart and kubelet API. Each runs as this process's user, so that
 * what it writes in the mounted directories is this user's to read and remove.
 *
 * A control plane here is not kept for the next scenario (ComponentRunner.reusable): an idle
 * one outlives its scenario until the process exits, and a container, unlike a process group,
 * does not end with this process.
 */
export function containerRunner(spec: ContainerSpec, engine: () => Promise<ContainerEngine>): ComponentRunner {
  let image: string | undefined;
  let theEngine: ContainerEngine | undefined;
  return {
    check: async () => {
      theEngine = await engine();
      await requireContainerRuntime(theEngine);
      image = await ensureImage(spec, theEngine);
    },
    // upstream/image/ packs the four components (the cloud-controller-manager is not in it).
    cloudControllerManager: false,
    reusable: false,
    // Not offered here: the pair (upstream.ts) has been run and judged with processes only; a
    // second master as containers (logs, audit and kill through the engine) is untried.
    apiServerPair: false,
    start: (workDir, name, args) => {
      if (!image || !theEngine) throw new Error('container target: check() runs before a component is started');
      return new ContainerComponent(theEngine, image, workDir, name, args);
    },
  };
}

/** Where the binaries are in upstream/image/ (its Dockerfile). */
const IMAGE_BIN = '/usr/local/bin';

/**
 * What a component's command line names on this machine, mounted at the same path: the
 * scratch directory (writable), the PKI, and each other existing file or directory a flag
 * names (a scenario's --token-auth-file=/tmp/…), read-only.
 */
export function mountsFor(workDir: string, args: readonly string[]): { path: string; writable: boolean }[] {
  const mounts = [
    { path: workDir, writable: true },
    { path: upstreamPki().dir, writable: false },
  ];
  const inside = (p: string) => mounts.some((m) => p === m.path || p.startsWith(`${m.path}/`));
  for (const arg of args) {
    const value = /^--[a-z0-9-]+=(\/[^,]+)$/.exec(arg)?.[1];
    if (value && !inside(value) && fs.existsSync(value)) mounts.push({ path: value, writable: false });
  }
  return mounts;
}

/** One component in its container; its output in `<workDir>/<name>.log`, as the process's would be. */
class ContainerComponent implements Component {
  exited?: string;
  private stopping = false;
  private readonly logFile: string;
  private log?: number;
  private readonly container: LaunchedContainer;
  private readonly running: Promise<StartedContainer | undefined>;

  constructor(
    engine: ContainerEngine,
    image: string,
    workDir: string,
    readonly name: Binary,
    args: string[],
  ) {
    this.logFile = path.join(workDir, `${name}.log`);
    this.log = fs.openSync(this.logFile, 'a');
    const user = process.getuid && process.getgid ? `${process.getuid()}:${process.getgid()}` : undefined;
    this.container = launchContainer(engine, {
      image,
      entrypoint: [`${IMAGE_BIN}/${name}`],
      command: args,
      env: {},
      network: 'host',
      ports: [],
      privileged: false,
      tmpfs: [],
      files: [],
      mounts: mountsFor(workDir, args),
      user,
      labels: { 'io.kubespec.component': name },
      onLine: (line) => {
        if (this.log !== undefined) fs.writeSync(this.log, `${line}\n`);
      },
      onEnd: () => this.ended(),
    });
    this.running = this.container.started.catch((e: Error) => {
      this.exited ??= `${name} could not be started in a container of ${image} (${e.message})`;
      this.closeLog(); // no output will come
      return undefined;
    });
  }

  /** Its output ended: the container exited (unbidden, unless it was stopped) or was removed. */
  private ended(): void {
    if (!this.closeLog()) return; // told once
    if (this.stopping || exitIsDesign(this.name)?.(this.output())) return;
    this.exited = `${this.name} exited unexpectedly (its container ended)`;
    void this.running
      .then((c) => c?.exitCode())
      .then(
        (code) => {
          if (code !== undefined && !this.stopping) this.exited = `${this.name} exited unexpectedly (code ${code})`;
        },
        () => undefined, // removed meanwhile: the first wording stays
      );
  }

  /** Closes its log file; false when it already was. */
  private closeLog(): boolean {
    if (this.log === undefined) return false;
    fs.closeSync(this.log);
    this.log = undefined;
    return true;
  }

  private output(): string {
    try {
      return fs.readFileSync(this.logFile, 'utf8');
    } catch (e) {
      return `(its log ${this.logFile} cannot be read: ${(e as Error).message})`;
    }
  }

  tail(): string {
    return tailOf(this.name, this.output(), this.logFile);
  }

  async waitUntil(what: string, ready: () => Promise<boolean | string>, timeoutMs: number): Promise<void> {
    await this.running;
    await pollUntil(this, what, ready, timeoutMs);
  }

  stop(): Promise<void> {
    this.stopping = true;
    return this.container.remove();
  }

  kill(): Promise<void> {
    this.stopping = true;
    return this.container.kill();
  }

  // Never kept idle (containerRunner: not reusable): nothing of it holds this process's event loop for later.
  ref(): void {}
  unref(): void {}
}

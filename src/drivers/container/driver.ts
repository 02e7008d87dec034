import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { coreRegistry } from '../../api/resources';
import { KubeconfigClient } from '../../client/kubeconfig';
import { Flags, mergeFlags, Profile } from '../../profile/profile';
import { KubeDriver } from '../kube';
import { NotApplicableError } from '../driver';
import { TargetDeclaration } from '../targets';
import { translateFlags } from '../upstream/flags';
import { containerEngine, containerSpecOf, RunningControlPlane, startControlPlane, upstreamPorts } from '../container';
import type { ContainerEngine } from './engine';
import { upstreamImageInputs } from './upstream-image';

/**
 * The container target per scenario (container.mode: scenario): a fresh container of the
 * declared image for each scenario, started with the scenario's flags as the upstream target
 * translates them (translateFlags, then the command lines of upstream/commands.ts), on free
 * loopback ports of the host network; judged through the kube driver, hollow kubelets joining
 * it as API clients. stop() removes the container, also after a failure or a timeout (the
 * After hook stops every driver); SIGINT/SIGTERM remove it too (container.ts).
 */
export class ContainerDriver extends KubeDriver {
  private flags: Flags = {};
  private launched = false;
  private running?: RunningControlPlane;
  private workDir?: string;
  protected override cleanupOnStop = false;

  constructor(
    profile: Profile,
    declaration: TargetDeclaration,
    private readonly engine?: ContainerEngine,
  ) {
    // Its own copy: configure() records the scenario's flags in it, which the kube driver's
    // hollow kubelets read (their heartbeat frequencies, lease duration).
    super(profile, { ...declaration, flags: { ...declaration.flags } });
    containerSpecOf(declaration);
  }

  /**
   * The scenario's flags, merged over the profile's; one the image's upstream components do not
   * have makes the scenario not applicable, with the reason (as on the upstream target).
   */
  override configure(flags: Flags): void {
    this.flags = mergeFlags(this.flags, flags);
    const all = mergeFlags(this.profile.flags, this.flags);
    this.declaration.flags = all;
    translateFlags(all, this.flags); // throws NotApplicableError before anything starts
  }

  /** Starts the container; one that does not get ready is remembered, not thrown (scenarios may expect it). */
  override async start(): Promise<void> {
    if (this.launched) return;
    this.launched = true;
    try {
      await this.launch();
    } catch (e) {
      this.startError = e instanceof NotApplicableError ? e : (e as Error);
      await this.running?.stop();
      if (e instanceof NotApplicableError) throw e;
    }
  }

  private async launch(): Promise<void> {
    const spec = containerSpecOf(this.declaration);
    const cmd = translateFlags(mergeFlags(this.profile.flags, this.flags), this.flags);
    // The secure port the scenario itself names (the kubernetes Service's targetPort shows it), else a free one.
    const wanted = Number(this.flags['kube-apiserver']?.['secure-port'] ?? 0) || undefined;
    const { env, files } = upstreamImageInputs(cmd, await upstreamPorts(wanted));
    this.workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-container-'));
    this.running = await startControlPlane(spec, {
      engine: this.engine ?? (await containerEngine()),
      kubeconfigFile: path.join(this.workDir, 'admin.kubeconfig'),
      env,
      files,
    });
    this.api = KubeconfigClient.fromFile(this.running.kubeconfigFile, coreRegistry({ endpointSlices: true }));
    await super.start();
  }

  /** A control plane that did not start fails the step that needs it, with the reason. */
  override async addKubelet(spec: Parameters<KubeDriver['addKubelet']>[0]): Promise<void> {
    await this.start();
    if (this.startError) throw this.startError;
    await super.addKubelet(spec);
  }

  /** A container that exited mid-scenario fails it, with its last lines. */
  private checkAlive(): void {
    const exited = this.running?.exited();
    if (exited) throw new Error(exited);
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

  override async stop(): Promise<void> {
    const exited = this.running?.exited();
    try {
      await super.stop();
    } finally {
      await this.running?.stop();
      if (this.workDir) fs.rmSync(this.workDir, { recursive: true, force: true });
    }
    if (exited && !this.startError) throw new Error(exited);
  }
}

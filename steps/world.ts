import { KubeObject } from '../src/api/meta';
import { IWorldOptions, World } from '@cucumber/cucumber';
import { ClusterDriver, Component, componentOf, createDriver, Flags, TargetOptions } from '../src/drivers';
import { Node, Pod } from '../src/api/core';
import { StatusError } from '../src/api/errors';
import { TimelineRecorder } from '../src/report/timeline';
import type { ChildProcess } from 'node:child_process';

/** What a kubectl run printed. */
export interface KubectlResult {
  command: string;
  code: number | null;
  stdout: string;
  stderr: string;
  /** How long the kubectl process ran, in ms of real time (its start-up under load included). */
  ms?: number;
}

/** The scenario's kubectl: its private directory (HOME, discovery cache, files), its last run, one background run. */
export interface KubectlState {
  dir: string;
  last?: KubectlResult;
  background?: { child: ChildProcess; out: string[] };
}

export interface RunParameters extends TargetOptions {
  target: string;
  profile: string;
}

export const NOT_APPLICABLE = 'text/x.kubespec.not-applicable';

/**
 * Per-scenario state: the driver for the run's target and profile, flags the Given steps
 * set before the cluster starts, and what earlier steps observed.
 */
export class KubeWorld extends World<RunParameters> {
  readonly driver: ClusterDriver;
  private pendingFlags: Flags = {};
  private started = false;
  /** Cluster time when the scenario's cluster started. */
  startedAt = 0;
  /** Time of each node's last heartbeat before its kubelet was stopped. */
  readonly lastHeartbeat = new Map<string, number>();
  /** A stopped kubelet's node: each condition's lastHeartbeatTime as stored right after the stop. */
  readonly heartbeatsAtStop = new Map<string, Record<string, string | undefined>>();
  /** The error of the last request a step expected might fail. */
  lastError?: StatusError;
  /** What the API server answered to the last "I create this …:" step (the object as admission left it). */
  lastCreated?: KubeObject;
  /** Why the API server could not start serving HTTP, when a step expected it might not. */
  lastServeError?: Error;
  /** Time marks named by steps ("the stop"), ms. */
  readonly marks = new Map<string, number>();
  /** The kind of the step running now (Context = Given, Action = When, Outcome = Then). */
  stepType?: string;
  /** When the last step that was not an outcome ended, or the past instant its wait named (ms): outcomes judge what held since. */
  judgedFrom?: number;
  /** The last wait found its instant already past (a real clock: support.ts advanceUntil). */
  late?: { at: number; by: number; what: string };
  /** The outcome running now judged the objects' recorded states since judgedFrom (expectHeld). */
  readPast = false;
  /** The API server's reads per caller when a step noted them (API-CACHE). */
  readsMark?: Record<string, { get: number; list: number; watch: number }>;
  /** Bearer tokens steps kept, by the account they belong to ("ns/name"). */
  readonly tokens = new Map<string, string>();

  // ── zones and eviction (eviction.steps.ts) ──
  /** The timeline recorded through the driver's watches, once a step asked for it. */
  timeline?: TimelineRecorder;
  /** The nodes created in each zone or group, in creation order. */
  readonly zoneNodes = new Map<string, string[]>();
  /** When each node's kubelet stopped reporting (ms). */
  readonly stopTimes = new Map<string, number>();
  /** When each node's first Ready=False, written as its kubelet would, was answered (ms; taints.steps.ts). */
  readonly readyFalseTimes = new Map<string, number>();
  /** The uid of each object a step deleted, by "resource/namespace/name". */
  readonly deletedUids = new Map<string, string>();

  // ── kubectl (kubectl.ts, kubectl.steps.ts, streaming.steps.ts) ──
  /** The scenario's kubectl, once a step ran it. */
  kubectl?: KubectlState;
  /** A resourceVersion a list returned, for "$RV" in a later kubectl command (API-LIST-WATCH). */
  notedResourceVersion?: string;
  /** A node's metadata.uid, for "$NODE_UID" in a later file (a mirror pod's owner reference). */
  notedNodeUid?: string;
  /** The last answer of a kubelet's API reached directly. */
  lastKubeletAnswer?: { request: string; status: number; body: string };

  // ── storage (apiserver.steps.ts) ──
  /** What the scenario saw just before the control plane was killed. */
  beforeRestart?: { pods: Map<string, { uid: string; rv: string }>; kubeconfig?: string };

  constructor(options: IWorldOptions<RunParameters>) {
    super(options);
    const { target = 'reference', profile = 'seed', ...targetOptions } = options.parameters ?? ({} as RunParameters);
    this.driver = createDriver(target, profile, targetOptions);
  }

  /** Sets a control-plane flag (by its upstream name) for this scenario. */
  setFlag(flag: string, value: string, component?: Component): void {
    const c = component ?? componentOf(flag);
    if (!c) throw new Error(`unknown flag --${flag}`);
    if (this.started)
      throw new Error(
        `--${flag} must be set before the cluster starts: move this step before the steps that create objects`,
      );
    // A target with fixed flags decides in configure() whether it runs with these values.
    this.pendingFlags = { ...this.pendingFlags, [c]: { ...this.pendingFlags[c], [flag]: value } };
  }

  /** The flag's value in force: set by the scenario, else the profile's. */
  flag(flag: string): string | undefined {
    const c = componentOf(flag);
    if (!c) throw new Error(`unknown flag --${flag}`);
    return this.pendingFlags[c]?.[flag] ?? this.driver.profile.flags[c]?.[flag];
  }

  /** The flag's value in force; the profiles hold every default, so a missing one is a profile bug. */
  requiredFlag(flag: string): string {
    const v = this.flag(flag);
    if (v === undefined) throw new Error(`profile ${this.driver.profile.name} sets no --${flag}`);
    return v;
  }

  /** The driver, started with the flags set so far. */
  async cluster(): Promise<ClusterDriver> {
    if (!this.started) {
      this.driver.configure(this.pendingFlags);
      await this.driver.start();
      this.started = true;
      this.startedAt = this.driver.now();
    }
    return this.driver;
  }

  get isStarted(): boolean {
    return this.started;
  }

  /** On failure: the nodes, pods and recent events, so the report shows what the cluster looked like. */
  async attachDiagnostics(): Promise<void> {
    try {
      const c = this.driver.client;
      const nodes = await c.list<Node>({ resource: 'nodes' });
      const pods = await c.list<Pod>({ resource: 'pods' });
      const events = (await this.driver.events()).slice(-30);
      const at = new Date(this.driver.now()).toISOString();
      const lines = [
        `cluster time ${at}`,
        'nodes:',
        ...nodes.items.map(
          (n) =>
            `  ${n.metadata.name}: ${(n.status?.conditions ?? []).map((x) => `${x.type}=${x.status}`).join(' ')}; taints: ${(n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).join(',') || 'none'}`,
        ),
        'pods:',
        ...pods.items.map(
          (p) =>
            `  ${p.metadata.namespace}/${p.metadata.name}: ${p.status?.phase ?? ''} on ${p.spec.nodeName ?? '(unbound)'}${p.metadata.deletionTimestamp ? ' (terminating)' : ''}`,
        ),
        'recent events:',
        ...events.map(
          (e) => `  ${e.lastTimestamp} ${e.involvedObject.kind}/${e.involvedObject.name} ${e.reason}: ${e.message}`,
        ),
      ];
      this.attach(lines.join('\n'), 'text/plain');
    } catch (e) {
      this.attach(`could not collect diagnostics: ${(e as Error).message}`, 'text/plain');
    }
  }

  get profileName(): string {
    return this.driver.profile.name;
  }
}

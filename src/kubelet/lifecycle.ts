import { Clock, isoTime, TimerHandle } from '../clock';
import { Pod, PodCondition } from '../api/core';
import { clone } from '../api/meta';
import { isStatusError } from '../api/errors';
import { Client } from '../client/client';
import { ErrorSink } from '../client/background';

/** How long a simulated pod's containers run before they exit, in seconds (the pod asks). */
export const RUN_SECONDS_ANNOTATION = 'kubespec.io/run-seconds';
/** The exit code they exit with (default 0). */
export const EXIT_CODE_ANNOTATION = 'kubespec.io/exit-code';

export function runSeconds(pod: Pod): number | undefined {
  const v = pod.metadata.annotations?.[RUN_SECONDS_ANNOTATION];
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function exitCode(pod: Pod): number {
  const n = Number(pod.metadata.annotations?.[EXIT_CODE_ANNOTATION] ?? 0);
  return Number.isInteger(n) ? n : 1;
}

/**
 * What the kubelet reports when a pod's containers exit (upstream getPhase): with
 * restartPolicy Never the pod ends Succeeded (exit 0) or Failed; OnFailure restarts on
 * failure and ends Succeeded on success; Always restarts. A restart keeps the pod Running
 * with restartCount + 1. Ended pods are no longer Ready.
 */
export function exitedStatus(pod: Pod, now: string): { status: NonNullable<Pod['status']>; ended: boolean } {
  const code = exitCode(pod);
  const policy = pod.spec.restartPolicy ?? 'Always';
  const ended = policy === 'Never' || (policy === 'OnFailure' && code === 0);
  const status = clone(pod.status ?? {});
  const terminated = {
    exitCode: code,
    reason: code === 0 ? 'Completed' : 'Error',
    startedAt: status.startTime,
    finishedAt: now,
  };
  if (!ended) {
    status.containerStatuses = (status.containerStatuses ?? []).map((c) => ({
      ...c,
      restartCount: c.restartCount + 1,
      lastState: { terminated },
      state: { running: { startedAt: now } },
    }));
    return { status, ended };
  }
  status.phase = code === 0 ? 'Succeeded' : 'Failed';
  const notReady = (c: PodCondition): PodCondition =>
    c.type === 'Ready' || c.type === 'ContainersReady'
      ? { ...c, status: 'False', reason: 'PodCompleted', lastTransitionTime: now }
      : c;
  status.conditions = (status.conditions ?? []).map(notReady);
  status.containerStatuses = (status.containerStatuses ?? []).map((c) => ({
    ...c,
    ready: false,
    started: false,
    state: { terminated },
  }));
  return { status, ended };
}

/**
 * Ends simulated containers after the time their pod asks for (annotation
 * kubespec.io/run-seconds): lifecycle as data on the pod, as KWOK's stages are.
 */
export class PodLifecycle {
  private readonly timers = new Map<string, TimerHandle>();

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
    private readonly current: (uid: string) => Pod | undefined,
    private readonly report: ErrorSink,
  ) {}

  /** Called once a pod runs: schedules its containers' exit if the pod asks for one. */
  started(pod: Pod): void {
    const seconds = runSeconds(pod);
    const uid = pod.metadata.uid!;
    if (seconds === undefined || this.timers.has(uid)) return;
    this.timers.set(
      uid,
      this.clock.setTimeout(() => {
        this.timers.delete(uid);
        void this.exit(uid).catch((e) => this.report('kubelet', e));
      }, seconds * 1000),
    );
  }

  forget(uid: string): void {
    const t = this.timers.get(uid);
    if (t) this.clock.clear(t);
    this.timers.delete(uid);
  }

  stop(): void {
    for (const t of this.timers.values()) this.clock.clear(t);
    this.timers.clear();
  }

  private async exit(uid: string): Promise<void> {
    const pod = this.current(uid);
    if (!pod || pod.metadata.deletionTimestamp || pod.status?.phase !== 'Running') return;
    const { status, ended } = exitedStatus(pod, isoTime(this.clock.now()));
    const next = clone(pod);
    next.status = status;
    try {
      const written = await this.client.update<Pod>({ resource: 'pods', namespace: pod.metadata.namespace }, next, {
        subresource: 'status',
      });
      if (!ended) this.started(written);
    } catch (e) {
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
    }
  }
}

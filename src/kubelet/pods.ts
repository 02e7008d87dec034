import { ImageManager, ImageOutcome } from './images';
import { Clock, isoTime, nanoTime, TimerHandle } from '../clock';
import { Node, Pod, PodCondition } from '../api/core';
import { clone } from '../api/meta';
import { isStatusError } from '../api/errors';
import { Client } from '../client/client';
import { EventRecorder } from '../client/events';
import { Informer } from '../client/informer';
import { KubeletConfig } from './config';
import { PodIPAllocator } from './ipam';
import { admitPod } from './admission';
import { PodLifecycle } from './lifecycle';
import { ErrorSink } from '../client/background';
import { flatString } from '../util/flat-string';

/**
 * How long after a failed sync the kubelet syncs the pod again: its pod workers requeue a pod
 * whose sync returned an error after backOffPeriod, 10 s (pkg/kubelet/kubelet.go
 * backOffPeriod, pod_workers.go completeWork; upstream adds jitter, left out here to keep
 * virtual time exact). Without it a pod whose status write failed stayed Pending until its
 * object changed: on upstream, 10 hollow kubelets starting 1001 pods lost 393 status writes
 * to "socket disconnected before secure TLS connection was established" under load, and 432
 * pods never started.
 */
export const POD_SYNC_BACKOFF_MS = 10_000;

/**
 * How often the kubelet's status manager compares every pod's status in the API server with its
 * own and writes its own back where a condition it owns differs (pkg/kubelet/status
 * status_manager.go: syncPeriod, syncBatch(all) → needsReconcile, isPodStatusByKubeletEqual).
 * This is what sets a pod Ready again after the node lifecycle controller marked it not ready
 * (MarkPodsNotReady) while the node was not ready: without it, on upstream, 20 of 1001 pods of
 * nodes that missed their grace period under load stayed Ready=False after the nodes were Ready.
 */
export const STATUS_SYNC_PERIOD_MS = 10_000;

/**
 * The kubelet's own Ready condition for a running pod, where the API server's differs: a hollow
 * pod's containers are ready while it runs, so Ready is what ContainersReady is (the two change
 * together here, so its lastTransitionTime is the one the kubelet's cached Ready has).
 * Upstream: GeneratePodReadyCondition (pkg/kubelet/status/generate.go).
 */
export function readyToRestore(pod: Pod): PodCondition | undefined {
  if (pod.status?.phase !== 'Running' || pod.metadata.deletionTimestamp) return undefined;
  const conditions = pod.status.conditions ?? [];
  const containers = conditions.find((c) => c.type === 'ContainersReady');
  const ready = conditions.find((c) => c.type === 'Ready');
  if (containers?.status !== 'True' || !ready || ready.status === 'True') return undefined;
  return { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: containers.lastTransitionTime };
}

/**
 * Runs the pods bound to this node as simulated processes: a bound pod becomes Running
 * with an IP from the node's pod CIDR; a pod marked for deletion is stopped and removed.
 */
export class PodRunner {
  private informer?: Informer<Pod>;
  private nodeInformer?: Informer<Node>;
  private ips?: PodIPAllocator;
  private active = false;
  /** Pods admitted and not yet gone, by uid (what admission counts). */
  private readonly admitted = new Map<string, Pod>();
  private readonly lifecycle: PodLifecycle;
  /** When this kubelet first received each pod, by uid (its kubernetes.io/config.seen). */
  private readonly firstSeen = new Map<string, number>();
  /** Syncs to retry after a failure (cleared by stop()). */
  private readonly retries = new Set<TimerHandle>();
  /** Pods whose Ready condition differs from the kubelet's, by uid: written back at the next status sync. */
  private readonly toReconcile = new Set<string>();
  private statusSync?: TimerHandle;
  /**
   * When this kubelet was up with its pods known: its status syncs fall every
   * STATUS_SYNC_PERIOD_MS from then. Undefined while it starts: no sync is scheduled yet.
   */
  private startedAt?: number;
  /** The machine's images: made once, so they outlive a restart of the kubelet. */
  private readonly images: ImageManager;

  constructor(
    private readonly config: KubeletConfig,
    private readonly client: Client,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    private readonly report: ErrorSink,
  ) {
    this.images = new ImageManager(config.imagePullDurations);
    this.lifecycle = new PodLifecycle(
      client,
      clock,
      (uid) => this.running().find((p) => p.metadata.uid === uid),
      report,
    );
  }

  async start(): Promise<void> {
    this.active = true;
    this.startedAt = undefined;
    this.nodeInformer = new Informer<Node>(
      this.client,
      { resource: 'nodes' },
      { fieldSelector: `metadata.name=${this.config.nodeName}` },
      this.clock,
    );
    await this.nodeInformer.run();
    this.informer = new Informer<Pod>(
      this.client,
      { resource: 'pods' },
      { fieldSelector: `spec.nodeName=${this.config.nodeName}` },
      this.clock,
    );
    this.informer.addEventHandler({
      onAdd: (pod) => {
        if (!this.firstSeen.has(pod.metadata.uid ?? '')) this.firstSeen.set(pod.metadata.uid ?? '', this.clock.now());
        this.syncOrRetry(pod);
      },
      onUpdate: (_old, pod) => this.syncOrRetry(pod),
      onDelete: (pod) => {
        this.ips?.release(pod.metadata.uid ?? '');
        this.admitted.delete(pod.metadata.uid ?? '');
        this.lifecycle.forget(pod.metadata.uid ?? '');
        this.firstSeen.delete(pod.metadata.uid ?? '');
      },
    });
    await this.informer.run();
    // The status manager's ticks count from the kubelet being up, with its pods known: on a
    // real clock a start took 14 s at load 38, and a tick counted from its beginning wrote the
    // pods Ready before the start was over (eviction.feature:99, twenty-fourth full run).
    this.startedAt = this.clock.now();
    if (this.toReconcile.size > 0) this.scheduleStatusSync(this.startedAt);
  }

  stop(): void {
    this.active = false;
    for (const t of this.retries) this.clock.clear(t);
    this.retries.clear();
    if (this.statusSync) this.clock.clear(this.statusSync);
    this.statusSync = undefined;
    this.toReconcile.clear();
    this.firstSeen.clear();
    this.lifecycle.stop();
    this.informer?.stop();
    this.nodeInformer?.stop();
  }

  running(): Pod[] {
    return this.informer?.list() ?? [];
  }

  /**
   * The kubelet's own view of its pods (what its /pods serves): each as received from the API
   * server plus the annotations the kubelet's pod config adds locally, where the stored object
   * has none — kubernetes.io/config.source ("api", the source it came from) and
   * kubernetes.io/config.seen (when this kubelet first received it, RFC 3339 with nanoseconds).
   * Upstream: pkg/kubelet/config/config.go (podStorage.merge: ConfigSourceAnnotationKey,
   * recordFirstSeenTime).
   */
  view(): Pod[] {
    return this.running().map((pod) => {
      const seen = this.firstSeen.get(pod.metadata.uid ?? '') ?? this.clock.now();
      const annotations = {
        ...pod.metadata.annotations,
        'kubernetes.io/config.source': 'api',
        'kubernetes.io/config.seen': nanoTime(seen),
      };
      return { ...pod, metadata: { ...pod.metadata, annotations } };
    });
  }

  /**
   * Syncs the pod; a failure is reported and the pod, as the informer then has it, synced
   * again after POD_SYNC_BACKOFF_MS (unless it is gone or the kubelet stopped).
   */
  private syncOrRetry(pod: Pod): void {
    void this.sync(pod).catch((e) => {
      this.report('kubelet', e);
      if (!this.active) return;
      const retry = this.clock.setTimeout(() => {
        this.retries.delete(retry);
        const current = this.informer?.getByName(pod.metadata.name!, pod.metadata.namespace);
        if (this.active && current && current.metadata.uid === pod.metadata.uid) this.syncOrRetry(current);
      }, POD_SYNC_BACKOFF_MS);
      this.retries.add(retry);
    });
  }

  /**
   * Upstream's status manager looks at every pod at each tick; a tick that finds nothing to
   * write does nothing, so only the ticks that will write are scheduled here: the next one after
   * a pod's status, as delivered, differs from the kubelet's (one timer per kubelet, not one per
   * 10 s per node, which at 5000 nodes would be 500 wake-ups a second for nothing).
   */
  private reconcileAtNextSync(uid: string): void {
    this.toReconcile.add(uid);
    if (this.startedAt !== undefined) this.scheduleStatusSync(this.startedAt);
  }

  private scheduleStatusSync(startedAt: number): void {
    if (this.statusSync) return;
    const sinceStart = this.clock.now() - startedAt;
    const wait = STATUS_SYNC_PERIOD_MS - (sinceStart % STATUS_SYNC_PERIOD_MS);
    this.statusSync = this.clock.setTimeout(() => {
      this.statusSync = undefined;
      const due = this.running().filter((p) => this.toReconcile.has(p.metadata.uid ?? ''));
      this.toReconcile.clear();
      for (const pod of due)
        void this.restoreReady(pod).catch((e) => {
          // Upstream's next syncBatch looks at every pod again, so a write that failed is
          // tried again at the next tick: at load 44 a reset connection had left 7 of 1001
          // pods Ready=False for good (fifteenth full run).
          this.report('kubelet', e);
          if (this.active) this.reconcileAtNextSync(pod.metadata.uid ?? '');
        });
    }, wait);
  }

  /** Writes the kubelet's Ready back (a conflict means a newer version is on its way: its sync looks again). */
  private async restoreReady(pod: Pod): Promise<void> {
    const ready = readyToRestore(pod);
    if (!ready) return;
    const next = clone(pod);
    next.status = {
      ...next.status,
      conditions: (next.status?.conditions ?? []).map((c) => (c.type === 'Ready' ? ready : c)),
    };
    try {
      await this.client.update<Pod>({ resource: 'pods', namespace: pod.metadata.namespace }, next, {
        subresource: 'status',
      });
    } catch (e) {
      if (!isStatusError(e, 'Conflict') && !isStatusError(e, 'NotFound')) throw e;
    }
  }

  /** The pod does not fit this node: it fails without running (kubelet admission). */
  private async reject(pod: Pod, reason: string, message: string): Promise<void> {
    const next = clone(pod);
    next.status = { ...next.status, phase: 'Failed', reason, message };
    try {
      const updated = await this.client.update<Pod>({ resource: 'pods', namespace: pod.metadata.namespace }, next, {
        subresource: 'status',
      });
      this.events.warning(updated, reason, message);
    } catch (e) {
      if (!isStatusError(e, 'Conflict') && !isStatusError(e, 'NotFound')) throw e;
    }
  }

  private allocator(): PodIPAllocator | undefined {
    const node = this.nodeInformer?.getByName(this.config.nodeName);
    const cidr = node?.spec?.podCIDR ?? this.config.podCIDR;
    if (!cidr) return undefined;
    if (!this.ips || this.ips.cidr !== cidr) this.ips = new PodIPAllocator(cidr);
    return this.ips;
  }

  private async sync(pod: Pod): Promise<void> {
    if (!this.active) return;
    const ref = { resource: 'pods', namespace: pod.metadata.namespace };
    if (pod.metadata.deletionTimestamp) {
      // Containers stop at once in a hollow node; then the kubelet confirms the deletion.
      try {
        await this.client.delete(ref, pod.metadata.name!, {
          gracePeriodSeconds: 0,
          preconditions: { uid: pod.metadata.uid },
        });
      } catch (e) {
        if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
      }
      return;
    }
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') {
      this.admitted.delete(pod.metadata.uid ?? '');
      return;
    }
    if (phase === 'Running') {
      this.admitted.set(pod.metadata.uid ?? '', pod);
      this.lifecycle.started(pod);
      if (readyToRestore(pod)) this.reconcileAtNextSync(pod.metadata.uid ?? '');
      return;
    }
    // Kept in the pod's status as long as it runs: isoTime's string is one piece, shared by the instant.
    const now = isoTime(this.clock.now());
    const node = this.nodeInformer?.getByName(this.config.nodeName);
    const uid = pod.metadata.uid ?? '';
    if (!this.admitted.has(uid)) {
      // Admission sees the pods this kubelet already admitted, synchronously, so two pods
      // bound at once cannot both take the last room.
      const rejection = admitPod(pod, node, [...this.admitted.values()]);
      if (rejection) return this.reject(pod, rejection.reason, rejection.message);
      this.admitted.set(uid, pod);
    }
    const hostIP = node?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? this.config.nodeIP;
    const podIP = pod.spec.hostNetwork ? hostIP : this.allocator()?.allocate(pod.metadata.uid ?? pod.metadata.name!);
    // Each container's image first (EnsureImageExists); a hollow kubelet starts a pod's
    // containers together, so one that cannot have its image keeps them all waiting.
    const images = pod.spec.containers.map((c) => this.images.ensure(c));
    if (images.some((i) => i.failure)) return this.waitForImages(pod, images, now, hostIP, podIP);
    const next = clone(pod);
    const cond = (type: string): PodCondition => ({
      type,
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: now,
    });
    const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled') ?? cond('PodScheduled');
    next.status = {
      ...next.status,
      phase: 'Running',
      conditions: [cond('Initialized'), cond('Ready'), cond('ContainersReady'), scheduled],
      hostIP,
      ...(hostIP ? { hostIPs: [{ ip: hostIP }] } : {}),
      ...(podIP ? { podIP, podIPs: [{ ip: podIP }] } : {}),
      startTime: now,
      containerStatuses: pod.spec.containers.map((c) => ({
        name: c.name,
        ready: true,
        restartCount: 0,
        started: true,
        image: c.image ?? '',
        imageID: flatString(`docker-pullable://${c.image ?? ''}`),
        containerID: flatString(`docker://${(pod.metadata.uid ?? '').replace(/-/g, '')}${c.name}`.slice(0, 73)),
        state: { running: { startedAt: now } },
      })),
    };
    try {
      const updated = await this.client.update<Pod>(ref, next, { subresource: 'status' });
      this.lifecycle.started(updated);
      pod.spec.containers.forEach((c, i) => {
        for (const e of images[i].events) this.events.record(updated, e.type, e.reason, e.message);
        this.events.normal(updated, 'Created', `Created container ${c.name}`);
        this.events.normal(updated, 'Started', `Started container ${c.name}`);
      });
    } catch (e) {
      if (!isStatusError(e, 'Conflict') && !isStatusError(e, 'NotFound')) throw e;
    }
  }

  /**
   * A container whose image the kubelet may not pull (Never, and not on the machine): the pod
   * stays Pending, its sandbox made (an IP) and its containers waiting, that one with the
   * image manager's reason (ErrImageNeverPull) and message, as upstream's status shows it.
   * Written once: the next sync of an unchanged pod finds the same status and leaves it.
   */
  private async waitForImages(
    pod: Pod,
    images: ImageOutcome[],
    now: string,
    hostIP: string | undefined,
    podIP: string | undefined,
  ): Promise<void> {
    const waiting = pod.spec.containers.map((c, i) => ({
      name: c.name,
      ready: false,
      restartCount: 0,
      started: false,
      image: c.image ?? '',
      imageID: '',
      state: { waiting: images[i].failure ?? { reason: 'ContainerCreating' } },
    }));
    const same = (pod.status?.containerStatuses ?? []).map((s) => JSON.stringify(s.state));
    if (JSON.stringify(waiting.map((s) => JSON.stringify(s.state))) === JSON.stringify(same)) return;
    const unready = `containers with unready status: [${pod.spec.containers.map((c) => c.name).join(' ')}]`;
    const notReady = (type: string): PodCondition => ({
      type,
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime: now,
      reason: 'ContainersNotReady',
      message: unready,
    });
    const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    const next = clone(pod);
    next.status = {
      ...next.status,
      phase: 'Pending',
      conditions: [
        { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: now },
        notReady('Ready'),
        notReady('ContainersReady'),
        ...(scheduled ? [scheduled] : []),
      ],
      hostIP,
      ...(hostIP ? { hostIPs: [{ ip: hostIP }] } : {}),
      ...(podIP ? { podIP, podIPs: [{ ip: podIP }] } : {}),
      startTime: now,
      containerStatuses: waiting,
    };
    try {
      const updated = await this.client.update<Pod>({ resource: 'pods', namespace: pod.metadata.namespace }, next, {
        subresource: 'status',
      });
      for (const i of images) for (const e of i.events) this.events.record(updated, e.type, e.reason, e.message);
    } catch (e) {
      if (!isStatusError(e, 'Conflict') && !isStatusError(e, 'NotFound')) throw e;
    }
  }
}

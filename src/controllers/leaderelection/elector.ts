import { randomUUID } from 'node:crypto';
import { Clock, isoTime, microTime, TimerHandle } from '../../clock';
import { Lease } from '../../api/core';
import { KubeObject, jsonEqual } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { Client } from '../../client/client';
import { ErrorSink, handleError } from '../../client/background';
import { EVENT_CACHE_ENTRIES, EventRecorder } from '../../client/events';
import { decide, LEADER_ANNOTATION, LeaderElectionRecord, nextRecord } from './record';

export type ResourceLock = 'leases' | 'endpoints' | 'configmaps';

export interface LeaderElectionConfig {
  /** --leader-elect-resource-lock: v1.12 defaulted to endpoints, v1.24+ to leases. */
  lock: ResourceLock;
  name: string;
  namespace: string;
  identity: string;
  /** --leader-elect-lease-duration (15 s), --leader-elect-renew-deadline (10 s), --leader-elect-retry-period (2 s). */
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** Upstream's identity: the host name and a fresh UUID, so two processes on one host differ. */
export function electionIdentity(host: string): string {
  return `${host}_${randomUUID()}`;
}

/**
 * client-go's LeaderElector: tries to acquire the lock every retryPeriod until it holds it,
 * then renews every retryPeriod; when renewals keep failing for renewDeadline it has lost
 * the lock and stops leading (kube-controller-manager then exits). The deadline runs from
 * the first failed attempt of a renew cycle, not from the last success: renew() is a
 * wait.Until of retryPeriod around a poll bounded by renewDeadline (PollUntilContextTimeout
 * in v1.32, PollImmediateUntil with a timeout context in v1.12), so a leader whose last
 * renewal was at L stops at L + retryPeriod + renewDeadline (found on upstream v1.32.13).
 * Upstream jitters the acquire period by up to 1.2×; in virtual time the period is exact.
 */
export class LeaderElector {
  private observed?: LeaderElectionRecord;
  private observedAt = 0;
  private leading = false;
  /** When the current run of failed renewals began (the renew cycle's start), if one has. */
  private failingSince?: number;
  private timer?: TimerHandle;
  private stopped = false;
  private readonly events: EventRecorder;

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
    readonly config: LeaderElectionConfig,
    private readonly callbacks: { onStartedLeading(): void; onStoppedLeading(): void },
    /** Where a failed attempt goes: the cluster's reporter (the process's when alone). */
    private readonly report: ErrorSink = handleError,
  ) {
    this.events = new EventRecorder(client, clock, { component: config.name }, EVENT_CACHE_ENTRIES, report);
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** Starts campaigning; the first attempt is immediate. */
  async run(): Promise<void> {
    await this.tick();
  }

  /** Stops campaigning and renewing (the process ends): the lock simply expires. */
  stop(): void {
    this.stopped = true;
    if (this.timer) this.clock.clear(this.timer);
    if (this.leading) {
      this.leading = false;
      this.callbacks.onStoppedLeading();
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.clock.setTimeout(() => void this.tick(), this.config.retryPeriodMs);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    let ok = false;
    try {
      ok = await this.tryAcquireOrRenew();
    } catch (e) {
      // An API error is a failed attempt; the loop retries. client-go logs it
      // ("error retrieving resource lock"); here it goes to the background sink.
      this.report(`leader election (${this.config.name})`, e);
      ok = false;
    }
    const now = this.clock.now();
    if (ok) {
      this.failingSince = undefined;
      if (!this.leading) {
        this.leading = true;
        this.events.normal(this.lockObjectRef(), 'LeaderElection', `${this.config.identity} became leader`);
        this.callbacks.onStartedLeading();
      }
    } else if (this.leading && now - (this.failingSince ??= now) >= this.config.renewDeadlineMs) {
      this.leading = false;
      this.callbacks.onStoppedLeading();
      this.stopped = true; // upstream: "leaderelection lost", the process exits
      return;
    }
    this.schedule();
  }

  private ref() {
    const resource = this.config.lock === 'leases' ? 'leases.coordination.k8s.io' : this.config.lock;
    return { resource, namespace: this.config.namespace };
  }

  private lockObjectRef(): KubeObject {
    const kind = this.config.lock === 'leases' ? 'Lease' : this.config.lock === 'endpoints' ? 'Endpoints' : 'ConfigMap';
    return {
      apiVersion: this.config.lock === 'leases' ? 'coordination.k8s.io/v1' : 'v1',
      kind,
      metadata: { name: this.config.name, namespace: this.config.namespace, uid: this.lockUid },
    };
  }

  private lockUid?: string;

  private readRecord(obj: KubeObject): LeaderElectionRecord | undefined {
    if (this.config.lock === 'leases') {
      const s = (obj as Lease).spec ?? {};
      return {
        holderIdentity: s.holderIdentity ?? '',
        leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
        acquireTime: s.acquireTime ?? '',
        renewTime: s.renewTime ?? '',
        leaderTransitions: s.leaseTransitions ?? 0,
      };
    }
    const raw = obj.metadata.annotations?.[LEADER_ANNOTATION];
    return raw ? (JSON.parse(raw) as LeaderElectionRecord) : undefined;
  }

  private writeRecord(obj: KubeObject, r: LeaderElectionRecord): KubeObject {
    if (this.config.lock === 'leases') {
      return {
        ...obj,
        spec: {
          holderIdentity: r.holderIdentity,
          leaseDurationSeconds: r.leaseDurationSeconds,
          acquireTime: r.acquireTime,
          renewTime: r.renewTime,
          leaseTransitions: r.leaderTransitions,
        },
      } as Lease;
    }
    return {
      ...obj,
      metadata: {
        ...obj.metadata,
        annotations: { ...obj.metadata.annotations, [LEADER_ANNOTATION]: JSON.stringify(r) },
      },
    };
  }

  /** client-go tryAcquireOrRenew. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.clock.now();
    // Leases carry MicroTime; the annotation records carry RFC 3339 seconds.
    const stamp = this.config.lock === 'leases' ? microTime(now) : isoTime(now);
    const seconds = Math.round(this.config.leaseDurationMs / 1000);
    let existing: KubeObject | undefined;
    try {
      existing = await this.client.get<KubeObject>(this.ref(), this.config.name);
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
    }
    const old = existing ? this.readRecord(existing) : undefined;
    if (old && !jsonEqual(old, this.observed)) {
      this.observed = old;
      this.observedAt = now;
    }
    const decision = decide(
      existing
        ? (old ?? { holderIdentity: '', leaseDurationSeconds: 0, acquireTime: '', renewTime: '', leaderTransitions: 0 })
        : undefined,
      this.config.identity,
      this.observedAt,
      this.config.leaseDurationMs,
      now,
    );
    if (decision.act === 'wait') return false;
    const record = nextRecord(old, this.config.identity, seconds, stamp);
    let written: KubeObject;
    if (decision.act === 'create') {
      const blank: KubeObject =
        this.config.lock === 'leases'
          ? {
              apiVersion: 'coordination.k8s.io/v1',
              kind: 'Lease',
              metadata: { name: this.config.name, namespace: this.config.namespace },
            }
          : {
              apiVersion: 'v1',
              kind: this.config.lock === 'endpoints' ? 'Endpoints' : 'ConfigMap',
              metadata: { name: this.config.name, namespace: this.config.namespace },
            };
      written = await this.client.create(this.ref(), this.writeRecord(blank, record));
    } else {
      written = await this.client.update(this.ref(), this.writeRecord(existing!, record));
    }
    this.lockUid = written.metadata.uid;
    this.observed = record;
    this.observedAt = now;
    return true;
  }
}

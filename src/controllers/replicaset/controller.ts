import { isoTime } from '../../clock';
import { availabilityRecheckMs } from '../pod-availability';
import { Pod } from '../../api/core';
import { clone, jsonEqual, KubeObject } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { selectorFromLabelSelector } from '../../api/labels/selector';
import { ReplicaSet } from '../../api/resources/replicaset';
import { PodTemplateSpec, ReplicationController } from '../../api/resources/replicationcontroller';
import { EventRecorder } from '../../client/events';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { Expectations } from '../expectations';
import { controllerOf, keyOf, matchesSelector } from '../ownership';
import { claimPods, createExpectedPods, PodControl } from '../podcontrol';
import { DeletionOrder, isPodActive, podsToDelete } from './ranking';
import { calculateStatus, ManageError } from './status';
import { ControllerBase } from '../controller-base';

export interface ReplicaSetOptions {
  /** Upstream BurstReplicas: creations or deletions per sync. */
  burstReplicas: number;
  /** --concurrent-replicaset-syncs / --concurrent-rc-syncs */
  workers: number;
  /** getPodsToDelete's ordering: ActivePods (v1.12) or ActivePodsWithRanks (v1.32). */
  deletionOrder: DeletionOrder;
}

export const DEFAULT_REPLICASET_OPTIONS: ReplicaSetOptions = {
  burstReplicas: 500,
  workers: 5,
  deletionOrder: 'ActivePods',
};

/** What differs between the two kinds one controller serves (upstream's GroupVersionKind plus the RC conversion). */
export interface ReplicaKind<T extends KubeObject> {
  kind: 'ReplicaSet' | 'ReplicationController';
  resource: string;
  /** Event source component and work queue name. */
  component: string;
  queueName: string;
  matches(owner: T, pod: Pod): boolean;
  template(owner: T): PodTemplateSpec;
}

type Replicated = ReplicaSet | ReplicationController;

export const REPLICA_SET_KIND: ReplicaKind<ReplicaSet> = {
  kind: 'ReplicaSet',
  resource: 'replicasets.apps',
  component: 'replicaset-controller',
  queueName: 'replicaset',
  matches: (rs, pod) => selectorFromLabelSelector(rs.spec.selector).matches(pod.metadata.labels ?? {}),
  template: (rs) => rs.spec.template,
};

export const REPLICATION_CONTROLLER_KIND: ReplicaKind<ReplicationController> = {
  kind: 'ReplicationController',
  resource: 'replicationcontrollers',
  component: 'replication-controller',
  queueName: 'replicationmanager',
  matches: (rc, pod) => matchesSelector(pod.metadata.labels, rc.spec.selector),
  template: (rc) => rc.spec.template!,
};

/**
 * The ReplicaSet controller (pkg/controller/replicaset), which upstream also runs as the
 * replication manager (pkg/controller/replication converts RCs to ReplicaSets and back):
 * keeps spec.replicas active pods matching the selector, adopting and releasing by
 * controllerRef, and writes status; with minReadySeconds it looks again once ready pods
 * have become available.
 */
export class ReplicaSetController<T extends Replicated = ReplicaSet> extends ControllerBase {
  private readonly sets: Informer<T>;
  private readonly pods: Informer<Pod>;
  private readonly queue: WorkQueue;
  private readonly expectations: Expectations;
  private readonly control: PodControl;
  readonly events: EventRecorder;

  constructor(
    ctx: ControllerContext,
    private readonly options: ReplicaSetOptions = DEFAULT_REPLICASET_OPTIONS,
    private readonly kind: ReplicaKind<T> = REPLICA_SET_KIND as unknown as ReplicaKind<T>,
  ) {
    super(ctx);
    const { client, clock } = ctx;
    this.sets = ctx.informer<T>({ resource: kind.resource });
    this.pods = ctx.informer<Pod>({ resource: 'pods' });
    this.pods.addIndexer('namespace', (p) => [p.metadata.namespace ?? '']);
    this.events = ctx.events({ component: kind.component });
    this.control = new PodControl(client, this.events);
    this.expectations = new Expectations(() => clock.now());
    this.queue = ctx.workQueue((key) => this.sync(key), {
      name: kind.queueName,
      workers: options.workers,
    });
  }

  run(): void {
    const enqueue = (rs: T) => this.queue.add(keyOf(rs.metadata.namespace, rs.metadata.name!));
    this.ctx.handle(this.sets, {
      onAdd: enqueue,
      onUpdate: (_o, n) => enqueue(n),
      onDelete: (rs) => {
        this.expectations.delete(keyOf(rs.metadata.namespace, rs.metadata.name!));
        enqueue(rs);
      },
    });
    this.ctx.handle(this.pods, {
      onAdd: (pod) => {
        if (pod.metadata.deletionTimestamp) return this.podDeleted(pod);
        const owner = this.ownerKey(pod);
        if (owner) {
          this.expectations.creationObserved(owner);
          this.queue.add(owner);
        } else this.enqueueMatching(pod);
      },
      onUpdate: (old, pod) => {
        if (pod.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) return this.podDeleted(pod);
        const before = this.ownerKey(old);
        const after = this.ownerKey(pod);
        if (before && before !== after) this.queue.add(before);
        if (after) this.queue.add(after);
        else if (!jsonEqual(old.metadata.labels, pod.metadata.labels) || before) this.enqueueMatching(pod);
      },
      onDelete: (pod) => this.podDeleted(pod),
    });
  }

  private ownerKey(pod: Pod): string | undefined {
    const ref = controllerOf(pod);
    if (!ref || ref.kind !== this.kind.kind) return undefined;
    const rs = this.sets.getByName(ref.name, pod.metadata.namespace);
    return rs && rs.metadata.uid === ref.uid ? keyOf(pod.metadata.namespace, ref.name) : undefined;
  }

  private podDeleted(pod: Pod): void {
    const owner = this.ownerKey(pod);
    if (!owner) return;
    // UIDTrackingControllerExpectations: the pod's key, so its second sighting (deletionTimestamp, then gone) counts once.
    this.expectations.deletionObserved(owner, keyOf(pod.metadata.namespace, pod.metadata.name!));
    this.queue.add(owner);
  }

  private enqueueMatching(pod: Pod): void {
    for (const rs of this.sets.list()) {
      if (rs.metadata.namespace === pod.metadata.namespace && this.kind.matches(rs, pod))
        this.queue.add(keyOf(rs.metadata.namespace, rs.metadata.name!));
    }
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/');
    const rs = this.sets.getByName(name, namespace);
    if (!rs) {
      this.expectations.delete(key);
      return;
    }
    const needsSync = this.expectations.satisfied(key);
    const candidates = this.pods.byIndex('namespace', namespace).filter(isPodActive);
    const pods = await claimPods(candidates, rs, (p) => this.kind.matches(rs, p), this.control);
    let manageError: ManageError | undefined;
    let manageFailure: unknown;
    if (needsSync && !rs.metadata.deletionTimestamp) {
      try {
        await this.manageReplicas(key, pods, rs);
      } catch (e) {
        manageFailure = e;
        const diff = pods.length - (rs.spec.replicas ?? 1);
        manageError = {
          reason: diff < 0 ? 'FailedCreate' : 'FailedDelete',
          message: (e as Error).message,
          at: isoTime(this.clock.now()),
        };
      }
    }
    const status = calculateStatus(rs, pods, this.clock.now(), manageError);
    await this.updateStatus(rs, status);
    // Ready pods become available minReadySeconds later: look again then (upstream AddAfter).
    const minReady = rs.spec.minReadySeconds ?? 0;
    const replicas = rs.spec.replicas ?? 1;
    if (
      !manageError &&
      minReady > 0 &&
      (status.readyReplicas ?? 0) === replicas &&
      (status.availableReplicas ?? 0) !== replicas
    ) {
      this.queue.addAfter(key, availabilityRecheckMs(minReady));
    }
    // The status carries the message; the retry's report keeps the failure itself (upstream
    // returns manageReplicasErr as it came).
    if (manageError) throw manageFailure;
  }

  /**
   * getIndirectlyRelatedPods (v1.32): the pods selected by every ReplicaSet sharing this
   * one's controller (a Deployment's ReplicaSets), each pod once; none for a ReplicaSet
   * without a controller or a ReplicationController (upstream logs "has no controller").
   */
  private relatedPods(rs: T): Pod[] {
    const owner = controllerOf(rs);
    if (!owner || this.kind.kind !== 'ReplicaSet') return [];
    const seen = new Set<string>();
    const out: Pod[] = [];
    for (const other of this.sets.list()) {
      if (other.metadata.namespace !== rs.metadata.namespace || controllerOf(other)?.uid !== owner.uid) continue;
      for (const p of this.pods.byIndex('namespace', rs.metadata.namespace ?? '')) {
        if (seen.has(p.metadata.uid!) || !this.kind.matches(other, p)) continue;
        seen.add(p.metadata.uid!);
        out.push(p);
      }
    }
    return out;
  }

  /** Upstream manageReplicas: create or delete at most burstReplicas pods toward spec.replicas. */
  private async manageReplicas(key: string, pods: Pod[], rs: T): Promise<void> {
    const replicas = rs.spec.replicas ?? 1;
    const diff = pods.length - replicas;
    if (diff < 0) {
      await createExpectedPods(
        this.control,
        this.expectations,
        key,
        Math.min(-diff, this.options.burstReplicas),
        this.kind.template(rs),
        rs,
      );
    } else if (diff > 0) {
      const order = this.options.deletionOrder;
      const related = order === 'ActivePodsWithRanks' ? this.relatedPods(rs) : [];
      const victims = podsToDelete(pods, Math.min(diff, this.options.burstReplicas), order, related, this.clock.now());
      this.expectations.expectDeletions(
        key,
        victims.map((p) => keyOf(p.metadata.namespace, p.metadata.name!)),
      );
      const results = await Promise.allSettled(victims.map((p) => this.control.deletePod(p, rs)));
      const failed: unknown[] = [];
      results.forEach((r, i) => {
        if (r.status === 'fulfilled') return;
        // A deletion that failed will never be observed (upstream: DeletionObserved for its key).
        this.expectations.deletionObserved(key, keyOf(victims[i].metadata.namespace, victims[i].metadata.name!));
        failed.push(r.reason);
      });
      if (failed.length > 0) throw failed[0];
    }
  }

  private async updateStatus(rs: T, status: NonNullable<T['status']>): Promise<void> {
    if (jsonEqual(rs.status, status)) return;
    const next = clone(rs);
    next.status = status;
    try {
      await this.client.update<T>({ resource: this.kind.resource, namespace: rs.metadata.namespace }, next, {
        subresource: 'status',
      });
    } catch (e) {
      // A conflict means a newer object is on its way through the informer, which syncs it again.
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
    }
  }
}

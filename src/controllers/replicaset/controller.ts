import { Clock, isoTime, Quiescence } from '../../clock';
import { Pod } from '../../api/core';
import { clone, jsonEqual } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { selectorFromLabelSelector } from '../../api/labels/selector';
import { ReplicaSet } from '../../api/resources/replicaset';
import { Client } from '../../client/client';
import { EventRecorder } from '../../client/events';
import { Informer, InformerFactory } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { Expectations } from '../expectations';
import { controllerOf, keyOf } from '../ownership';
import { claimPods, createExpectedPods, PodControl } from '../podcontrol';
import { isPodActive, podsToDelete } from '../replication/ranking';
import { replicaSetStatus } from './status';

export interface ReplicaSetOptions {
  /** Upstream BurstReplicas: creations or deletions per sync. */
  burstReplicas: number;
  /** --concurrent-replicaset-syncs */
  workers: number;
}

export const DEFAULT_REPLICASET_OPTIONS: ReplicaSetOptions = { burstReplicas: 500, workers: 5 };

const RS = { resource: 'replicasets.apps' };

function matches(rs: ReplicaSet, pod: Pod): boolean {
  return selectorFromLabelSelector(rs.spec.selector).matches(pod.metadata.labels ?? {});
}

/**
 * The ReplicaSet controller (pkg/controller/replicaset): keeps spec.replicas active pods
 * matching the set-based selector, adopting and releasing by controllerRef, and writes
 * status; with minReadySeconds it looks again once ready pods have become available.
 */
export class ReplicaSetController {
  private readonly sets: Informer<ReplicaSet>;
  private readonly pods: Informer<Pod>;
  private readonly queue: WorkQueue;
  private readonly expectations: Expectations;
  private readonly control: PodControl;
  readonly events: EventRecorder;

  constructor(informers: InformerFactory, private readonly client: Client, private readonly clock: Clock, quiescence: Quiescence, private readonly options = DEFAULT_REPLICASET_OPTIONS) {
    this.sets = informers.informer<ReplicaSet>(RS);
    this.pods = informers.informer<Pod>({ resource: 'pods' });
    this.pods.addIndexer('namespace', (p) => [p.metadata.namespace ?? '']);
    this.events = new EventRecorder(client, clock, { component: 'replicaset-controller' });
    this.control = new PodControl(client, this.events);
    this.expectations = new Expectations(() => clock.now());
    this.queue = new WorkQueue(clock, quiescence, (key) => this.sync(key), { name: 'replicaset', workers: options.workers });
  }

  run(): void {
    const enqueue = (rs: ReplicaSet) => this.queue.add(keyOf(rs.metadata.namespace, rs.metadata.name!));
    this.sets.addEventHandler({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n), onDelete: (rs) => { this.expectations.delete(keyOf(rs.metadata.namespace, rs.metadata.name!)); enqueue(rs); } });
    this.pods.addEventHandler({
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

  stop(): void {
    this.queue.shutdown();
  }

  private ownerKey(pod: Pod): string | undefined {
    const ref = controllerOf(pod);
    if (ref?.kind !== 'ReplicaSet') return undefined;
    const rs = this.sets.getByName(ref.name, pod.metadata.namespace);
    return rs && rs.metadata.uid === ref.uid ? keyOf(pod.metadata.namespace, ref.name) : undefined;
  }

  private podDeleted(pod: Pod): void {
    const owner = this.ownerKey(pod);
    if (!owner) return;
    this.expectations.deletionObserved(owner);
    this.queue.add(owner);
  }

  private enqueueMatching(pod: Pod): void {
    for (const rs of this.sets.list()) {
      if (rs.metadata.namespace === pod.metadata.namespace && matches(rs, pod)) this.queue.add(keyOf(rs.metadata.namespace, rs.metadata.name!));
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
    const pods = await claimPods(candidates, rs, (p) => matches(rs, p), this.control);
    let manageError: Parameters<typeof replicaSetStatus>[3];
    if (needsSync && !rs.metadata.deletionTimestamp) {
      try {
        await this.manageReplicas(key, pods, rs);
      } catch (e) {
        const diff = pods.length - (rs.spec.replicas ?? 1);
        manageError = { reason: diff < 0 ? 'FailedCreate' : 'FailedDelete', message: (e as Error).message, at: isoTime(this.clock.now()) };
      }
    }
    const status = replicaSetStatus(rs, pods, this.clock.now(), manageError);
    await this.updateStatus(rs, status);
    // Ready pods become available minReadySeconds later: look again then (upstream AddAfter).
    const minReady = rs.spec.minReadySeconds ?? 0;
    const replicas = rs.spec.replicas ?? 1;
    if (!manageError && minReady > 0 && (status.readyReplicas ?? 0) === replicas && (status.availableReplicas ?? 0) !== replicas) {
      this.queue.addAfter(key, minReady * 1000);
    }
    if (manageError) throw new Error(manageError.message);
  }

  /** Upstream manageReplicas: create or delete at most burstReplicas pods toward spec.replicas. */
  private async manageReplicas(key: string, pods: Pod[], rs: ReplicaSet): Promise<void> {
    const replicas = rs.spec.replicas ?? 1;
    const diff = pods.length - replicas;
    if (diff < 0) {
      await createExpectedPods(this.control, this.expectations, key, Math.min(-diff, this.options.burstReplicas), rs.spec.template, rs);
    } else if (diff > 0) {
      const victims = podsToDelete(pods, Math.min(diff, this.options.burstReplicas), replicas);
      this.expectations.expect(key, 0, victims.length);
      const results = await Promise.allSettled(victims.map((p) => this.control.deletePod(p, rs)));
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed.length > 0) {
        this.expectations.lowerExpectations(key, 0, failed.length);
        throw failed[0].reason;
      }
    }
  }

  private async updateStatus(rs: ReplicaSet, status: NonNullable<ReplicaSet['status']>): Promise<void> {
    if (jsonEqual(rs.status, status)) return;
    const next = clone(rs);
    next.status = status;
    try {
      await this.client.update<ReplicaSet>({ ...RS, namespace: rs.metadata.namespace }, next, { subresource: 'status' });
    } catch (e) {
      // A conflict means a newer ReplicaSet is on its way through the informer, which syncs it again.
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
    }
  }
}

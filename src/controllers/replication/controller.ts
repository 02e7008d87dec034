import { Clock, isoTime } from '../../clock';
import { Pod } from '../../api/core';
import { clone, jsonEqual } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { ReplicationController } from '../../api/resources/replicationcontroller';
import { Client } from '../../client/client';
import { EventRecorder } from '../../client/events';
import { Informer, InformerFactory } from '../../client/informer';
import { Quiescence } from '../../clock';
import { WorkQueue } from '../../client/workqueue';
import { Expectations } from '../expectations';
import { controllerOf, keyOf, matchesSelector } from '../ownership';
import { claimPods, createExpectedPods, PodControl } from '../podcontrol';
import { isPodActive, podsToDelete } from './ranking';
import { calculateStatus } from './status';

export interface ReplicationOptions {
  /** Upstream BurstReplicas: creations or deletions per sync. */
  burstReplicas: number;
  /** --concurrent-rc-syncs */
  workers: number;
}

export const DEFAULT_REPLICATION_OPTIONS: ReplicationOptions = { burstReplicas: 500, workers: 5 };

const RC = 'replicationcontrollers';

/**
 * The replication manager (pkg/controller/replication, on the ReplicaSet controller's
 * logic): keeps exactly spec.replicas active pods per ReplicationController, adopting and
 * releasing pods by selector and controllerRef, and writes status.
 */
export class ReplicationManager {
  private readonly rcs: Informer<ReplicationController>;
  private readonly pods: Informer<Pod>;
  private readonly queue: WorkQueue;
  private readonly expectations: Expectations;
  private readonly control: PodControl;
  readonly events: EventRecorder;

  constructor(informers: InformerFactory, private readonly client: Client, private readonly clock: Clock, quiescence: Quiescence, private readonly options = DEFAULT_REPLICATION_OPTIONS) {
    this.rcs = informers.informer<ReplicationController>({ resource: RC });
    this.pods = informers.informer<Pod>({ resource: 'pods' });
    this.pods.addIndexer('namespace', (p) => [p.metadata.namespace ?? '']);
    this.events = new EventRecorder(client, clock, { component: 'replication-controller' });
    this.control = new PodControl(client, this.events);
    this.expectations = new Expectations(() => clock.now());
    this.queue = new WorkQueue(clock, quiescence, (key) => this.sync(key), { name: 'replicationmanager', workers: options.workers });
  }

  run(): void {
    const enqueue = (rc: ReplicationController) => this.queue.add(keyOf(rc.metadata.namespace, rc.metadata.name!));
    this.rcs.addEventHandler({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n), onDelete: (rc) => { this.expectations.delete(keyOf(rc.metadata.namespace, rc.metadata.name!)); enqueue(rc); } });
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
    if (ref?.kind !== 'ReplicationController') return undefined;
    const rc = this.rcs.getByName(ref.name, pod.metadata.namespace);
    return rc && rc.metadata.uid === ref.uid ? keyOf(pod.metadata.namespace, ref.name) : undefined;
  }

  private podDeleted(pod: Pod): void {
    const owner = this.ownerKey(pod);
    if (!owner) return;
    this.expectations.deletionObserved(owner);
    this.queue.add(owner);
  }

  private enqueueMatching(pod: Pod): void {
    for (const rc of this.rcs.list()) {
      if (rc.metadata.namespace === pod.metadata.namespace && matchesSelector(pod.metadata.labels, rc.spec.selector)) {
        this.queue.add(keyOf(rc.metadata.namespace, rc.metadata.name!));
      }
    }
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/');
    const rc = this.rcs.getByName(name, namespace);
    if (!rc) {
      this.expectations.delete(key);
      return;
    }
    const needsSync = this.expectations.satisfied(key);
    const candidates = this.pods.byIndex('namespace', namespace).filter(isPodActive);
    const pods = await claimPods(candidates, rc, (p) => matchesSelector(p.metadata.labels, rc.spec.selector), this.control);
    let manageError: Parameters<typeof calculateStatus>[3];
    if (needsSync && !rc.metadata.deletionTimestamp) {
      try {
        await this.manageReplicas(key, pods, rc);
      } catch (e) {
        const diff = pods.length - (rc.spec.replicas ?? 1);
        manageError = { reason: diff < 0 ? 'FailedCreate' : 'FailedDelete', message: (e as Error).message, at: isoTime(this.clock.now()) };
      }
    }
    await this.updateStatus(rc, calculateStatus(rc, pods, this.clock.now(), manageError));
    if (manageError) throw new Error(manageError.message);
  }

  /** Upstream manageReplicas: create or delete at most burstReplicas pods toward spec.replicas. */
  private async manageReplicas(key: string, pods: Pod[], rc: ReplicationController): Promise<void> {
    const replicas = rc.spec.replicas ?? 1;
    const diff = pods.length - replicas;
    if (diff < 0) {
      await createExpectedPods(this.control, this.expectations, key, Math.min(-diff, this.options.burstReplicas), rc.spec.template!, rc);
    } else if (diff > 0) {
      const n = Math.min(diff, this.options.burstReplicas);
      const victims = podsToDelete(pods, n, replicas);
      this.expectations.expect(key, 0, victims.length);
      const results = await Promise.allSettled(victims.map((p) => this.control.deletePod(p, rc)));
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed.length > 0) {
        this.expectations.lowerExpectations(key, 0, failed.length);
        throw failed[0].reason;
      }
    }
  }

  private async updateStatus(rc: ReplicationController, status: NonNullable<ReplicationController['status']>): Promise<void> {
    if (jsonEqual(rc.status, status)) return;
    const next = clone(rc);
    next.status = status;
    try {
      await this.client.update<ReplicationController>({ resource: RC, namespace: rc.metadata.namespace }, next, { subresource: 'status' });
    } catch (e) {
      // A conflict means a newer RC is on its way through the informer, which syncs it again.
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
    }
  }
}

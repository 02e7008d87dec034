import { isoTime } from '../../clock';
import { Pod } from '../../api/core';
import { clone, jsonEqual } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { selectorFromLabelSelector } from '../../api/labels/selector';
import { Job } from '../../api/resources/job';
import { EventRecorder } from '../../client/events';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { Expectations } from '../expectations';
import { controllerOf, keyOf } from '../ownership';
import { claimPods, createExpectedPods, PodControl } from '../podcontrol';
import { countPods, decide, finishedCondition, isFinished, jobStatus } from './state';
import { ControllerBase } from '../controller-base';

const JOBS = 'jobs.batch';

/**
 * The Job controller (pkg/controller/job): runs a Job's pods to completion — keeps the
 * wanted number active, counts successes and failures from its pods, and marks the Job
 * Complete (or Failed past backoffLimit). Only pods it controls are counted or deleted.
 */
export class JobController extends ControllerBase {
  private readonly jobs: Informer<Job>;
  private readonly pods: Informer<Pod>;
  private readonly queue: WorkQueue;
  private readonly expectations: Expectations;
  private readonly control: PodControl;
  readonly events: EventRecorder;

  constructor(ctx: ControllerContext) {
    super(ctx);
    const { client, clock } = ctx;
    this.jobs = ctx.informer<Job>({ resource: JOBS });
    this.pods = ctx.informer<Pod>({ resource: 'pods' });
    this.pods.addIndexer('namespace', (p) => [p.metadata.namespace ?? '']);
    this.events = ctx.events({ component: 'job-controller' });
    this.control = new PodControl(client, this.events);
    this.expectations = new Expectations(() => clock.now());
    this.queue = ctx.workQueue((key) => this.sync(key), { name: 'job', workers: 5 });
  }

  run(): void {
    const enqueue = (job: Job) => this.queue.add(keyOf(job.metadata.namespace, job.metadata.name!));
    this.ctx.handle(this.jobs, { onAdd: enqueue, onUpdate: (_o, n) => enqueue(n), onDelete: enqueue });
    const podChanged = (pod: Pod, observe?: 'add' | 'del') => {
      const key = this.ownerKey(pod);
      if (!key) return;
      if (observe === 'add') this.expectations.creationObserved(key);
      if (observe === 'del') this.expectations.deletionObserved(key);
      this.queue.add(key);
    };
    this.ctx.handle(this.pods, {
      onAdd: (pod) => podChanged(pod, 'add'),
      onUpdate: (old, pod) =>
        podChanged(pod, pod.metadata.deletionTimestamp && !old.metadata.deletionTimestamp ? 'del' : undefined),
      onDelete: (pod) => podChanged(pod, 'del'),
    });
  }

  private ownerKey(pod: Pod): string | undefined {
    const ref = controllerOf(pod);
    return ref && ref.kind === 'Job' ? keyOf(pod.metadata.namespace, ref.name) : undefined;
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/');
    const job = this.jobs.getByName(name, namespace);
    if (!job) {
      this.expectations.delete(key);
      return;
    }
    if (isFinished(job)) return;
    const selector = selectorFromLabelSelector(job.spec.selector);
    const pods = await claimPods(
      this.pods.byIndex('namespace', namespace),
      job,
      (p) => selector.matches(p.metadata.labels ?? {}),
      this.control,
    );
    const counts = countPods(pods);
    const now = isoTime(this.clock.now());
    const startTime = job.status?.startTime ?? now;
    const decision = decide(job, { active: counts.active.length, succeeded: counts.succeeded, failed: counts.failed });
    let active = counts.active.length;
    const extra: Partial<NonNullable<Job['status']>> = { startTime };
    if (decision.kind === 'fail') {
      await Promise.all(counts.active.map((p) => this.control.deletePod(p, job)));
      active = 0;
      extra.conditions = [
        ...(job.status?.conditions ?? []),
        finishedCondition('Failed', now, decision.reason, decision.message),
      ];
      this.events.warning(job, decision.reason, decision.message);
    } else if (decision.kind === 'complete') {
      extra.conditions = [...(job.status?.conditions ?? []), finishedCondition('Complete', now)];
      extra.completionTime = now;
      this.events.normal(job, 'Completed', 'Job completed');
    } else if (this.expectations.satisfied(key) && !job.metadata.deletionTimestamp) {
      active += await this.manageActive(key, job, counts.active, decision.wantActive);
    }
    const status = jobStatus(job.status, { active, succeeded: counts.succeeded, failed: counts.failed }, extra);
    if (jsonEqual(status, job.status)) return;
    const next = clone(job);
    next.status = status;
    try {
      await this.client.update<Job>({ resource: JOBS, namespace }, next, { subresource: 'status' });
    } catch (e) {
      // A conflict means a newer object is on its way through the informer, which syncs it again.
      if (!isStatusError(e, 'Conflict') && !isStatusError(e, 'NotFound')) throw e;
    }
  }

  /** Creates or deletes pods toward wantActive; returns the change in active pods. */
  private async manageActive(key: string, job: Job, active: Pod[], wantActive: number): Promise<number> {
    const diff = wantActive - active.length;
    if (diff > 0) {
      return createExpectedPods(this.control, this.expectations, key, diff, job.spec.template, job);
    }
    if (diff < 0) {
      const victims = active.slice(0, -diff);
      this.expectations.expect(key, 0, victims.length);
      await Promise.all(victims.map((p) => this.control.deletePod(p, job)));
      return diff;
    }
    return 0;
  }
}

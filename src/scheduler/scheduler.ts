import { Clock, isoTime, Quiescence } from '../clock';
import { Node, Pod, PodCondition } from '../api/core';
import { KubeObject, objectKey } from '../api/meta';
import { Client } from '../client/client';
import { EVENT_CACHE_ENTRIES, EventRecorder } from '../client/events';
import { EventHandler, Informer, InformerFactory } from '../client/informer';
import { GenericScheduler } from './algorithm';
import { SchedulerCache } from './cache';
import { SchedulingDecision } from './decision';
import { ServiceLike } from './meta';
import { LabelSelected, MapSelected } from './spread-selectors';
import { Algorithm } from './providers';
import { SchedulingQueue } from './queue';
import { ErrorSink, handleError } from '../client/background';

export interface SchedulerOptions {
  /** --scheduler-name: pods whose spec.schedulerName names another scheduler are left alone. */
  schedulerName: string;
  algorithm: Algorithm;
  /** percentageOfNodesToScore: 50 in v1.12; 0 (adaptive) in v1.32. */
  percentageOfNodesToScore: number;
  alwaysCheckAllPredicates: boolean;
  /** Keep every decision's per-node verdicts and scores (explainability; costs time at scale). */
  recordDecisions: boolean;
}

function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** isPodUpdated (v1.12 scheduling_queue.go): a change other than resourceVersion, generation or status. */
function changedBeyondStatus(a: Pod, b: Pod): boolean {
  const strip = (p: Pod) =>
    JSON.stringify({
      ...p.metadata,
      resourceVersion: undefined,
      generation: undefined,
      managedFields: undefined,
      spec: p.spec,
    });
  return strip(a) !== strip(b);
}

/** nodeSchedulingPropertiesChanged (v1.12 factory.go): what in a Node update may let waiting pods fit. */
function schedulingPropertiesChanged(a: Node, b: Node): boolean {
  const props = (n: Node) =>
    JSON.stringify([
      n.spec?.unschedulable ?? false,
      n.status?.allocatable,
      n.metadata.labels,
      n.spec?.taints ?? [],
      (n.status?.conditions ?? []).map((c) => [c.type, c.status]),
    ]);
  return props(a) !== props(b);
}

/**
 * The scheduler: watches pods without spec.nodeName that name it, and nodes; for each pod
 * runs the algorithm (predicates, then priorities) over its cache, assumes the pod on the
 * chosen node and POSTs a Binding (pods/{name}/binding). When nothing fits the pod stays
 * Pending with PodScheduled=False reason Unschedulable and a FailedScheduling event, and
 * waits in the unschedulable queue until the cluster changes.
 */
export class Scheduler {
  readonly cache: SchedulerCache;
  readonly queue = new SchedulingQueue();
  readonly decisions: SchedulingDecision[] = [];
  private readonly algorithm: GenericScheduler;
  private readonly pods: Informer<Pod>;
  private readonly nodes: Informer<Node>;
  private readonly services: Informer<KubeObject & ServiceLike>;
  private readonly rcs: Informer<KubeObject & MapSelected>;
  private readonly rss: Informer<KubeObject & LabelSelected>;
  private readonly sss: Informer<KubeObject & LabelSelected>;
  private readonly events: EventRecorder;
  private looping = false;
  private readonly registrations: (() => void)[] = [];
  private stopped = true;
  /** Decisions made, bindings that succeeded (for benchmarks). */
  scheduled = 0;
  bound = 0;
  onBound?: (pod: string) => void;

  constructor(
    private readonly informers: InformerFactory,
    private readonly client: Client,
    private readonly clock: Clock,
    private readonly quiescence: Quiescence,
    readonly options: SchedulerOptions,
    /** Where its background failures go: the cluster's reporter (the process's when alone). */
    private readonly report: ErrorSink = handleError,
  ) {
    this.cache = new SchedulerCache(options.algorithm.release.arithmetic);
    this.pods = informers.informer<Pod>({ resource: 'pods' });
    this.nodes = informers.informer<Node>({ resource: 'nodes' });
    this.services = informers.informer<KubeObject & ServiceLike>({ resource: 'services' });
    // The listers SelectorSpread (v1.12) and the default topology spreading (v1.32) read.
    this.rcs = informers.informer<KubeObject & MapSelected>({ resource: 'replicationcontrollers' });
    this.rss = informers.informer<KubeObject & LabelSelected>({ resource: 'replicasets' });
    this.sss = informers.informer<KubeObject & LabelSelected>({ resource: 'statefulsets' });
    this.events = new EventRecorder(client, clock, { component: options.schedulerName }, EVENT_CACHE_ENTRIES, report);
    this.algorithm = new GenericScheduler(options.algorithm, this.cache, {
      percentageOfNodesToScore: options.percentageOfNodesToScore,
      alwaysCheckAllPredicates: options.alwaysCheckAllPredicates,
    });
  }

  /** Registers the handlers, then lists and watches (the handlers see every existing object). */
  async start(): Promise<void> {
    this.run();
    await this.informers.start();
  }

  run(): void {
    this.stopped = false;
    this.handle(this.nodes, {
      onAdd: (n) => {
        this.cache.setNode(n);
        this.moveAll();
      },
      onUpdate: (old, n) => {
        this.cache.setNode(n);
        if (schedulingPropertiesChanged(old, n)) this.moveAll();
      },
      onDelete: (n) => this.cache.removeNode(n),
    });
    // A service change moves the unschedulable pods (v1.12 factory's service handlers); a
    // controller change only refreshes what spreading reads, as upstream's listers do.
    const servicesChanged = () => {
      this.cache.setSpreadSources({ services: this.services.list() });
      this.moveAll();
    };
    this.handle(this.services, { onAdd: servicesChanged, onUpdate: servicesChanged, onDelete: servicesChanged });
    const watch = <T extends KubeObject>(inf: Informer<T>, set: (items: T[]) => void) => {
      const h = () => set(inf.list());
      this.handle(inf, { onAdd: h, onUpdate: h, onDelete: h });
    };
    watch(this.rcs, (replicationControllers) => this.cache.setSpreadSources({ replicationControllers }));
    watch(this.rss, (replicaSets) => this.cache.setSpreadSources({ replicaSets }));
    watch(this.sss, (statefulSets) => this.cache.setSpreadSources({ statefulSets }));
    this.handle(this.pods, {
      onAdd: (p) => this.podAdded(p),
      onUpdate: (old, p) => this.podUpdated(old, p),
      onDelete: (p) => this.podDeleted(p),
    });
  }

  stop(): void {
    this.stopped = true;
    // A scheduler that leads again registers its handlers again: the old ones must go.
    for (const remove of this.registrations.splice(0)) remove();
    this.informers.stop();
  }

  private handle<T extends KubeObject>(informer: Informer<T>, handler: EventHandler<T>): void {
    const registration = informer.addEventHandler(handler);
    this.registrations.push(() => informer.removeEventHandler(registration));
  }

  private responsible(pod: Pod): boolean {
    return (pod.spec.schedulerName ?? 'default-scheduler') === this.options.schedulerName;
  }

  /**
   * SchedulingGates' PreEnqueue (v1.32 plugins/schedulinggates): a gated pod is held out of
   * the queue — no attempt, no FailedScheduling event; the API server wrote its
   * SchedulingGated condition. Removing the last gate is a pod update that queues it.
   */
  private gated(pod: Pod): boolean {
    return !!this.options.algorithm.schedulingGates && (pod.spec.schedulingGates?.length ?? 0) > 0;
  }

  private podAdded(pod: Pod): void {
    if (isTerminal(pod)) return;
    if (pod.spec.nodeName) this.cache.addPod(pod);
    else if (this.responsible(pod) && !pod.metadata.deletionTimestamp && !this.gated(pod))
      this.enqueue(() => this.queue.add(objectKey(pod), pod));
  }

  private podUpdated(old: Pod, pod: Pod): void {
    const key = objectKey(pod);
    if (isTerminal(pod)) {
      this.queue.delete(key);
      if (this.cache.hasPod(key)) {
        this.cache.removePod(key);
        this.moveAll();
      }
      return;
    }
    if (pod.spec.nodeName) {
      this.queue.delete(key);
      this.cache.addPod(pod);
      return;
    }
    if (!this.responsible(pod) || pod.metadata.deletionTimestamp || this.gated(pod)) {
      this.queue.delete(key);
      return;
    }
    if (changedBeyondStatus(old, pod)) this.enqueue(() => this.queue.update(key, pod));
  }

  private podDeleted(pod: Pod): void {
    const key = objectKey(pod);
    this.queue.delete(key);
    if (this.cache.hasPod(key)) {
      this.cache.removePod(key);
      this.moveAll();
    }
  }

  private moveAll(): void {
    if (this.queue.unschedulableCount === 0) return;
    this.enqueue(() => this.queue.moveAllToActive());
  }

  private enqueue(change: () => void): void {
    change();
    if (this.looping || this.stopped || this.queue.length === 0) return;
    this.looping = true;
    this.quiescence.begin();
    // Next macrotask: informer deliveries of the same instant land first, as they would upstream.
    setImmediate(() => {
      try {
        this.drain();
      } finally {
        this.looping = false;
        this.quiescence.end();
      }
    });
  }

  /** scheduleOne until the active queue is empty. Decisions are synchronous; bindings run in flight. */
  private drain(): void {
    for (let item = this.queue.pop(); item && !this.stopped; item = this.queue.pop()) this.scheduleOne(item.key);
  }

  scheduleOne(key: string): void {
    const pod = this.pods.get(key);
    if (!pod || pod.spec.nodeName || pod.metadata.deletionTimestamp || isTerminal(pod) || this.cache.isAssumed(key))
      return;
    const result = this.algorithm.schedule(pod, this.clock.now(), this.options.recordDecisions);
    this.scheduled++;
    if (result.decision) this.decisions.push(result.decision);
    if (!result.node) {
      this.recordUnschedulable(pod, result.message!);
      this.queue.addUnschedulable(key, pod);
      return;
    }
    this.cache.assume(pod, result.node);
    void this.bind(pod, key, result.node);
  }

  private async bind(pod: Pod, key: string, node: string): Promise<void> {
    const { name, namespace, uid } = pod.metadata;
    try {
      await this.client.createSubresource({ resource: 'pods', namespace }, name!, 'binding', {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name, namespace, uid },
        target: { apiVersion: 'v1', kind: 'Node', name: node },
      });
      this.bound++;
      this.onBound?.(key);
      this.events.normal(pod, 'Scheduled', `Successfully assigned ${namespace}/${name} to ${node}`);
    } catch (e) {
      this.cache.forget(key);
      this.events.warning(pod, 'FailedScheduling', `Binding rejected: ${(e as Error).message}`);
      const latest = this.pods.get(key);
      if (latest && !latest.spec.nodeName) this.queue.addUnschedulable(key, latest);
    }
  }

  /** PodScheduled=False reason Unschedulable (written only when it changes) and a FailedScheduling event. */
  private recordUnschedulable(pod: Pod, message: string): void {
    this.events.warning(pod, 'FailedScheduling', message);
    const conditions = pod.status?.conditions ?? [];
    const old = conditions.find((c) => c.type === 'PodScheduled');
    if (old && old.status === 'False' && old.reason === 'Unschedulable' && old.message === message) return;
    const now = isoTime(this.clock.now());
    const condition: PodCondition = {
      type: 'PodScheduled',
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime: old && old.status === 'False' ? old.lastTransitionTime : now,
      reason: 'Unschedulable',
      message,
    };
    const next = [...conditions.filter((c) => c.type !== 'PodScheduled'), condition];
    void this.client
      .patch(
        { resource: 'pods', namespace: pod.metadata.namespace },
        pod.metadata.name!,
        'merge',
        { status: { conditions: next } },
        { subresource: 'status' },
      )
      .catch((e) => this.report('scheduler', e));
  }
}

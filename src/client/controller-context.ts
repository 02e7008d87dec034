import { KubeObject } from '../api/meta';
import { ListOptions } from '../api/request';
import { Clock, Quiescence, TimerHandle } from '../clock';
import { ErrorSink, handleError } from './background';
import { EVENT_CACHE_ENTRIES, EventRecorder, EventSource } from './events';
import { Client, ResourceRef } from './client';
import { EventHandler, HandlerRegistration, Informer, InformerFactory } from './informer';
import { WorkQueue, WorkQueueOptions } from './workqueue';

export type { ErrorSink } from './background';

/** What a cluster gives every controller it builds. */
export interface ControllerParts {
  informers: InformerFactory;
  client: Client;
  clock: Clock;
  quiescence: Quiescence;
  /** The cluster's background reporter (Cluster.background); the process's when none is given. */
  reportError?: ErrorSink;
}

/**
 * One controller's lifetime, as kube-controller-manager gives each controller a context that
 * is cancelled when it must stop (ControllerContext plus ctx.Done() in
 * cmd/kube-controller-manager/app): the controller reads the shared informers, the client
 * and the clock through it, and registers through it everything that would go on acting
 * on its behalf — informer handlers, work queues, timers, background work. Because the
 * context records them, `stop()` is written here once: the handlers are removed (the shared
 * informers keep running for everyone else), the queues shut down, the timers cleared, and
 * it resolves when the syncs and background work under way have ended. Every failure of
 * that work goes to one sink, named after the controller.
 */
export class ControllerContext {
  readonly client: Client;
  readonly clock: Clock;
  private readonly informers: InformerFactory;
  private readonly quiescence: Quiescence;
  private readonly sink: ErrorSink;
  private readonly registrations: { informer: Informer<never>; registration: HandlerRegistration }[] = [];
  private readonly queues: WorkQueue[] = [];
  private readonly timers = new Set<TimerHandle>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly cleanups: (() => void)[] = [];
  private stopped = false;

  constructor(
    parts: ControllerParts,
    /** The controller's name in every failure it reports (upstream's log prefix). */
    readonly name: string,
  ) {
    this.client = parts.client;
    this.clock = parts.clock;
    this.informers = parts.informers;
    this.quiescence = parts.quiescence;
    this.sink = parts.reportError ?? handleError;
  }

  /** An event recorder for the controller's events; its failed writes go to the controller's sink. */
  events(source: EventSource): EventRecorder {
    return new EventRecorder(this.client, this.clock, source, EVENT_CACHE_ENTRIES, this.sink);
  }

  /** The shared informer for a resource (one per resource and selector, for every controller). */
  informer<T extends KubeObject>(ref: ResourceRef, options?: ListOptions): Informer<T> {
    return this.informers.informer<T>(ref, options);
  }

  /** Adds a handler to a shared informer; stop() removes it. After stop() nothing is added. */
  handle<T extends KubeObject>(informer: Informer<T>, handler: EventHandler<T>): HandlerRegistration {
    if (this.stopped) return { active: false };
    const registration = informer.addEventHandler(handler);
    this.registrations.push({ informer: informer as unknown as Informer<never>, registration });
    return registration;
  }

  /** A work queue whose failed syncs are reported as `<controller> (<key>)` before their retry. */
  workQueue(
    sync: (key: string) => Promise<void>,
    options: Omit<WorkQueueOptions, 'onError'> & Partial<Pick<WorkQueueOptions, 'onError'>>,
  ): WorkQueue {
    const queue = new WorkQueue(this.clock, this.quiescence, sync, {
      onError: (key, e) => this.report(e, key),
      ...options,
    });
    this.queues.push(queue);
    if (this.stopped) queue.shutdown();
    return queue;
  }

  /**
   * Runs `work` every `ms` (wait.Until): a pass that returns a promise is waited for by the
   * virtual clock and its failure reported; the next pass comes anyway.
   */
  every(ms: number, work: () => unknown): TimerHandle | undefined {
    if (this.stopped) return undefined;
    const timer = this.clock.setInterval(() => this.run(work), ms);
    this.timers.add(timer);
    return timer;
  }

  /** Runs `work` once after `ms`, unless cancelled or stopped first. */
  after(ms: number, work: () => unknown): TimerHandle | undefined {
    if (this.stopped) return undefined;
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(timer);
      this.run(work);
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  /** Clears a timer from every() or after(). */
  cancel(timer: TimerHandle | undefined): void {
    if (!timer) return;
    this.clock.clear(timer);
    this.timers.delete(timer);
  }

  /** Runs `work` now, in the background: waited for by the virtual clock and stop(), its failure reported. */
  run(work: () => unknown): void {
    if (this.stopped) return;
    try {
      const result = work();
      if (result instanceof Promise) this.go(result);
    } catch (e) {
      this.report(e);
    }
  }

  /** Background work already started: waited for by the virtual clock and stop(), its failure reported. */
  go(work: Promise<unknown>, what?: string): void {
    const tracked = this.quiescence.track(work).catch((e) => this.report(e, what));
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }

  /** Something else stop() must undo (a listener on another controller); at once when already stopped. */
  onStop(cleanup: () => void): void {
    if (this.stopped) cleanup();
    else this.cleanups.push(cleanup);
  }

  /** Tells the sink of a failure nobody waits for (utilruntime.HandleError), named after the controller. */
  report(error: unknown, what?: string): void {
    this.sink(what ? `${this.name} (${what})` : this.name, error);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /**
   * The controller's context is cancelled: its handlers leave the shared informers, its
   * queues shut down, its timers are cleared; resolves once the syncs and background work
   * under way have ended (they may still finish their writes, as upstream's workers finish
   * the item in hand). Stopping twice is stopping once.
   */
  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      for (const { informer, registration } of this.registrations.splice(0)) informer.removeEventHandler(registration);
      for (const timer of this.timers) this.clock.clear(timer);
      this.timers.clear();
      for (const q of this.queues) q.shutdown();
      for (const cleanup of this.cleanups.splice(0)) cleanup();
    }
    await Promise.all([...this.queues.map((q) => q.drained()), ...this.inFlight]);
  }
}

import { Clock, isoTime } from '../clock';
import { Event, ObjectReference } from '../api/core';
import { KubeObject } from '../api/meta';
import { Client } from './client';
import { ErrorSink, handleError } from './background';
import { flatString } from '../util/flat-string';

export interface EventSource {
  component: string;
  host?: string;
}

/**
 * Records core/v1 Events as upstream's EventRecorder does: one Event per object, reason
 * and message, with repeats folded into count and lastTimestamp. Fire-and-forget: a
 * failed write never disturbs the component that reported it.
 */
/**
 * The last name stamp handed out, shared by every recorder in the process. Upstream names an
 * Event `<object>.<hex UnixNano>`; on a virtual clock many events share one millisecond, so the
 * stamp is the clock's time in microseconds, moved past the previous stamp when it is not later:
 * names stay unique and sort in the order the events were made (a counter modulo 1000 wrapped
 * within one millisecond, and lists came back out of order).
 */
let lastStamp = 0;

function nameStamp(nowMs: number): string {
  lastStamp = Math.max(nowMs * 1000, lastStamp + 1);
  return lastStamp.toString(16);
}

/**
 * How many distinct events a recorder remembers to fold repeats into (client-go
 * tools/record/events_cache.go: maxLruCacheEntries = 4096, the eventLogger's LRU cache that
 * NewEventCorrelator makes). Beyond it the least recently recorded is forgotten, and its next
 * repeat is a new Event, as upstream's.
 */
export const EVENT_CACHE_ENTRIES = 4096;

export class EventRecorder {
  /** An LRU: a Map iterates in insertion order, so a hit is moved to the end and the first entry is the oldest. */
  private readonly seen = new Map<string, { name: string; namespace: string; count: number }>();

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
    private readonly source: EventSource,
    private readonly cacheEntries = EVENT_CACHE_ENTRIES,
    /** Where a failed event write goes: the owner's background reporter. */
    private readonly report: ErrorSink = handleError,
  ) {}

  /** How many distinct events the recorder remembers now (at most cacheEntries). */
  get remembered(): number {
    return this.seen.size;
  }

  normal(obj: KubeObject, reason: string, message: string): void {
    this.record(obj, 'Normal', reason, message);
  }

  warning(obj: KubeObject, reason: string, message: string): void {
    this.record(obj, 'Warning', reason, message);
  }

  record(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const ref: ObjectReference = {
      kind: obj.kind,
      namespace: obj.metadata.namespace,
      name: obj.metadata.name,
      uid: obj.metadata.uid,
      apiVersion: obj.apiVersion,
      resourceVersion: obj.metadata.resourceVersion,
    };
    // Cluster-scoped objects' events live in "default", as upstream records them.
    const namespace = obj.metadata.namespace ?? 'default';
    const now = isoTime(this.clock.now());
    const key = [ref.kind, namespace, ref.name, ref.uid, type, reason, message].join('\u0000');
    const previous = this.seen.get(key);
    if (previous) {
      this.seen.delete(key);
      this.seen.set(key, previous);
      previous.count++;
      void this.client
        .patch({ resource: 'events', namespace }, previous.name, 'merge', { count: previous.count, lastTimestamp: now })
        .catch((e) => this.report('event recorder', e));
      return;
    }
    // Stored with the Event, as long as it lives: one piece each (../util/flat-string).
    const name = flatString(`${ref.name}.${nameStamp(this.clock.now())}`);
    this.seen.set(key, { name, namespace, count: 1 });
    if (this.seen.size > this.cacheEntries) this.seen.delete(this.seen.keys().next().value!);
    const event: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: ref,
      reason,
      message: flatString(message),
      source: { component: this.source.component, ...(this.source.host ? { host: this.source.host } : {}) },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.source.component,
      reportingInstance: this.source.host ?? '',
    };
    void this.client.create({ resource: 'events', namespace }, event).catch((e) => this.report('event recorder', e));
  }
}

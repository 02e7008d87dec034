import { isStatusError } from '../api/errors';
import { KubeObject } from '../api/meta';
import { ApiWatchEvent, WatchOptions } from '../api/request';
import { coreRegistry } from '../api/resources';
import { Client, ResourceRef, Watch, WatchHandlers } from '../client/client';
import { KubeconfigClient } from '../client/kubeconfig';

const registry = coreRegistry();

/** A watch whose events are handed over at their cluster times. */
interface TimedWatch {
  /** The storage prefix its events come from; undefined when a selector filters them. */
  prefix?: string;
  /** The highest revision handed over, and the server's revision when it started. */
  delivered: number;
  since: number;
  queue: ApiWatchEvent[];
  pumping: boolean;
  handle(ev: ApiWatchEvent): void;
}

/**
 * Exact event times on a virtual clock over HTTP, for the kube driver. A kubespec serve tells
 * the cluster time each storage revision was written at (GET /kubespec/v1/revisions); the
 * watches of client() hand their events over one at a time with eventTime at the cluster time
 * of their revision, so a recorder sees each change when it happened rather than when the
 * advance returned — as in process.
 */
export class TimedWatches {
  /** Cluster time (ms) each storage revision was written at, and the keys written. */
  private readonly revisionAt = new Map<number, number>();
  private readonly revisionKeys: [number, string][] = [];
  private knownRevision = 0;
  private readonly watches = new Set<TimedWatch>();
  private timed?: Client;
  /** While a watch event is being handled: the cluster time it happened (the driver's now()). */
  eventTime?: number;

  constructor(private readonly api: KubeconfigClient) {}

  /** Whether the server tells revision times (a server without the endpoint answers 404 or 403). */
  available(): Promise<boolean> {
    return this.fetchRevisions().then(
      () => true,
      (e) => {
        if (isStatusError(e) && (e.code === 404 || e.code === 403)) return false;
        throw e;
      },
    );
  }

  private async fetchRevisions(): Promise<void> {
    const r = await this.api.request<{ revision: number; items: [number, number, string][] }>(
      'GET',
      '/kubespec/v1/revisions',
      { query: { after: String(this.knownRevision) } },
    );
    for (const [rev, at, key] of r.items) {
      this.revisionAt.set(rev, at);
      this.revisionKeys.push([rev, key]);
    }
    this.knownRevision = Math.max(this.knownRevision, r.revision);
  }

  /** The API client whose watches hand events over at their cluster times. */
  client(): Client {
    if (this.timed) return this.timed;
    const api = this.api;
    const watch = async <T extends KubeObject>(
      ref: ResourceRef,
      options: WatchOptions,
      handlers: WatchHandlers<T>,
    ): Promise<Watch> => {
      const rt = registry.get(ref.resource);
      const filtered = !!(options.labelSelector || options.fieldSelector);
      const w: TimedWatch = {
        prefix:
          rt && !filtered
            ? `/registry/${rt.storagePrefix}/${rt.namespaced && ref.namespace ? `${ref.namespace}/` : ''}`
            : undefined,
        delivered: 0,
        since: 0,
        queue: [],
        pumping: false,
        handle: (ev) => handlers.onEvent(ev as ApiWatchEvent<T>),
      };
      const inner = await api.watch<T>(ref, options, {
        onEvent: (ev) => {
          w.queue.push(ev as ApiWatchEvent);
          void this.pump(w, handlers.onClose);
        },
        onClose: (err) => {
          this.watches.delete(w);
          handlers.onClose?.(err);
        },
      });
      await this.fetchRevisions();
      w.since = this.knownRevision;
      this.watches.add(w);
      return {
        stop: () => {
          this.watches.delete(w);
          inner.stop();
        },
      };
    };
    this.timed = Object.assign(Object.create(api) as Client, { watch });
    return this.timed;
  }

  private async pump(w: TimedWatch, onClose?: (e?: Error) => void): Promise<void> {
    if (w.pumping) return;
    w.pumping = true;
    try {
      while (w.queue.length > 0) {
        const ev = w.queue[0];
        const rv = Number(ev.object.metadata.resourceVersion);
        if (!this.revisionAt.has(rv) && rv > this.knownRevision) await this.fetchRevisions();
        w.queue.shift();
        this.eventTime = this.revisionAt.get(rv);
        try {
          w.handle(ev);
        } finally {
          this.eventTime = undefined;
        }
        if (rv > w.delivered) w.delivered = rv;
      }
    } catch (e) {
      onClose?.(e as Error);
    } finally {
      w.pumping = false;
    }
  }

  /**
   * After the clock moved: every unfiltered watch has handed over each change up to the
   * server's revision (the server wrote them before answering; they may still be in flight).
   */
  async sync(): Promise<void> {
    if (this.watches.size === 0) return;
    await this.fetchRevisions();
    const deadline = Date.now() + 15_000;
    for (const w of this.watches) {
      if (!w.prefix) continue;
      let target = 0;
      for (let i = this.revisionKeys.length - 1; i >= 0 && this.revisionKeys[i][0] > w.since; i--) {
        if (this.revisionKeys[i][1].startsWith(w.prefix)) {
          target = this.revisionKeys[i][0];
          break;
        }
      }
      while ((w.delivered < target || w.queue.length > 0 || w.pumping) && this.watches.has(w)) {
        if (Date.now() > deadline)
          throw new Error(
            `a watch on ${w.prefix} did not deliver revision ${target} within 15 s (last ${w.delivered})`,
          );
        await new Promise<void>((resolve) => setTimeout(resolve, 2));
      }
    }
  }
}

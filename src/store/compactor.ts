import { Clock, TimerHandle } from '../clock';
import { Store } from './store';

/** kube-apiserver's --etcd-compaction-interval default. */
export const DEFAULT_COMPACTION_INTERVAL_MS = 5 * 60_000;

/**
 * Compacts the store on a schedule, as kube-apiserver's compactor does (upstream
 * storage/etcd3 compact.go): at each tick it compacts to the revision it saw at the previous
 * tick, so at least one interval of history stays for watches that resume, and older
 * resourceVersions are then answered 410 Gone. `onError` hears a failed pass (the next tick
 * tries again).
 */
export class Compactor {
  private timer?: TimerHandle;
  private last = 0;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly onError: (e: unknown) => void,
    /** Keeps a pass visible to the cluster's quiescence tracker (virtual time settles on it). */
    private readonly track: (p: Promise<void>) => Promise<void> = (p) => p,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || this.timer) return;
    this.last = this.store.revision();
    this.timer = this.clock.setInterval(() => {
      void this.track(this.tick());
    }, this.intervalMs);
  }

  /** One pass: compact to what the previous pass saw, remember what this one sees. */
  async tick(): Promise<void> {
    const target = this.last;
    try {
      this.last = await this.store.currentRevision();
      if (target > this.store.compactedRevision()) await this.store.compact(target);
    } catch (e) {
      this.onError(e);
    }
  }

  stop(): void {
    if (this.timer) this.clock.clear(this.timer);
    this.timer = undefined;
  }
}

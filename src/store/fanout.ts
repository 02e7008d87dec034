import { Quiescence } from '../clock';
import { StoreError, Watch, WatchEvent } from './store';

interface Watcher {
  prefix: string;
  /** Only events after this revision (a backend may publish one it already handed over). */
  after: number;
  onEvent: (events: WatchEvent[]) => void;
  onEnd?: (error: StoreError) => void;
  stopped: boolean;
}

/**
 * The watchers of one store and the delivery of its events to them, shared by the backends.
 * A backend publishes each committed event once (memory and sqlite from the writer, etcd from
 * its one feed); a new watcher first gets its backlog, then everything published after, so
 * nothing is missed or repeated. Deliveries run on a later macrotask (tracked by the
 * quiescence tracker): a writer never runs a watcher's code inside its own call.
 */
export class Fanout {
  private readonly watchers = new Set<Watcher>();

  constructor(private readonly quiescence: Quiescence) {}

  /** Registers a watcher after handing it the events it missed (already filtered by the caller's revision). */
  add<V>(
    prefix: string,
    backlog: WatchEvent[],
    onEvent: (events: WatchEvent<V>[]) => void,
    after = 0,
    onEnd?: (error: StoreError) => void,
  ): Watch {
    const watcher: Watcher = {
      prefix,
      after,
      onEvent: onEvent as (events: WatchEvent[]) => void,
      onEnd,
      stopped: false,
    };
    const mine = backlog.filter((e) => e.kv.key.startsWith(prefix) && e.kv.modRevision > after);
    if (mine.length > 0) this.deliver(watcher, mine);
    this.watchers.add(watcher);
    return {
      stop: () => {
        watcher.stopped = true;
        this.watchers.delete(watcher);
      },
    };
  }

  publish(events: WatchEvent[]): void {
    const mineOf = (w: Watcher, e: WatchEvent) => e.kv.key.startsWith(w.prefix) && e.kv.modRevision > w.after;
    for (const w of this.watchers) {
      // One event (every write of memory and sqlite): handed over as it is, no array per watcher.
      if (events.length === 1) {
        if (mineOf(w, events[0])) this.deliver(w, events);
        continue;
      }
      const mine = events.filter((e) => mineOf(w, e));
      if (mine.length > 0) this.deliver(w, mine);
    }
  }

  /** Resolves after every delivery queued so far has run (deliveries run in the order queued). */
  flushed(): Promise<void> {
    return new Promise((resolve) => this.quiescence.defer(resolve));
  }

  get size(): number {
    return this.watchers.size;
  }

  /**
   * Ends every watcher (after what was already queued for it): the source of the events has
   * a gap, so each is told once through its onEnd and must re-list.
   */
  end(error: StoreError): void {
    for (const w of this.watchers) {
      this.quiescence.defer(() => {
        if (w.stopped) return;
        w.stopped = true;
        w.onEnd?.(error);
      });
    }
    this.watchers.clear();
  }

  close(): void {
    for (const w of this.watchers) w.stopped = true;
    this.watchers.clear();
  }

  private deliver(w: Watcher, events: WatchEvent[]): void {
    this.quiescence.defer(() => {
      if (!w.stopped) w.onEvent(events);
    });
  }
}

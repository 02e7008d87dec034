/**
 * Where a failure of work a component started in the background goes — a periodic pass, a
 * fire-and-forget write, an event, an informer handler — when no caller is waiting for it:
 * upstream's k8s.io/apimachinery/pkg/util/runtime.HandleError. Counted, written to stderr (a
 * test may replace `backgroundErrors.report`) and handed to every listener (the reference
 * driver attaches them to the scenario that was running), never dropped unseen. The component
 * carries on, as upstream's controllers log and retry on their next pass.
 *
 * Each cluster has its own BackgroundReporter (Cluster.background), given to everything it
 * builds, so two clusters in one process never see each other's failures; `processReporter`
 * takes what runs outside any cluster (drivers, the command line) or is built without one.
 */
export const backgroundErrors = {
  /** Every error any reporter in the process received. */
  count: 0,
  report: (component: string, e: unknown): void => {
    console.error(`${component}: ${(e as Error)?.stack ?? e}`);
  },
};

/** Where a failure nobody waits for goes: utilruntime.HandleError's signature. */
export type ErrorSink = (component: string, error: unknown) => void;

/** One error handed to the sink: which component, what, and the error's text. */
export interface HandledError {
  component: string;
  message: string;
}

/** One HandleError sink and its listeners. */
export class BackgroundReporter {
  /** How many errors this reporter received. */
  count = 0;
  private readonly listeners = new Set<(e: HandledError) => void>();

  /** Listens to every error this reporter receives from now on; returns the way to stop listening. */
  onHandledError(listener: (e: HandledError) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The sink (utilruntime.HandleError): an error no caller waits for. */
  readonly handle: ErrorSink = (component, e) => {
    this.count++;
    backgroundErrors.count++;
    backgroundErrors.report(component, e);
    const message = e instanceof Error ? e.message : String(e);
    for (const l of this.listeners) l({ component, message });
  };

  /** A rejection handler for a component's background promise. */
  reportTo(component: string): (e: unknown) => void {
    return (e) => this.handle(component, e);
  }
}

/** The reporter of what no cluster owns (drivers, the command line, components built alone). */
export const processReporter = new BackgroundReporter();

/** Listens to the process reporter (not to a cluster's: see Cluster.background). */
export function onHandledError(listener: (e: HandledError) => void): () => void {
  return processReporter.onHandledError(listener);
}

/** The process reporter's sink. */
export function handleError(component: string, e: unknown): void {
  processReporter.handle(component, e);
}

/** A rejection handler reporting to the process reporter. */
export function reportTo(component: string): (e: unknown) => void {
  return processReporter.reportTo(component);
}

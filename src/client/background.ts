/**
 * Where a failure of work a component started in the background goes — a periodic pass, a
 * fire-and-forget write, an event, an informer handler — when no caller is waiting for it:
 * upstream's k8s.io/apimachinery/pkg/util/runtime.HandleError. Counted, written to stderr (a
 * test may replace `report`) and handed to every listener (the reference driver attaches
 * them to the scenario that was running), never dropped unseen. The component carries on,
 * as upstream's controllers log and retry on their next pass.
 */
export const backgroundErrors = {
  count: 0,
  report: (component: string, e: unknown): void => {
    console.error(`${component}: ${(e as Error)?.stack ?? e}`);
  },
};

/** One error handed to the sink: which component, what, and the error's text. */
export interface HandledError {
  component: string;
  message: string;
}

const listeners = new Set<(e: HandledError) => void>();

/** Listens to every error the sink receives from now on; returns the way to stop listening. */
export function onHandledError(listener: (e: HandledError) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The sink (utilruntime.HandleError): an error no caller waits for. */
export function handleError(component: string, e: unknown): void {
  backgroundErrors.count++;
  backgroundErrors.report(component, e);
  const message = e instanceof Error ? e.message : String(e);
  for (const l of listeners) l({ component, message });
}

/** A rejection handler for a component's background promise. */
export function reportTo(component: string): (e: unknown) => void {
  return (e) => handleError(component, e);
}

/**
 * Where a failure of work a component started in the background goes — a periodic pass, a
 * fire-and-forget write, an event — when no caller is waiting for it: counted and written to
 * stderr (a test may replace `report`), never dropped unseen. The component carries on, as
 * upstream's controllers log with utilruntime.HandleError and retry on their next pass.
 */
export const backgroundErrors = {
  count: 0,
  report: (component: string, e: unknown): void => {
    console.error(`${component}: ${(e as Error)?.stack ?? e}`);
  },
};

/** A rejection handler for a component's background promise. */
export function reportTo(component: string): (e: unknown) => void {
  return (e) => {
    backgroundErrors.count++;
    backgroundErrors.report(component, e);
  };
}

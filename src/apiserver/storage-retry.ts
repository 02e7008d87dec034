import { StoreError } from '../store';

/** Thrown by a guarded write that lost the race: the attempt starts over from a fresh read. */
const RETRY = Symbol('retry on revision mismatch');

/**
 * How often an attempt is retried before the mismatch reaches the caller (a 409 or 500).
 * Upstream's GuaranteedUpdate loop has no cap: each round one writer wins, so every writer
 * gets through. 16 was too few for 20 writers on one key (two API servers, 10 in flight
 * each: a writer loses a round with p = 19/20, all 16 with p = 0.44; ha-services.test.ts
 * failed with a 500 under load). The cap only turns a store that never settles into an error
 * instead of a hang.
 */
export const MAX_RETRIES = 1000;

export type Guard = <W>(write: () => Promise<W>) => Promise<W>;

/**
 * Optimistic concurrency, as upstream's GuaranteedUpdate loop: `attempt` reads, decides and
 * writes with writes guarded by the revision it read; a guarded write that finds the key
 * moved (RevisionMismatch) starts the attempt over, up to MAX_RETRIES times.
 */
export async function retryOnRevisionMismatch<R>(attempt: (guard: Guard) => Promise<R>): Promise<R> {
  for (let retries = 0; ; retries++) {
    const guard: Guard = async (write) => {
      try {
        return await write();
      } catch (e) {
        if (e instanceof StoreError && e.code === 'RevisionMismatch' && retries < MAX_RETRIES) throw RETRY;
        throw e;
      }
    };
    try {
      return await attempt(guard);
    } catch (e) {
      if (e !== RETRY) throw e;
    }
  }
}

/**
 * Upstream's ControllerExpectations: after asking for n creations or deletions, a
 * controller does not act on its (lagging) cache again until it has observed them, or
 * until the expectations expire (5 minutes), so it never creates twice for one gap.
 */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

interface Record {
  adds: number;
  dels: number;
  at: number;
}

export class Expectations {
  private readonly records = new Map<string, Record>();
  /**
   * UIDTrackingControllerExpectations (pkg/controller/controller_utils.go): the keys
   * (namespace/name) of the pods a controller asked to delete. A deletion counts only for
   * a pod in this set, once: a pod seen deleted twice (its deletionTimestamp, then its
   * removal) cannot satisfy the expectation while another deletion is still unseen.
   */
  private readonly deleting = new Map<string, Set<string>>();

  constructor(private readonly now: () => number) {}

  expect(key: string, adds: number, dels: number): void {
    this.records.set(key, { adds, dels, at: this.now() });
  }

  creationObserved(key: string): void {
    const r = this.records.get(key);
    if (r) r.adds--;
  }

  /** ExpectDeletions with the keys of the pods to delete (UIDTrackingControllerExpectations). */
  expectDeletions(key: string, podKeys: readonly string[]): void {
    const keys = new Set(podKeys);
    this.deleting.set(key, keys);
    this.expect(key, 0, keys.size);
  }

  /**
   * A deletion observed. With podKey, as UIDTrackingControllerExpectations: counts only
   * for a pod the controller expects to delete, and only the first time it is seen.
   */
  deletionObserved(key: string, podKey?: string): void {
    if (podKey !== undefined) {
      const keys = this.deleting.get(key);
      if (!keys?.delete(podKey)) return;
    }
    const r = this.records.get(key);
    if (r) r.dels--;
  }

  /** A creation that failed will never be observed. */
  lowerExpectations(key: string, adds: number, dels: number): void {
    const r = this.records.get(key);
    if (r) {
      r.adds -= adds;
      r.dels -= dels;
    }
  }

  satisfied(key: string): boolean {
    const r = this.records.get(key);
    if (!r) return true;
    return (r.adds <= 0 && r.dels <= 0) || this.now() - r.at > EXPECTATIONS_TIMEOUT_MS;
  }

  delete(key: string): void {
    this.records.delete(key);
    this.deleting.delete(key);
  }

  /** The pod keys still expected to be deleted (GetUIDs). */
  pendingDeletions(key: string): string[] {
    return [...(this.deleting.get(key) ?? [])];
  }
}

/** Upstream slowStartBatch: run count calls in batches of 1, 2, 4, … stopping at the first failing batch. Returns successes. */
export async function slowStartBatch(
  count: number,
  initialBatchSize: number,
  fn: () => Promise<void>,
): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    successes += ok;
    remaining -= batch;
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) return { successes, error: failed.reason };
  }
  return { successes };
}

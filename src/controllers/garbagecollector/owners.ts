import { KubeObject, OwnerReference } from '../../api/meta';

export const ORPHAN = 'orphan';
export const FOREGROUND = 'foregroundDeletion';

/** What the collector must do for an owner being deleted, from its finalizers (upstream processDeletingDependentsItem / orphanDependents). */
export function ownerAction(obj: KubeObject): 'orphan' | 'foreground' | undefined {
  if (!obj.metadata.deletionTimestamp) return undefined;
  const f = obj.metadata.finalizers ?? [];
  if (f.includes(ORPHAN)) return 'orphan';
  if (f.includes(FOREGROUND)) return 'foreground';
  return undefined;
}

export type OwnerState = 'absent' | 'present' | 'deleting-foreground';

/**
 * Upstream attemptToDeleteItem's classification of a dependent's owners: when every owner
 * is absent the dependent goes (in the same propagation its own finalizers ask for);
 * while some owner is present it stays, and references to absent owners are dropped;
 * when the only remaining owners wait for their dependents (foreground) it is deleted in
 * the foreground, so the wait propagates.
 */
export function dependentVerdict(
  refs: readonly OwnerReference[],
  state: (ref: OwnerReference) => OwnerState,
):
  | { action: 'keep'; dangling: OwnerReference[] }
  | { action: 'delete'; policy: 'Background' | 'Foreground' | 'Orphan' } {
  const states = refs.map((r) => ({ ref: r, state: state(r) }));
  const dangling = states.filter((s) => s.state === 'absent').map((s) => s.ref);
  const present = states.filter((s) => s.state === 'present');
  const waiting = states.filter((s) => s.state === 'deleting-foreground');
  if (present.length > 0) return { action: 'keep', dangling };
  if (waiting.length > 0) {
    const blocking = waiting.some((s) => s.ref.blockOwnerDeletion === true);
    return { action: 'delete', policy: blocking ? 'Foreground' : 'Background' };
  }
  return { action: 'delete', policy: 'Background' };
}

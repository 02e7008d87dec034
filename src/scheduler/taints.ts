import { Taint, Toleration } from '../api/core';

/**
 * Toleration.ToleratesTaint (k8s.io/api/core/v1/toleration.go): an empty effect matches
 * every effect; an empty key with operator Exists matches every taint; Exists ignores
 * the value; Equal (or no operator) needs the same value.
 */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

export function tolerated(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => toleratesTaint(t, taint));
}

/** The taint spec.unschedulable stands for (NodeUnschedulable checks it is tolerated). */
export const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

import { Taint, Toleration } from '../api/core';
import { toleratesTaint } from '../api/taints';

export { toleratesTaint };

export function tolerated(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => toleratesTaint(t, taint));
}

/** The taint spec.unschedulable stands for (NodeUnschedulable checks it is tolerated). */
export const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

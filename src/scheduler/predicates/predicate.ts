import { Pod } from '../../api/core';
import { PodMeta } from '../meta';
import { NodeInfo } from '../nodeinfo';
import { FailureReason } from '../reasons';

/**
 * A fit predicate: the reasons the node does not fit the pod; empty when it fits.
 * `forPod`, when present, is asked once per scheduling cycle: it returns the check to run
 * on each node for this pod, or undefined when the pod fits every node (a pod without
 * volumes cannot conflict on disks). Predicates are pure, so leaving out one that passes
 * everywhere changes neither the choice nor the failure reasons; it only spares the
 * per-node call (upstream v1.32's PreFilter Skip does the same).
 */
export type Predicate = NodeCheck & { forPod?: (pod: Pod, meta: PodMeta) => NodeCheck | undefined };

export type NodeCheck = ((pod: Pod, meta: PodMeta, node: NodeInfo) => FailureReason[]) & {
  /**
   * Whether the node passes, decided from its table row alone (node-table.ts) without
   * touching the NodeInfo; true only where the check itself would return FITS. false
   * means "ask the check" (which then gives the reasons).
   */
  passesRow?: (meta: PodMeta, data: Float64Array, row: number) => boolean;
};

export const FITS: FailureReason[] = [];

/** The check to run on each node for this pod, or undefined when every node passes. */
export function checkFor(p: Predicate, pod: Pod, meta: PodMeta): NodeCheck | undefined {
  return p.forPod ? p.forPod(pod, meta) : p;
}

/** A check with its row-only shortcut. */
export function withRow(check: NodeCheck, passesRow: NonNullable<NodeCheck['passesRow']>): NodeCheck {
  return Object.assign(check, { passesRow });
}

/**
 * A predicate whose per-node check needs something computed from the pod alone (its
 * volumes of a kind, its affinity state): `prepare` computes it once per cycle, undefined
 * when the pod fits every node; `check` is the per-node test given it.
 */
export function perPod<T>(
  prepare: (pod: Pod, meta: PodMeta) => T | undefined,
  check: (state: T) => NodeCheck,
): Predicate {
  const forPod = (pod: Pod, meta: PodMeta) => {
    const state = prepare(pod, meta);
    return state === undefined ? undefined : check(state);
  };
  return withForPod((pod, meta, node) => forPod(pod, meta)?.(pod, meta, node) ?? FITS, forPod);
}

/** A predicate with a per-pod specialisation. */
export function withForPod(check: NodeCheck, forPod: (pod: Pod, meta: PodMeta) => NodeCheck | undefined): Predicate {
  return Object.assign(check, { forPod });
}

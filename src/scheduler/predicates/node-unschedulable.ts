import { Pod } from '../../api/core';
import { tolerated, UNSCHEDULABLE_TAINT } from '../taints';
import { F_HAS_NODE, F_UNSCHEDULABLE } from '../node-table';
import { FITS, NodeCheck, withForPod, withRow } from './predicate';

// `node.node === undefined`, not `!node.node`: truthiness of an object reads its map, a cache miss per node.
const known = withRow(
  (_pod, _meta, node) => (node.node !== undefined ? FITS : [{ kind: 'predicate', reason: 'NodeUnknownCondition' }]),
  (_meta, d, row) => d[row + F_HAS_NODE] === 1,
);

const knownAndNotCordoned = withRow(
  (_pod, _meta, node) => {
    if (node.node === undefined) return [{ kind: 'predicate', reason: 'NodeUnknownCondition' }];
    return node.unschedulable ? [{ kind: 'predicate', reason: 'NodeUnschedulable' }] : FITS;
  },
  (_meta, d, row) => d[row + F_HAS_NODE] === 1 && d[row + F_UNSCHEDULABLE] === 0,
);

/** Whether the pod tolerates the cordon is asked once per cycle, not once per node. */
const forPod = (pod: Pod): NodeCheck =>
  tolerated(pod.spec.tolerations, UNSCHEDULABLE_TAINT) ? known : knownAndNotCordoned;

/**
 * CheckNodeUnschedulable (v1.12 CheckNodeUnschedulablePredicate, mandatory with
 * TaintNodesByCondition; framework NodeUnschedulable): a cordoned node
 * (spec.unschedulable) fits only pods that tolerate node.kubernetes.io/unschedulable:NoSchedule.
 */
export const checkNodeUnschedulable = withForPod((pod, meta, node) => forPod(pod)(pod, meta, node), forPod);

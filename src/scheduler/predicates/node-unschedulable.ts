import { tolerated, UNSCHEDULABLE_TAINT } from '../taints';
import { Predicate, FITS } from './predicate';

/**
 * CheckNodeUnschedulable (v1.12 CheckNodeUnschedulablePredicate, mandatory with
 * TaintNodesByCondition; framework NodeUnschedulable): a cordoned node
 * (spec.unschedulable) fits only pods that tolerate node.kubernetes.io/unschedulable:NoSchedule.
 */
export const checkNodeUnschedulable: Predicate = (pod, _meta, node) => {
  if (!node.node) return [{ kind: 'predicate', reason: 'NodeUnknownCondition' }];
  if (node.node.spec?.unschedulable && !tolerated(pod.spec.tolerations, UNSCHEDULABLE_TAINT))
    return [{ kind: 'predicate', reason: 'NodeUnschedulable' }];
  return FITS;
};

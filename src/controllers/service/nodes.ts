import { Node, isNodeReady, nodeCondition } from '../../api/core';

export const EXCLUDE_LB_LABEL = 'node.kubernetes.io/exclude-from-external-load-balancers';
export const LEGACY_MASTER_LABEL = 'node-role.kubernetes.io/master';
export const AUTOSCALER_TAINT = 'ToBeDeletedByClusterAutoscaler';

/** Which nodes back a load balancer, by release. */
export type LoadBalancerNodeSelection = 'legacy' | 'stable';

/**
 * Upstream's node predicate for load balancers.
 * - legacy (v1.6–v1.18 getNodeConditionPredicate): no unschedulable nodes, no masters
 *   (label node-role.kubernetes.io/master), only nodes whose Ready condition is True.
 * - stable (v1.30+ StableLoadBalancerNodeSet, nodeIncludedPredicate + nodeUnTaintedPredicate
 *   + nodeNotDeletedPredicate): readiness and unschedulable no longer matter; nodes labelled
 *   node.kubernetes.io/exclude-from-external-load-balancers (unless "false"), tainted
 *   ToBeDeletedByClusterAutoscaler, or being deleted are left out.
 */
export function backsLoadBalancer(node: Node, selection: LoadBalancerNodeSelection): boolean {
  if (selection === 'legacy') {
    if (node.spec?.unschedulable) return false;
    if (node.metadata.labels?.[LEGACY_MASTER_LABEL] !== undefined) return false;
    if (!nodeCondition(node, 'Ready')) return false;
    return isNodeReady(node);
  }
  const exclude = node.metadata.labels?.[EXCLUDE_LB_LABEL];
  if (exclude !== undefined && exclude.toLowerCase() !== 'false') return false;
  if ((node.spec?.taints ?? []).some((t) => t.key === AUTOSCALER_TAINT)) return false;
  return !node.metadata.deletionTimestamp;
}

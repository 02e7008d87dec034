import { normalize, Priority } from './priority';
import { toleratesTaint } from '../taints';

/**
 * TaintTolerationPriority (v1.12 taint_toleration.go; framework TaintToleration Score):
 * counts the node's PreferNoSchedule taints not tolerated by the pod's tolerations
 * whose effect is empty or PreferNoSchedule; NormalizeReduce reversed, so the node with
 * most such taints gets 0 and nodes without get the max.
 */
export function taintTolerationPriority(maxScore: number): Priority {
  return (pod, _meta, nodes) => {
    const tolerations = (pod.spec.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
    const raw = nodes.map((n) =>
      !n.node?.spec?.taints?.length
        ? 0
        : n.node.spec.taints.filter(
            (t) => t.effect === 'PreferNoSchedule' && !tolerations.some((tol) => toleratesTaint(tol, t)),
          ).length,
    );
    return normalize(raw, maxScore, true);
  };
}

import { normalize, Priority } from './priority';
import { toleratesTaint } from '../taints';
import { F_PREFER_TAINTS } from '../node-table';

/**
 * TaintTolerationPriority (v1.12 taint_toleration.go; framework TaintToleration Score):
 * counts the node's PreferNoSchedule taints not tolerated by the pod's tolerations
 * whose effect is empty or PreferNoSchedule; NormalizeReduce reversed, so the node with
 * most such taints gets 0 and nodes without get the max.
 */
export function taintTolerationPriority(maxScore: number): Priority {
  return (pod, _meta, nodes, at) => {
    const tolerations = (pod.spec.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
    const raw = new Array<number>(nodes.length);
    for (let i = 0; i < nodes.length; i++) {
      // Most nodes have no PreferNoSchedule taint: their row says so without the NodeInfo.
      if (at && at.data[at.rows[i] + F_PREFER_TAINTS] === 0) {
        raw[i] = 0;
        continue;
      }
      const taints = nodes[i].preferTaints;
      let c = 0;
      for (const t of taints) if (!tolerations.some((tol) => toleratesTaint(tol, t))) c++;
      raw[i] = c;
    }
    return normalize(raw, maxScore, true);
  };
}

import { tolerated } from '../taints';
import { F_FILTER_TAINTS } from '../node-table';
import { FITS, Predicate, withRow } from './predicate';

/**
 * PodToleratesNodeTaints (v1.12; framework TaintToleration Filter): every taint with
 * effect NoSchedule or NoExecute must be tolerated; PreferNoSchedule never filters (it
 * only lowers the TaintTolerationPriority score). The first untolerated taint is named
 * in the framework's message.
 */
export const podToleratesNodeTaints: Predicate = withRow(
  (pod, _meta, node) => {
    for (const taint of node.filterTaints) {
      if (!tolerated(pod.spec.tolerations, taint)) {
        return [{ kind: 'predicate', reason: 'PodToleratesNodeTaints', taint: { key: taint.key, value: taint.value } }];
      }
    }
    return FITS;
  },
  // A node without such taints fits whatever the pod tolerates.
  (_meta, d, row) => d[row + F_FILTER_TAINTS] === 0,
);

import { tolerated } from '../taints';
import { Predicate, FITS } from './predicate';

/**
 * PodToleratesNodeTaints (v1.12; framework TaintToleration Filter): every taint with
 * effect NoSchedule or NoExecute must be tolerated; PreferNoSchedule never filters (it
 * only lowers the TaintTolerationPriority score). The first untolerated taint is named
 * in the framework's message.
 */
export const podToleratesNodeTaints: Predicate = (pod, _meta, node) => {
  for (const taint of node.node?.spec?.taints ?? []) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!tolerated(pod.spec.tolerations, taint)) {
      return [{ kind: 'predicate', reason: 'PodToleratesNodeTaints', taint: { key: taint.key, value: taint.value } }];
    }
  }
  return FITS;
};

import { Pod } from '../../api/core';
import { selectorFromSet } from '../../api/labels/selector';
import { PodMeta } from '../meta';
import { Predicate, FITS } from './predicate';

/**
 * The node label values the pod is pinned to (checkServiceAffinity with
 * serviceAffinityMetadataProducer, v1.12 predicates.go): the pod's own nodeSelector
 * values for the configured keys; for keys it leaves open, if the pod belongs to a
 * service in its namespace and some pod in that namespace matches the pod's labels, the
 * values of the node the first such pod runs on.
 */
export function serviceAffinityConstraints(pod: Pod, meta: PodMeta, labels: readonly string[]): Record<string, string> {
  const affinity: Record<string, string> = {};
  const selector = pod.spec.nodeSelector ?? {};
  for (const key of labels) if (Object.hasOwn(selector, key)) affinity[key] = selector[key];
  if (Object.keys(affinity).length === labels.length) return affinity;
  if (meta.cluster.servicesForPod(pod).length === 0) return affinity;
  const peers = selectorFromSet(pod.metadata.labels);
  for (const { pod: other, node } of meta.cluster.podsInNamespace(pod.metadata.namespace ?? 'default')) {
    if (other.metadata.uid === pod.metadata.uid || !peers.matches(other.metadata.labels)) continue;
    const nodeLabels = meta.cluster.nodeInfo(node)?.node?.metadata.labels ?? {};
    for (const key of labels) {
      if (!(key in affinity) && Object.hasOwn(nodeLabels, key)) affinity[key] = nodeLabels[key];
    }
    break;
  }
  return affinity;
}

/**
 * CheckServiceAffinity (NewServiceAffinityPredicate, policy argument serviceAffinity):
 * pods of one service go to nodes with the same values of the configured labels as the
 * service's first pod (or as the pod's own nodeSelector).
 */
export function serviceAffinity(labels: readonly string[]): Predicate {
  const memoKey = `serviceAffinity:${labels.join(',')}`;
  return (pod, meta, node) => {
    const affinity = meta.once(memoKey, () => serviceAffinityConstraints(pod, meta, labels));
    const have = node.node?.metadata.labels ?? {};
    for (const key in affinity)
      if (have[key] !== affinity[key]) return [{ kind: 'predicate', reason: 'CheckServiceAffinity' }];
    return FITS;
  };
}

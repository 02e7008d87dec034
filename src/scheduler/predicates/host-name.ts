import { FITS, withForPod } from './predicate';

/**
 * PodFitsHost (predicates.go; framework plugin NodeName): a pod that names spec.nodeName
 * fits only the node of that name; a pod without one fits every node.
 */
export const podFitsHost = withForPod(
  (pod, _meta, node) =>
    !pod.spec.nodeName || pod.spec.nodeName === node.name ? FITS : [{ kind: 'predicate', reason: 'HostName' }],
  (pod) => (pod.spec.nodeName ? podFitsHost : undefined),
);

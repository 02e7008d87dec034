import { termMatches } from '../node-affinity';
import { FITS, withForPod } from './predicate';

/**
 * PodMatchNodeSelector / PodSelectorMatches (podMatchesNodeSelectorAndAffinityTerms,
 * v1.12 predicates.go; framework NodeAffinity): the node carries every key=value of
 * spec.nodeSelector, and, if the pod has required node affinity, matches at least one
 * of its nodeSelectorTerms. Preferred affinity never filters.
 */
export const podMatchNodeSelector = withForPod(
  (pod, meta, node) => {
    const selector = pod.spec.nodeSelector;
    const labels = node.labels;
    if (selector) {
      for (const k in selector) {
        if (!Object.hasOwn(labels, k) || labels[k] !== selector[k])
          return [{ kind: 'predicate', reason: 'MatchNodeSelector' }];
      }
    }
    const terms = meta.requiredTerms;
    if (terms && !terms.some((t) => termMatches(t, node.node!)))
      return [{ kind: 'predicate', reason: 'MatchNodeSelector' }];
    return FITS;
  },
  // Neither a nodeSelector nor required node affinity: every node matches.
  (pod, meta) => (pod.spec.nodeSelector || meta.requiredTerms ? podMatchNodeSelector : undefined),
);

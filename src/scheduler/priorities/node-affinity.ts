import { preferredTerms, termMatches } from '../node-affinity';
import { normalize, Priority } from './priority';

/**
 * NodeAffinityPriority (v1.12 node_affinity.go; framework NodeAffinity Score): the sum of
 * the weights of the pod's preferred node-affinity terms the node matches, normalised to
 * the max score (NormalizeReduce); 0 everywhere when the pod prefers nothing.
 */
export function nodeAffinityPriority(maxScore: number): Priority {
  return (pod, _meta, nodes) => {
    const terms = preferredTerms(pod).filter((t) => t.weight !== 0);
    if (terms.length === 0) return nodes.map(() => 0);
    const raw = nodes.map((n) =>
      terms.reduce((sum, t) => (n.node && termMatches(t.term, n.node) ? sum + t.weight : sum), 0),
    );
    return normalize(raw, maxScore, false);
  };
}

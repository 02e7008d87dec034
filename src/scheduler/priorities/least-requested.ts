import { Priority } from './priority';

/** leastRequestedScore: ((capacity − requested) × max) / capacity, integer division; 0 when capacity is 0 or exceeded. */
export function leastRequestedScore(requested: number, capacity: number, maxScore: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * maxScore) / capacity);
}

/**
 * LeastRequestedPriority (v1.12 least_requested.go; framework NodeResourcesFit with the
 * LeastAllocated strategy, cpu and memory weight 1): the mean of the cpu and memory
 * scores, integer division. Requested = the node's non-zero requests + the pod's. v1.12
 * counts a resource the node has none of as a 0 score in the mean; v1.32's
 * resourceAllocationScorer leaves it out (leastResourceScorer skips allocatable 0, so a
 * node with no memory scores by cpu alone).
 */
export function leastRequested(maxScore: number, skipZeroAllocatable = false): Priority {
  return (_pod, meta, nodes) => {
    const out = new Array<number>(nodes.length);
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      const cpu = leastRequestedScore(
        n.nonZeroRequested.milliCPU + meta.nonZero.milliCPU,
        n.allocatable.milliCPU,
        maxScore,
      );
      const mem = leastRequestedScore(n.nonZeroRequested.memory + meta.nonZero.memory, n.allocatable.memory, maxScore);
      if (skipZeroAllocatable) {
        const scores = [...(n.allocatable.milliCPU > 0 ? [cpu] : []), ...(n.allocatable.memory > 0 ? [mem] : [])];
        out[i] = scores.length === 0 ? 0 : Math.trunc(scores.reduce((a, b) => a + b, 0) / scores.length);
        continue;
      }
      out[i] = Math.trunc((cpu + mem) / 2);
    }
    return out;
  };
}

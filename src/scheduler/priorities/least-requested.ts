import { F_ALLOC_CPU, F_ALLOC_MEM, F_NZ_CPU, F_NZ_MEM } from '../node-table';
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
  return (_pod, meta, nodes, at) => {
    const out = new Array<number>(nodes.length);
    const podCpu = meta.nonZero.milliCPU;
    const podMem = meta.nonZero.memory;
    for (let i = 0; i < nodes.length; i++) {
      // The node's numbers from its table row (node-table.ts).
      const d = at ? at.data : nodes[i].table.data;
      const row = at ? at.rows[i] : nodes[i].row;
      const cpuCap = d[row + F_ALLOC_CPU];
      const memCap = d[row + F_ALLOC_MEM];
      const cpu = leastRequestedScore(d[row + F_NZ_CPU] + podCpu, cpuCap, maxScore);
      const mem = leastRequestedScore(d[row + F_NZ_MEM] + podMem, memCap, maxScore);
      if (skipZeroAllocatable) {
        const n = (cpuCap > 0 ? 1 : 0) + (memCap > 0 ? 1 : 0);
        out[i] = n === 0 ? 0 : Math.trunc(((cpuCap > 0 ? cpu : 0) + (memCap > 0 ? mem : 0)) / n);
        continue;
      }
      out[i] = Math.trunc((cpu + mem) / 2);
    }
    return out;
  };
}

import { F_ALLOC_CPU, F_ALLOC_MEM, F_NZ_CPU, F_NZ_MEM, F_REQ_CPU, F_REQ_MEM } from '../node-table';
import { Priority } from './priority';

function fractionOfCapacity(requested: number, capacity: number): number {
  return capacity === 0 ? 1 : requested / capacity;
}

/**
 * v1.12 balancedResourceScorer: 0 when either fraction reaches 1, else
 * int((1 − |cpuFraction − memoryFraction|) × 10), in IEEE doubles as Go computes it.
 */
export function legacyBalancedScore(cpu: number, cpuCap: number, mem: number, memCap: number): number {
  const c = fractionOfCapacity(cpu, cpuCap);
  const m = fractionOfCapacity(mem, memCap);
  if (c >= 1 || m >= 1) return 0;
  return Math.trunc((1 - Math.abs(c - m)) * 10);
}

/**
 * v1.32 balancedResourceScorer (noderesources/balanced_allocation.go): fractions capped
 * at 1, resources with allocatable 0 skipped; for two resources the standard deviation
 * is |f1 − f2| / 2; score int((1 − std) × 100).
 */
export function frameworkBalancedScore(cpu: number, cpuCap: number, mem: number, memCap: number): number {
  let std = 0;
  if (cpuCap > 0 && memCap > 0) std = Math.abs((Math.min(1, cpu / cpuCap) - Math.min(1, mem / memCap)) / 2);
  return Math.trunc((1 - std) * 100);
}

/**
 * BalancedResourceAllocation: favour the node whose cpu and memory fractions would be
 * closest. Legacy: on the non-zero requests (as LeastRequested). Framework
 * (useRequested: true): on the actual requests — a best-effort pod adds nothing and the
 * node's own balance decides. (PreScore's Skip for best-effort pods came with v1.33,
 * kubernetes#130260, not in any v1.32 release.)
 */
export const balancedAllocation: Priority = fromRows(frameworkBalancedScore, 'actual');

/** v1.12 BalancedResourceAllocation: on the non-zero requests. */
export const legacyBalancedAllocation: Priority = fromRows(legacyBalancedScore, 'nonZero');

/** A score of each node's cpu and memory (the node's requests + the pod's) against allocatable, read from the table rows. */
function fromRows(
  score: (cpu: number, cpuCap: number, mem: number, memCap: number) => number,
  requests: 'nonZero' | 'actual',
): Priority {
  const cpuField = requests === 'nonZero' ? F_NZ_CPU : F_REQ_CPU;
  const memField = requests === 'nonZero' ? F_NZ_MEM : F_REQ_MEM;
  return (_pod, meta, nodes, at) => {
    const pod = requests === 'nonZero' ? meta.nonZero : meta.request;
    const out = new Array<number>(nodes.length);
    for (let i = 0; i < nodes.length; i++) {
      const d = at ? at.data : nodes[i].table.data;
      const row = at ? at.rows[i] : nodes[i].row;
      out[i] = score(
        d[row + cpuField] + pod.milliCPU,
        d[row + F_ALLOC_CPU],
        d[row + memField] + pod.memory,
        d[row + F_ALLOC_MEM],
      );
    }
    return out;
  };
}

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
  const fractions: number[] = [];
  if (cpuCap > 0) fractions.push(Math.min(1, cpu / cpuCap));
  if (memCap > 0) fractions.push(Math.min(1, mem / memCap));
  let std = 0;
  if (fractions.length === 2) std = Math.abs((fractions[0] - fractions[1]) / 2);
  return Math.trunc((1 - std) * 100);
}

/**
 * BalancedResourceAllocation: favour the node whose cpu and memory fractions would be
 * closest. Legacy: on the non-zero requests (as LeastRequested). Framework
 * (useRequested: true): on the actual requests — a best-effort pod adds nothing and the
 * node's own balance decides. (PreScore's Skip for best-effort pods came with v1.33,
 * kubernetes#130260, not in any v1.32 release.)
 */
export function balancedAllocation(era: 'legacy' | 'framework'): Priority {
  if (era === 'legacy') {
    return (_pod, meta, nodes) => {
      const out = new Array<number>(nodes.length);
      for (let i = 0; i < nodes.length; i++) {
        const n = nodes[i];
        out[i] = legacyBalancedScore(
          n.nonZeroRequested.milliCPU + meta.nonZero.milliCPU,
          n.allocatable.milliCPU,
          n.nonZeroRequested.memory + meta.nonZero.memory,
          n.allocatable.memory,
        );
      }
      return out;
    };
  }
  return (_pod, meta, nodes) => {
    return nodes.map((n) =>
      frameworkBalancedScore(
        n.requested.milliCPU + meta.request.milliCPU,
        n.allocatable.milliCPU,
        n.requested.memory + meta.request.memory,
        n.allocatable.memory,
      ),
    );
  };
}

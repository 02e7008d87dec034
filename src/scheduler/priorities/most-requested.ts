import { Priority, usage } from './priority';

/** mostRequestedScore: (requested × max) / capacity, integer division; 0 when capacity is 0 or exceeded. */
export function mostRequestedScore(requested: number, capacity: number, maxScore: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc((requested * maxScore) / capacity);
}

/**
 * MostRequestedPriority (v1.12 most_requested.go): favours the fullest node, so that a
 * cluster autoscaler can empty and remove the others (ClusterAutoscalerProvider).
 */
export function mostRequested(maxScore: number): Priority {
  return (_pod, meta, nodes) =>
    nodes.map((n) => {
      const u = usage(meta, n);
      return Math.trunc(
        (mostRequestedScore(u.cpu, u.cpuCap, maxScore) + mostRequestedScore(u.mem, u.memCap, maxScore)) / 2,
      );
    });
}

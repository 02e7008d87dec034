import { Priority, usage } from './priority';

/**
 * RequestedToCapacityRatioPriority (v1.12 requested_to_capacity_ratio.go) with its default
 * shape, points (utilization 0, score 10) and (100, 0): per resource utilization =
 * 100 − (capacity − requested) × 100 / capacity (100 when capacity is 0 or exceeded),
 * scored on the broken line in integer arithmetic, cpu and memory averaged. Registered by
 * name only; a Policy may name it.
 */
export const requestedToCapacityRatio: Priority = (_pod, meta, nodes) =>
  nodes.map((n) => {
    const u = usage(meta, n);
    return Math.trunc((score(u.cpu, u.cpuCap) + score(u.mem, u.memCap)) / 2);
  });

function score(requested: number, capacity: number): number {
  const utilization =
    capacity === 0 || requested > capacity ? 100 : 100 - Math.trunc(((capacity - requested) * 100) / capacity);
  // buildBrokenLinearFunction between (0, 10) and (100, 0): Go's integer division truncates toward 0.
  return 10 + Math.trunc((-10 * utilization) / 100);
}

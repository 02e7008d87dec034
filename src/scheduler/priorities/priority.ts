import { Pod } from '../../api/core';
import { PodMeta } from '../meta';
import { NodeInfo } from '../nodeinfo';
import { Rows } from '../node-table';

/**
 * A priority: one score per feasible node, in the order given (upstream's Map and Reduce
 * functions in one). Scores are 0..maxScore: 10 in the legacy scheduler
 * (schedulerapi.MaxPriority), 100 in the framework (MaxNodeScore). `at`, when given, holds
 * the nodes' table rows (node-table.ts) in the same order: what is read there needs no
 * NodeInfo (the scheduler passes it; a direct call may not).
 */
export type Priority = (pod: Pod, meta: PodMeta, nodes: readonly NodeInfo[], at?: Rows) => number[];

/** Requested (node's non-zero sum + the pod's) against allocatable, for cpu and memory. */
export function usage(meta: PodMeta, node: NodeInfo): { cpu: number; cpuCap: number; mem: number; memCap: number } {
  return {
    cpu: node.nonZeroRequested.milliCPU + meta.nonZero.milliCPU,
    cpuCap: node.allocatable.milliCPU,
    mem: node.nonZeroRequested.memory + meta.nonZero.memory,
    memCap: node.allocatable.memory,
  };
}

/**
 * NormalizeReduce (priorities/reduce.go): score × maxScore / maxCount in integer
 * arithmetic, reversed when asked; all zero → 0 (or maxScore when reversed).
 */
export function normalize(raw: number[], maxScore: number, reverse: boolean): number[] {
  let maxCount = 0;
  for (const s of raw) if (s > maxCount) maxCount = s;
  if (maxCount === 0) return new Array<number>(raw.length).fill(reverse ? maxScore : 0);
  return raw.map((s) => {
    const v = Math.trunc((maxScore * s) / maxCount);
    return reverse ? maxScore - v : v;
  });
}

import { Node, Pod } from '../api/core';
import { nodeAllocatable, podRequest } from '../api/pod-resources';

export interface Rejection {
  reason: string;
  message: string;
}

/**
 * The kubelet's resource admission (pkg/kubelet/lifecycle/predicate.go, canAdmitPod with
 * GeneralPredicates' PodFitsResources): a pod bound to this node that does not fit the
 * node's allocatable, given the pods the kubelet already runs, is rejected with reason
 * "OutOf<resource>" and upstream's InsufficientResourceError text — so a scheduler that
 * over-commits a node is caught. Only resources are checked here.
 */
export function admitPod(pod: Pod, node: Node | undefined, running: readonly Pod[]): Rejection | undefined {
  if (!node) return undefined;
  const { resources: alloc, pods: allowed } = nodeAllocatable(node.status?.allocatable ?? node.status?.capacity);
  if (running.length + 1 > allowed) return reject('pods', 1, running.length, allowed);
  const want = podRequest(pod);
  let cpu = 0;
  let memory = 0;
  let storage = 0;
  const scalar = new Map<string, number>();
  for (const p of running) {
    const r = podRequest(p);
    cpu += r.milliCPU;
    memory += r.memory;
    storage += r.ephemeralStorage;
    for (const [k, v] of r.scalar) scalar.set(k, (scalar.get(k) ?? 0) + v);
  }
  if (want.milliCPU > 0 && alloc.milliCPU < want.milliCPU + cpu)
    return reject('cpu', want.milliCPU, cpu, alloc.milliCPU);
  if (want.memory > 0 && alloc.memory < want.memory + memory)
    return reject('memory', want.memory, memory, alloc.memory);
  if (want.ephemeralStorage > 0 && alloc.ephemeralStorage < want.ephemeralStorage + storage)
    return reject('ephemeral-storage', want.ephemeralStorage, storage, alloc.ephemeralStorage);
  for (const [name, v] of want.scalar) {
    const used = scalar.get(name) ?? 0;
    const cap = alloc.scalar.get(name) ?? 0;
    if (v > 0 && cap < v + used) return reject(name, v, used, cap);
  }
  return undefined;
}

function reject(resource: string, requested: number, used: number, capacity: number): Rejection {
  return {
    reason: `OutOf${resource}`,
    message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
  };
}

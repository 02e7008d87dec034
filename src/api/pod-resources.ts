import { Container, Pod, ResourceList } from './core';
import { Quantity } from './quantity';

/*
 * A pod's requests and a node's allocatable, summed as the scheduler and the kubelet's
 * admission both count them (upstream pkg/api/v1/resource and the scheduler's
 * nodeinfo.Resource; the kubelet's admission runs the scheduler's GeneralPredicates).
 */

/**
 * A pod's or a node's resources in the scheduler's units (schedulercache.Resource):
 * cpu in millicores, memory and ephemeral-storage in bytes, every other resource
 * (extended, opaque, nvidia.com/gpu, hugepages) as an integer count by name.
 */
export interface Resources {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  scalar: Map<string, number>;
}

export function emptyResources(): Resources {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, scalar: new Map() };
}

const parseCache = new Map<string, Quantity>();

/** Parses a quantity string once (requests repeat across thousands of pods). */
export function quantity(value: string): Quantity {
  let q = parseCache.get(value);
  if (!q) {
    q = Quantity.parse(value);
    if (parseCache.size < 10_000) parseCache.set(value, q);
  }
  return q;
}

function addList(into: Resources, list: ResourceList | undefined): void {
  if (!list) return;
  for (const name in list) {
    const q = quantity(list[name]);
    if (name === 'cpu') into.milliCPU += q.milliValue();
    else if (name === 'memory') into.memory += q.value();
    else if (name === 'ephemeral-storage') into.ephemeralStorage += q.value();
    else if (name !== 'pods') into.scalar.set(name, (into.scalar.get(name) ?? 0) + q.value());
  }
}

function maxList(into: Resources, list: ResourceList | undefined): void {
  if (!list) return;
  for (const name in list) {
    const q = quantity(list[name]);
    if (name === 'cpu') into.milliCPU = Math.max(into.milliCPU, q.milliValue());
    else if (name === 'memory') into.memory = Math.max(into.memory, q.value());
    else if (name === 'ephemeral-storage') into.ephemeralStorage = Math.max(into.ephemeralStorage, q.value());
    else if (name !== 'pods') into.scalar.set(name, Math.max(into.scalar.get(name) ?? 0, q.value()));
  }
}

/**
 * A pod's request (upstream GetResourceRequest, predicates.go): the sum over its
 * containers, then per resource the max with each init container, since init containers
 * run one at a time before the app containers.
 */
export function podRequest(pod: Pod): Resources {
  const r = emptyResources();
  for (const c of pod.spec.containers ?? []) addList(r, c.resources?.requests);
  for (const c of pod.spec.initContainers ?? []) maxList(r, c.resources?.requests);
  return r;
}

/** Node allocatable (capacity when allocatable is absent), in scheduler units, and its pod count. */
export function nodeAllocatable(list: ResourceList | undefined): { resources: Resources; pods: number } {
  const r = emptyResources();
  addList(r, list);
  return { resources: r, pods: list?.pods !== undefined ? quantity(list.pods).value() : 0 };
}

/** Upstream's defaults for priorities when a container names no request (priorities/util/non_zero.go). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/**
 * GetNonzeroRequests summed over the pod's app containers: a container without a cpu
 * (memory) request counts as 100m (200Mi); an explicit 0 stays 0. Used by priorities
 * only, so that request-less pods still spread.
 */
export function podNonZeroRequest(pod: Pod): { milliCPU: number; memory: number } {
  let milliCPU = 0;
  let memory = 0;
  for (const c of pod.spec.containers ?? []) {
    const n = containerNonZero(c);
    milliCPU += n.milliCPU;
    memory += n.memory;
  }
  return { milliCPU, memory };
}

function containerNonZero(c: Container): { milliCPU: number; memory: number } {
  const req = c.resources?.requests;
  return {
    milliCPU: req?.cpu !== undefined ? quantity(req.cpu).milliValue() : DEFAULT_MILLI_CPU_REQUEST,
    memory: req?.memory !== undefined ? quantity(req.memory).value() : DEFAULT_MEMORY_REQUEST,
  };
}

/** Whether every tracked resource of the request is zero (upstream's early return in PodFitsResources). */
export function isZeroRequest(r: Resources): boolean {
  if (r.milliCPU !== 0 || r.memory !== 0 || r.ephemeralStorage !== 0) return false;
  for (const v of r.scalar.values()) if (v !== 0) return false;
  return true;
}

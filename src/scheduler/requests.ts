import { Container, Pod, ResourceList } from '../api/core';
import {
  DEFAULT_MEMORY_REQUEST,
  DEFAULT_MILLI_CPU_REQUEST,
  emptyResources,
  podNonZeroRequest,
  podRequest,
  quantity,
  Resources,
} from '../api/pod-resources';

/**
 * What a pod asks of a node, by release. The scheduler keeps two sums per node and per pod:
 * the actual requests (what must fit) and the non-zero requests (what scoring counts, so
 * that request-less pods still spread: 100m cpu and 200Mi memory for a container naming
 * none).
 *
 * v1.12 (NodeInfo.calculateResource, predicates GetResourceRequest, priorities'
 * getNonZeroRequests): requests = per resource max(Σ app containers, each init container);
 * non-zero = Σ over the app containers only; no overhead, no sidecars.
 *
 * v1.32 (k8s.io/component-helpers resource.PodRequests / AggregateContainerRequests, read
 * by NodeInfo's calculateResource, NodeResourcesFit and the resource scorers): Σ app
 * containers + Σ restartable init (sidecar) containers, per resource the max with each
 * ordinary init container plus the sidecars started before it, then spec.overhead added.
 * Non-zero: the same with the defaults applied to every container (init ones too) that
 * names no cpu or memory request (NonMissingContainerRequests).
 */
export interface PodArithmetic {
  request(pod: Pod): Resources;
  nonZero(pod: Pod): { milliCPU: number; memory: number };
}

export const LEGACY_ARITHMETIC: PodArithmetic = { request: podRequest, nonZero: podNonZeroRequest };

function add(into: Resources, r: Resources): void {
  into.milliCPU += r.milliCPU;
  into.memory += r.memory;
  into.ephemeralStorage += r.ephemeralStorage;
  for (const [k, v] of r.scalar) into.scalar.set(k, (into.scalar.get(k) ?? 0) + v);
}

/** maxResourceList: per resource the larger value (requests are never negative, so an absent one is 0). */
function max(into: Resources, r: Resources): void {
  into.milliCPU = Math.max(into.milliCPU, r.milliCPU);
  into.memory = Math.max(into.memory, r.memory);
  into.ephemeralStorage = Math.max(into.ephemeralStorage, r.ephemeralStorage);
  for (const [k, v] of r.scalar) into.scalar.set(k, Math.max(into.scalar.get(k) ?? 0, v));
}

/** A container's requests, with applyNonMissing's defaults when asked (an explicit 0 stays 0). */
function containerRequests(list: ResourceList | undefined, nonMissing: boolean): Resources {
  const r = emptyResources();
  for (const name in list ?? {}) {
    const q = quantity(list![name]);
    if (name === 'cpu') r.milliCPU = q.milliValue();
    else if (name === 'memory') r.memory = q.value();
    else if (name === 'ephemeral-storage') r.ephemeralStorage = q.value();
    else if (name !== 'pods') r.scalar.set(name, q.value());
  }
  if (nonMissing) {
    if (list?.cpu === undefined) r.milliCPU = DEFAULT_MILLI_CPU_REQUEST;
    if (list?.memory === undefined) r.memory = DEFAULT_MEMORY_REQUEST;
  }
  return r;
}

function isSidecar(c: Container): boolean {
  return c.restartPolicy === 'Always';
}

/** resource.PodRequests (v1.32) without pod-level resources (alpha, off) and without in-place resize. */
export function podRequests(pod: Pod, nonMissing = false): Resources {
  const reqs = emptyResources();
  for (const c of pod.spec.containers ?? []) add(reqs, containerRequests(c.resources?.requests, nonMissing));
  const sidecars = emptyResources();
  const init = emptyResources();
  for (const c of pod.spec.initContainers ?? []) {
    const r = containerRequests(c.resources?.requests, nonMissing);
    if (isSidecar(c)) {
      // A sidecar keeps running beside the app containers and every later init container.
      add(reqs, r);
      add(sidecars, r);
      max(init, sidecars);
    } else {
      // An ordinary init container runs alone, beside the sidecars started before it.
      add(r, sidecars);
      max(init, r);
    }
  }
  max(reqs, init);
  if (pod.spec.overhead) add(reqs, containerRequests(pod.spec.overhead, false));
  return reqs;
}

export const FRAMEWORK_ARITHMETIC: PodArithmetic = {
  request: (pod) => podRequests(pod),
  nonZero: (pod) => {
    const r = podRequests(pod, true);
    return { milliCPU: r.milliCPU, memory: r.memory };
  },
};

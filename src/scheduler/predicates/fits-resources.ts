import { FailureReason } from '../reasons';
import { isZeroRequest } from '../resources';
import { Predicate } from './predicate';

/**
 * PodFitsResources (v1.12 predicates.go; framework NodeResourcesFit fitsRequest).
 * Pod count first: one more pod than allocatable "pods" fails even for a pod that asks
 * for nothing. Then, unless the request is all zero, every resource where
 * allocatable < request + already requested (actual requests, not the non-zero
 * defaults) is reported, in the order cpu, memory, ephemeral-storage, extended.
 * In the legacy era a resource is checked even when the pod asks 0 of it (an
 * over-committed node refuses a pod that asks only memory); the framework checks only
 * what the pod asks for (> 0).
 */
export function fitsResources(onlyRequested: boolean): Predicate {
  return (_pod, meta, node) => {
    const out: FailureReason[] = [];
    const allowed = node.allowedPodNumber;
    if (node.podCount + 1 > allowed) out.push({ kind: 'insufficient', resource: 'pods', requested: 1, used: node.podCount, capacity: allowed });
    const req = meta.request;
    if (isZeroRequest(req)) return out;
    const a = node.allocatable;
    const used = node.requested;
    const check = (resource: string, want: number, have: number, cap: number) => {
      if (onlyRequested && want <= 0) return;
      if (cap < want + have) out.push({ kind: 'insufficient', resource, requested: want, used: have, capacity: cap });
    };
    check('cpu', req.milliCPU, used.milliCPU, a.milliCPU);
    check('memory', req.memory, used.memory, a.memory);
    check('ephemeral-storage', req.ephemeralStorage, used.ephemeralStorage, a.ephemeralStorage);
    for (const [name, want] of req.scalar) check(name, want, used.scalar.get(name) ?? 0, a.scalar.get(name) ?? 0);
    return out;
  };
}

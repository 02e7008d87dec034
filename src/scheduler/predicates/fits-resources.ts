import { FailureReason } from '../reasons';
import { FITS, Predicate } from './predicate';

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
  const fails = (want: number, have: number, cap: number) => !(onlyRequested && want <= 0) && cap < want + have;
  return (_pod, meta, node) => {
    let out: FailureReason[] | undefined;
    const allowed = node.allowedPodNumber;
    if (node.podCount + 1 > allowed)
      out = [{ kind: 'insufficient', resource: 'pods', requested: 1, used: node.podCount, capacity: allowed }];
    const req = meta.request;
    if (meta.zeroRequest) return out ?? FITS;
    const a = node.allocatable;
    const used = node.requested;
    // Fast path: the common case (everything fits) allocates nothing.
    if (fails(req.milliCPU, used.milliCPU, a.milliCPU))
      (out ??= []).push({
        kind: 'insufficient',
        resource: 'cpu',
        requested: req.milliCPU,
        used: used.milliCPU,
        capacity: a.milliCPU,
      });
    if (fails(req.memory, used.memory, a.memory))
      (out ??= []).push({
        kind: 'insufficient',
        resource: 'memory',
        requested: req.memory,
        used: used.memory,
        capacity: a.memory,
      });
    if (fails(req.ephemeralStorage, used.ephemeralStorage, a.ephemeralStorage)) {
      (out ??= []).push({
        kind: 'insufficient',
        resource: 'ephemeral-storage',
        requested: req.ephemeralStorage,
        used: used.ephemeralStorage,
        capacity: a.ephemeralStorage,
      });
    }
    if (req.scalar.size) {
      for (const [name, want] of req.scalar) {
        const have = used.scalar.get(name) ?? 0;
        const cap = a.scalar.get(name) ?? 0;
        if (fails(want, have, cap))
          (out ??= []).push({ kind: 'insufficient', resource: name, requested: want, used: have, capacity: cap });
      }
    }
    return out ?? FITS;
  };
}

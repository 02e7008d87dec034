import { FailureReason } from '../reasons';
import { FITS, Predicate, withRow } from './predicate';
import {
  F_ALLOC_CPU,
  F_ALLOC_EPH,
  F_ALLOC_MEM,
  F_ALLOWED_PODS,
  F_PODS,
  F_REQ_CPU,
  F_REQ_EPH,
  F_REQ_MEM,
} from '../node-table';

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
/** One pod more than allocatable "pods" does not fit. */
const tooMany = (pods: number, allowed: number) => pods + 1 > allowed;

export function fitsResources(onlyRequested: boolean): Predicate {
  const fails = (want: number, have: number, cap: number) => !(onlyRequested && want <= 0) && cap < want + have;
  const check: Predicate = (_pod, meta, node) => {
    let out: FailureReason[] | undefined;
    // The node's numbers from its table row (node-table.ts): one cache line, no nested objects.
    const d = node.table.data;
    const row = node.row;
    const allowed = d[row + F_ALLOWED_PODS];
    const pods = d[row + F_PODS];
    if (tooMany(pods, allowed))
      out = [{ kind: 'insufficient', resource: 'pods', requested: 1, used: pods, capacity: allowed }];
    const req = meta.request;
    if (meta.zeroRequest) return out ?? FITS;
    // Fast path: the common case (everything fits) allocates nothing.
    if (fails(req.milliCPU, d[row + F_REQ_CPU], d[row + F_ALLOC_CPU]))
      (out ??= []).push({
        kind: 'insufficient',
        resource: 'cpu',
        requested: req.milliCPU,
        used: d[row + F_REQ_CPU],
        capacity: d[row + F_ALLOC_CPU],
      });
    if (fails(req.memory, d[row + F_REQ_MEM], d[row + F_ALLOC_MEM]))
      (out ??= []).push({
        kind: 'insufficient',
        resource: 'memory',
        requested: req.memory,
        used: d[row + F_REQ_MEM],
        capacity: d[row + F_ALLOC_MEM],
      });
    if (fails(req.ephemeralStorage, d[row + F_REQ_EPH], d[row + F_ALLOC_EPH])) {
      (out ??= []).push({
        kind: 'insufficient',
        resource: 'ephemeral-storage',
        requested: req.ephemeralStorage,
        used: d[row + F_REQ_EPH],
        capacity: d[row + F_ALLOC_EPH],
      });
    }
    if (req.scalar.size) {
      const a = node.allocatable;
      const used = node.requested;
      for (const [name, want] of req.scalar) {
        const have = used.scalar.get(name) ?? 0;
        const cap = a.scalar.get(name) ?? 0;
        if (fails(want, have, cap))
          (out ??= []).push({ kind: 'insufficient', resource: name, requested: want, used: have, capacity: cap });
      }
    }
    return out ?? FITS;
  };
  // The same test on the row when the pod asks for no extended resource (those live in the NodeInfo's maps).
  return withRow(check, (meta, d, row) => {
    if (tooMany(d[row + F_PODS], d[row + F_ALLOWED_PODS])) return false;
    if (meta.zeroRequest) return true;
    const req = meta.request;
    return (
      req.scalar.size === 0 &&
      !fails(req.milliCPU, d[row + F_REQ_CPU], d[row + F_ALLOC_CPU]) &&
      !fails(req.memory, d[row + F_REQ_MEM], d[row + F_ALLOC_MEM]) &&
      !fails(req.ephemeralStorage, d[row + F_REQ_EPH], d[row + F_ALLOC_EPH])
    );
  });
}

/**
 * The numbers every scheduling decision reads of every node it visits — allocatable and
 * requested cpu, memory and ephemeral storage, the non-zero requests, the pod count and
 * limit, the cordon — kept row by row in one Float64Array shared by all the cache's
 * NodeInfos (a row per node, in the order nodes were added, which is close to the order
 * the NodeTree visits them). At 5000 nodes and 2500 visited per decision the predicate and
 * priority loops are bound by memory, not arithmetic: reading a NodeInfo's nested
 * Resources objects and boxed doubles costs several cache misses per node, a row here one.
 * NodeInfo writes through to it (nodeinfo.ts); the objects stay the source for everything
 * else (extended resources, the Node itself).
 */
export const F_ALLOC_CPU = 0;
export const F_ALLOC_MEM = 1;
export const F_ALLOC_EPH = 2;
export const F_REQ_CPU = 3;
export const F_REQ_MEM = 4;
export const F_REQ_EPH = 5;
export const F_NZ_CPU = 6;
export const F_NZ_MEM = 7;
export const F_PODS = 8;
export const F_ALLOWED_PODS = 9;
export const F_UNSCHEDULABLE = 10;
/** 1 while the Node object is known (a NodeInfo can outlive its Node while pods remain). */
export const F_HAS_NODE = 11;
/** How many NoSchedule/NoExecute taints, and how many PreferNoSchedule ones, the node has. */
export const F_FILTER_TAINTS = 12;
export const F_PREFER_TAINTS = 13;
/** Fields per row (a power of two: a row is 128 bytes, two cache lines, never straddling more). */
export const ROW = 16;

/** The rows of a list of nodes in one table: what predicates and priorities read instead of the NodeInfos. */
export interface Rows {
  data: Float64Array;
  rows: ArrayLike<number>;
}

export class NodeTable {
  data: Float64Array;
  private next = 0;
  private readonly free: number[] = [];

  constructor(capacity = 64) {
    this.data = new Float64Array(capacity * ROW);
  }

  /** A row for a new node (zeroed); the row's offset into `data`. */
  allocate(): number {
    const slot = this.free.pop() ?? this.next++;
    const base = slot * ROW;
    if (base + ROW > this.data.length) {
      const grown = new Float64Array(Math.max(this.data.length * 2, base + ROW));
      grown.set(this.data);
      this.data = grown;
    }
    this.data.fill(0, base, base + ROW);
    return base;
  }

  release(base: number): void {
    this.free.push(base / ROW);
  }
}

import { Node, Pod, Taint } from '../api/core';
import { objectKey } from '../api/meta';
import { emptyResources, nodeAllocatable, Resources } from '../api/pod-resources';
import { LEGACY_ARITHMETIC, PodArithmetic } from './requests';
import { zoneKey } from '../api/topology';
import {
  F_ALLOC_CPU,
  F_ALLOC_EPH,
  F_ALLOC_MEM,
  F_ALLOWED_PODS,
  F_NZ_CPU,
  F_NZ_MEM,
  F_PODS,
  F_REQ_CPU,
  F_REQ_EPH,
  F_REQ_MEM,
  F_FILTER_TAINTS,
  F_HAS_NODE,
  F_PREFER_TAINTS,
  F_UNSCHEDULABLE,
  NodeTable,
} from './node-table';

/** A host port as upstream's HostPortInfo keeps it: hostIP (default 0.0.0.0), protocol (default TCP), port. */
export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

/** The pod's host ports (upstream GetContainerPorts + sanitize): ports ≤ 0 are ignored. */
export function podHostPorts(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  for (const c of pod.spec.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      out.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
    }
  }
  return out;
}

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});
const NO_TAINTS: readonly Taint[] = Object.freeze([]);

interface PodEntry {
  pod: Pod;
  request: Resources;
  nonZero: { milliCPU: number; memory: number };
  ports: HostPort[];
  /** The pod has podAffinity or podAntiAffinity (NodeInfo.PodsWithAffinity). */
  withAffinity: boolean;
}

/**
 * What the scheduler knows about one node (schedulercache.NodeInfo): the Node, the pods
 * bound or assumed there, and their aggregated requests, kept incrementally so that a
 * scheduling decision never re-sums the pods of a node.
 */
export class NodeInfo {
  node?: Node;
  allocatable: Resources = emptyResources();
  allowedPodNumber = 0;
  /** Sum of the pods' actual requests (PodFitsResources). */
  readonly requested: Resources = emptyResources();
  /** Sum of the pods' non-zero requests (priorities). */
  readonly nonZeroRequested = { milliCPU: 0, memory: 0 };
  /** How many of the pods have inter-pod (anti-)affinity: most have none, and then nothing needs reading. */
  affinityPodCount = 0;
  private readonly entries = new Map<string, PodEntry>();
  /** "protocol/port" → hostIP → how many pods use it. */
  private readonly ports = new Map<string, Map<string, number>>();

  /** This node's row in the table (node-table.ts): the offset of its first field. */
  readonly row: number;

  constructor(
    readonly name: string,
    node?: Node,
    /** How a pod's requests are summed: v1.12's NodeInfo or v1.32's PodRequests. */
    private readonly arithmetic: PodArithmetic = LEGACY_ARITHMETIC,
    /** The cache's shared table; a NodeInfo on its own gets a table of one row. */
    readonly table: NodeTable = new NodeTable(1),
  ) {
    this.row = table.allocate();
    if (node) this.setNode(node);
  }

  /** utilnode.GetZoneKey of the node, kept with it. */
  zone = '';

  /** status.images by each of their names → size in bytes (NodeInfo.ImageStates), read once per node update. */
  images: ReadonlyMap<string, number> = new Map();

  /*
   * What the predicates and priorities read of the Node on every decision, taken once per
   * node update so the per-node loop reads fields of this object instead of walking the
   * Node (and allocating `?? []` defaults) for each pod.
   */
  /** spec.unschedulable (cordoned). */
  unschedulable = false;
  /** metadata.labels, never undefined. */
  labels: Readonly<Record<string, string>> = NO_LABELS;
  /** The taints with effect NoSchedule or NoExecute (the ones that filter). */
  filterTaints: readonly Taint[] = NO_TAINTS;
  /** The taints with effect PreferNoSchedule (the ones TaintTolerationPriority counts). */
  preferTaints: readonly Taint[] = NO_TAINTS;

  setNode(node: Node): void {
    this.node = node;
    // SelectorSpread's zones, as v1.12's utilnode.GetZoneKey read them: the beta labels only.
    this.zone = zoneKey(node.metadata.labels, true);
    this.unschedulable = !!node.spec?.unschedulable;
    this.labels = node.metadata.labels ?? NO_LABELS;
    const taints = node.spec?.taints ?? [];
    this.filterTaints = taints.length
      ? taints.filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')
      : NO_TAINTS;
    this.preferTaints = taints.length ? taints.filter((t) => t.effect === 'PreferNoSchedule') : NO_TAINTS;
    const images = new Map<string, number>();
    for (const img of node.status?.images ?? []) for (const n of img.names ?? []) images.set(n, img.sizeBytes ?? 0);
    this.images = images;
    const a = nodeAllocatable(node.status?.allocatable ?? node.status?.capacity);
    this.allocatable = a.resources;
    this.allowedPodNumber = a.pods;
    const d = this.table.data;
    d[this.row + F_ALLOC_CPU] = a.resources.milliCPU;
    d[this.row + F_ALLOC_MEM] = a.resources.memory;
    d[this.row + F_ALLOC_EPH] = a.resources.ephemeralStorage;
    d[this.row + F_ALLOWED_PODS] = a.pods;
    d[this.row + F_UNSCHEDULABLE] = this.unschedulable ? 1 : 0;
    d[this.row + F_HAS_NODE] = 1;
    d[this.row + F_FILTER_TAINTS] = this.filterTaints.length;
    d[this.row + F_PREFER_TAINTS] = this.preferTaints.length;
  }

  /** The Node is gone (cache.removeNode): what was read of it goes too. */
  clearNode(): void {
    this.node = undefined;
    this.unschedulable = false;
    this.labels = NO_LABELS;
    this.filterTaints = NO_TAINTS;
    this.preferTaints = NO_TAINTS;
    const d = this.table.data;
    d[this.row + F_UNSCHEDULABLE] = 0;
    d[this.row + F_HAS_NODE] = 0;
    d[this.row + F_FILTER_TAINTS] = 0;
    d[this.row + F_PREFER_TAINTS] = 0;
  }

  get podCount(): number {
    return this.entries.size;
  }

  pods(): IterableIterator<Pod> {
    return (function* (entries) {
      for (const e of entries.values()) yield e.pod;
    })(this.entries);
  }

  /** The pods with podAffinity or podAntiAffinity (upstream's PodsWithAffinity). */
  *podsWithAffinity(): Generator<Pod> {
    if (this.affinityPodCount === 0) return;
    for (const e of this.entries.values()) if (e.withAffinity) yield e.pod;
  }

  hasPod(key: string): boolean {
    return this.entries.has(key);
  }

  addPod(pod: Pod, key = objectKey(pod)): void {
    if (this.entries.has(key)) this.removePod(key);
    const entry: PodEntry = {
      pod,
      request: this.arithmetic.request(pod),
      nonZero: this.arithmetic.nonZero(pod),
      ports: podHostPorts(pod),
      withAffinity: !!(pod.spec.affinity?.podAffinity || pod.spec.affinity?.podAntiAffinity),
    };
    this.entries.set(key, entry);
    this.apply(entry, 1);
  }

  /**
   * The same pod, newer object (an assumed pod's binding confirmed): what it requests, its
   * ports and affinity cannot have changed (a bound pod's spec is immutable but for
   * additions these sums do not read), so nothing is summed again.
   */
  replacePod(key: string, pod: Pod): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    entry.pod = pod;
    return true;
  }

  removePod(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.apply(entry, -1);
    return true;
  }

  /** Whether (protocol, port, ip) conflicts with a used port (upstream HostPortInfo.CheckConflict). */
  portConflicts(p: HostPort): boolean {
    const ips = this.ports.get(`${p.protocol}/${p.port}`);
    if (!ips || ips.size === 0) return false;
    if (p.ip === '0.0.0.0') return true;
    return ips.has('0.0.0.0') || ips.has(p.ip);
  }

  private apply(e: PodEntry, sign: 1 | -1): void {
    const r = this.requested;
    r.milliCPU += sign * e.request.milliCPU;
    r.memory += sign * e.request.memory;
    r.ephemeralStorage += sign * e.request.ephemeralStorage;
    for (const [name, v] of e.request.scalar) r.scalar.set(name, (r.scalar.get(name) ?? 0) + sign * v);
    this.nonZeroRequested.milliCPU += sign * e.nonZero.milliCPU;
    this.nonZeroRequested.memory += sign * e.nonZero.memory;
    if (e.withAffinity) this.affinityPodCount += sign;
    const d = this.table.data;
    d[this.row + F_REQ_CPU] = r.milliCPU;
    d[this.row + F_REQ_MEM] = r.memory;
    d[this.row + F_REQ_EPH] = r.ephemeralStorage;
    d[this.row + F_NZ_CPU] = this.nonZeroRequested.milliCPU;
    d[this.row + F_NZ_MEM] = this.nonZeroRequested.memory;
    d[this.row + F_PODS] = this.entries.size;
    for (const p of e.ports) {
      const key = `${p.protocol}/${p.port}`;
      let ips = this.ports.get(key);
      if (!ips) this.ports.set(key, (ips = new Map()));
      const n = (ips.get(p.ip) ?? 0) + sign;
      if (n > 0) ips.set(p.ip, n);
      else ips.delete(p.ip);
    }
  }
}

import { Node, Pod } from '../api/core';
import { objectKey } from '../api/meta';
import { emptyResources, nodeAllocatable, Resources } from '../api/pod-resources';
import { LEGACY_ARITHMETIC, PodArithmetic } from './requests';
import { zoneKey } from './zone';

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

  constructor(
    readonly name: string,
    node?: Node,
    /** How a pod's requests are summed: v1.12's NodeInfo or v1.32's PodRequests. */
    private readonly arithmetic: PodArithmetic = LEGACY_ARITHMETIC,
  ) {
    if (node) this.setNode(node);
  }

  /** utilnode.GetZoneKey of the node, kept with it. */
  zone = '';

  /** status.images by each of their names → size in bytes (NodeInfo.ImageStates), read once per node update. */
  images: ReadonlyMap<string, number> = new Map();

  setNode(node: Node): void {
    this.node = node;
    this.zone = zoneKey(node);
    const images = new Map<string, number>();
    for (const img of node.status?.images ?? []) for (const n of img.names ?? []) images.set(n, img.sizeBytes ?? 0);
    this.images = images;
    const a = nodeAllocatable(node.status?.allocatable ?? node.status?.capacity);
    this.allocatable = a.resources;
    this.allowedPodNumber = a.pods;
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

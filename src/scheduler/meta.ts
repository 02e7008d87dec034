import { Node, Pod } from '../api/core';
import { HostPort, NodeInfo, podHostPorts } from './nodeinfo';
import { isZeroRequest, Resources } from '../api/pod-resources';
import { LEGACY_ARITHMETIC, PodArithmetic } from './requests';
import { CompiledTerm, requiredTerms } from './node-affinity';
import { Selector } from '../api/labels/selector';
import { SpreadSources } from './spread-selectors';

/** A Service as the scheduler reads it: namespace and selector. */
export interface ServiceLike {
  metadata: { name?: string; namespace?: string };
  spec?: { selector?: Record<string, string> | null };
}

/** What predicates and priorities may read about the rest of the cluster. */
export interface ClusterView {
  /** Services in the pod's namespace whose selector matches the pod's labels (ServiceLister.GetPodServices). */
  servicesForPod(pod: Pod): ServiceLike[];
  /** The selectors of the Services, RCs, ReplicaSets and StatefulSets that select the pod (getSelectors). */
  spreadSelectors(pod: Pod): Selector[];
  /** The Services, RCs, ReplicaSets and StatefulSets the scheduler lists (helper.DefaultSelector reads them). */
  spreadSources(): SpreadSources;
  /** Every node with a Node object (the framework snapshot's NodeInfos().List()). */
  allNodes(): readonly NodeInfo[];
  /** The nodes running pods with inter-pod (anti-)affinity (HavePodsWithAffinityList). */
  nodesWithAffinityPods(): Iterable<NodeInfo>;
  /** The nodes reporting images in status.images (the rest add nothing to image locality). */
  nodesWithImages(): Iterable<NodeInfo>;
  /** Scheduled (bound or assumed) pods of a namespace, in the order they were added. */
  podsInNamespace(namespace: string): Iterable<{ pod: Pod; node: string }>;
  nodeInfo(name: string): NodeInfo | undefined;
}

/**
 * Facts about the pod being scheduled, computed once per scheduling cycle and shared by
 * every predicate and priority (upstream's predicateMetadata / priorityMetadata).
 */
export class PodMeta {
  readonly request: Resources;
  readonly nonZero: { milliCPU: number; memory: number };
  readonly ports: HostPort[];
  readonly zeroRequest: boolean;
  private terms?: { value: CompiledTerm[] | undefined };
  private memo = new Map<string, unknown>();

  constructor(
    readonly pod: Pod,
    readonly cluster: ClusterView,
    arithmetic: PodArithmetic = LEGACY_ARITHMETIC,
  ) {
    this.request = arithmetic.request(pod);
    this.nonZero = arithmetic.nonZero(pod);
    this.ports = podHostPorts(pod);
    this.zeroRequest = isZeroRequest(this.request);
  }

  /** The pod's required node-affinity terms (undefined: no constraint), compiled once. */
  get requiredTerms(): CompiledTerm[] | undefined {
    if (!this.terms) this.terms = { value: requiredTerms(this.pod) };
    return this.terms.value;
  }

  /** Computes a value once per cycle under a name (precomputations of custom predicates); called per node, so one lookup. */
  once<T>(name: string, compute: () => T): T {
    const hit = this.memo.get(name) as { v: T } | undefined;
    if (hit) return hit.v;
    const v = compute();
    this.memo.set(name, { v });
    return v;
  }
}

export type { Node };

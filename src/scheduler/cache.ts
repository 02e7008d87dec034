import { Node, Pod } from '../api/core';
import { objectKey } from '../api/meta';
import { ClusterView, ServiceLike } from './meta';
import { NodeInfo } from './nodeinfo';
import { NodeTree } from './node-tree';
import { NodeTable } from './node-table';
import { LEGACY_ARITHMETIC, PodArithmetic } from './requests';
import { Selector } from '../api/labels/selector';
import { podServices, SpreadSources, spreadSelectors } from './spread-selectors';

/**
 * The scheduler's view of the cluster (schedulercache): a NodeInfo per node with the pods
 * bound there, plus pods it has assumed (chosen a node for, binding in flight), so the
 * next decision already counts them. Kept incrementally from informer events.
 */
export class SchedulerCache implements ClusterView {
  readonly tree = new NodeTree<NodeInfo>();
  private readonly infos = new Map<string, NodeInfo>();
  private readonly podNode = new Map<string, string>();
  private readonly assumed = new Set<string>();
  private readonly byNamespace = new Map<string, Map<string, { pod: Pod; node: string }>>();
  private readonly withAffinity = new Set<NodeInfo>();
  private readonly withImages = new Set<NodeInfo>();
  /** The rows the predicate and priority loops read (node-table.ts). */
  readonly table = new NodeTable(1024);
  private sources: SpreadSources = { services: [], replicationControllers: [], replicaSets: [], statefulSets: [] };

  constructor(readonly arithmetic: PodArithmetic = LEGACY_ARITHMETIC) {}

  nodeInfo(name: string): NodeInfo | undefined {
    return this.infos.get(name);
  }

  get numNodes(): number {
    return this.tree.numNodes;
  }

  private info(name: string): NodeInfo {
    let i = this.infos.get(name);
    if (!i) this.infos.set(name, (i = new NodeInfo(name, undefined, this.arithmetic, this.table)));
    return i;
  }

  setNode(node: Node): void {
    const name = node.metadata.name!;
    const info = this.info(name);
    if (info.node) this.tree.remove(name, info.zone);
    info.setNode(node);
    this.tree.add(info, info.zone);
    if (info.images.size > 0) this.withImages.add(info);
    else this.withImages.delete(info);
  }

  removeNode(node: Node): void {
    const name = node.metadata.name!;
    const info = this.infos.get(name);
    if (!info?.node) return;
    this.tree.remove(name, info.zone);
    this.withImages.delete(info);
    info.clearNode();
    if (info.podCount === 0) this.drop(info);
  }

  /** A pod bound to a node (from the informer): confirms an assumed pod or adds it. */
  addPod(pod: Pod): void {
    const key = objectKey(pod);
    const node = pod.spec.nodeName!;
    // v1.12 cache.AddPod: an assumed pod confirmed on the node it was assumed on keeps its
    // place (only the stored object changes); on another node it is moved.
    if (this.assumed.delete(key) && this.podNode.get(key) === node && this.infos.get(node)?.replacePod(key, pod)) {
      this.byNamespace.get(pod.metadata.namespace ?? 'default')?.set(key, { pod, node });
      return;
    }
    this.place(key, pod, node);
  }

  removePod(key: string): void {
    const node = this.podNode.get(key);
    if (node === undefined) return;
    this.podNode.delete(key);
    this.assumed.delete(key);
    const info = this.infos.get(node);
    info?.removePod(key);
    if (info && info.affinityPodCount === 0) this.withAffinity.delete(info);
    if (info && !info.node && info.podCount === 0) this.drop(info);
    const ns = key.slice(0, key.indexOf('/'));
    this.byNamespace.get(ns)?.delete(key);
  }

  private drop(info: NodeInfo): void {
    this.infos.delete(info.name);
    this.table.release(info.row);
  }

  /** AssumePod: count the pod on the node before its binding is confirmed. */
  assume(pod: Pod, node: string): void {
    const key = objectKey(pod);
    this.place(key, pod, node);
    this.assumed.add(key);
  }

  /** ForgetPod: the binding failed; the pod no longer counts. */
  forget(key: string): void {
    if (this.assumed.has(key)) this.removePod(key);
  }

  isAssumed(key: string): boolean {
    return this.assumed.has(key);
  }

  hasPod(key: string): boolean {
    return this.podNode.has(key);
  }

  private place(key: string, pod: Pod, node: string): void {
    const previous = this.podNode.get(key);
    if (previous !== undefined && previous !== node) this.removePod(key);
    this.podNode.set(key, node);
    const info = this.info(node);
    info.addPod(pod, key);
    if (info.affinityPodCount > 0) this.withAffinity.add(info);
    const ns = pod.metadata.namespace ?? 'default';
    let m = this.byNamespace.get(ns);
    if (!m) this.byNamespace.set(ns, (m = new Map()));
    m.set(key, { pod, node });
  }

  /** The Services, RCs, ReplicaSets and StatefulSets as the informers list them now. */
  setSpreadSources(sources: Partial<SpreadSources>): void {
    this.sources = { ...this.sources, ...sources };
  }

  servicesForPod(pod: Pod): ServiceLike[] {
    return podServices(pod, this.sources.services);
  }

  spreadSelectors(pod: Pod): Selector[] {
    return spreadSelectors(pod, this.sources);
  }

  spreadSources(): SpreadSources {
    return this.sources;
  }

  allNodes(): readonly NodeInfo[] {
    return this.tree.list();
  }

  nodesWithAffinityPods(): Iterable<NodeInfo> {
    return this.withAffinity;
  }

  nodesWithImages(): Iterable<NodeInfo> {
    return this.withImages;
  }

  podsInNamespace(namespace: string): Iterable<{ pod: Pod; node: string }> {
    return this.byNamespace.get(namespace)?.values() ?? [];
  }
}

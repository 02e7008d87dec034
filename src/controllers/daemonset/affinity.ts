import { Pod, PodSpec } from '../../api/core';

interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}
interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}
interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: NodeSelectorTerm[] };
  [other: string]: unknown;
}

/**
 * Upstream ReplaceDaemonSetPodNodeNameNodeAffinity (pkg/controller/daemon/util): the daemon
 * pod for a node is not bound to it but asks the scheduler for it, by a required node
 * affinity whose only term is `metadata.name In [node]` (matchFields). Any required terms of
 * the template are replaced (the DaemonSet already chose the node by them); preferred ones
 * and the pod (anti-)affinities stay. Returns a new affinity; the template's is not changed.
 */
export function nodeNameAffinity(affinity: PodSpec['affinity'], nodeName: string): NonNullable<PodSpec['affinity']> {
  const term: NodeSelectorTerm = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] };
  const nodeAffinity = (affinity?.nodeAffinity ?? {}) as NodeAffinity;
  return {
    ...affinity,
    nodeAffinity: {
      ...nodeAffinity,
      requiredDuringSchedulingIgnoredDuringExecution: {
        ...nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution,
        nodeSelectorTerms: [term],
      },
    },
  };
}

/**
 * Upstream GetTargetNodeName: the node a daemon pod is for — its spec.nodeName once bound,
 * before that the one value of its `metadata.name In` matchFields term.
 */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const na = pod.spec.affinity?.nodeAffinity as NodeAffinity | undefined;
  for (const t of na?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    for (const r of t.matchFields ?? [])
      if (r.key === 'metadata.name' && r.operator === 'In' && r.values?.length === 1) return r.values[0];
  }
  return undefined;
}

import { Priority } from './priority';

export const PREFER_AVOID_PODS_ANNOTATION = 'scheduler.alpha.kubernetes.io/preferAvoidPods';

interface AvoidEntry {
  podSignature?: { podController?: { kind?: string; uid?: string } };
}

/**
 * NodePreferAvoidPodsPriority (v1.12 node_prefer_avoid_pods.go, weight 10000): 0 on a
 * node whose preferAvoidPods annotation names the pod's controlling ReplicationController
 * or ReplicaSet, max elsewhere (and for pods without such a controller).
 */
export function preferAvoidPodsPriority(maxScore: number): Priority {
  return (pod, _meta, nodes) => {
    const ref = (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
    if (!ref || (ref.kind !== 'ReplicationController' && ref.kind !== 'ReplicaSet')) return nodes.map(() => maxScore);
    return nodes.map((n) => {
      const raw = n.node?.metadata.annotations?.[PREFER_AVOID_PODS_ANNOTATION];
      if (!raw) return maxScore;
      try {
        const avoids = (JSON.parse(raw) as { preferAvoidPods?: AvoidEntry[] }).preferAvoidPods ?? [];
        return avoids.some(
          (a) => a.podSignature?.podController?.kind === ref.kind && a.podSignature.podController.uid === ref.uid,
        )
          ? 0
          : maxScore;
      } catch {
        return maxScore;
      }
    });
  };
}

import { selectorFromSet } from '../../api/labels/selector';
import { Priority } from './priority';

/**
 * ServiceAntiAffinity (v1.12 selector_spreading.go CalculateAntiAffinityPriorityMap and
 * Reduce, policy argument serviceAntiAffinity): spread the pods of the pod's first
 * service across the values of a node label. Map: the service's pods (same namespace,
 * not being deleted) on each feasible node. Reduce: N = their sum over the feasible
 * nodes; a node without the label gets 0; a labelled node
 * int(max × (N − pods on feasible nodes with its label value) / N), max when N is 0.
 */
export function serviceAntiAffinityPriority(label: string, maxScore: number): Priority {
  return (pod, meta, nodes) => {
    const service = meta.cluster.servicesForPod(pod)[0];
    const selector = service ? selectorFromSet(service.spec?.selector ?? {}) : undefined;
    const counts = nodes.map((n) => {
      if (!selector) return 0;
      let c = 0;
      for (const p of n.pods())
        if (
          p.metadata.namespace === pod.metadata.namespace &&
          !p.metadata.deletionTimestamp &&
          selector.matches(p.metadata.labels)
        )
          c++;
      return c;
    });
    const total = counts.reduce((a, b) => a + b, 0);
    const byValue = new Map<string, number>();
    nodes.forEach((n, i) => {
      const labels = n.node?.metadata.labels ?? {};
      if (Object.hasOwn(labels, label)) byValue.set(labels[label], (byValue.get(labels[label]) ?? 0) + counts[i]);
    });
    return nodes.map((n) => {
      const labels = n.node?.metadata.labels ?? {};
      if (!Object.hasOwn(labels, label)) return 0;
      if (total === 0) return maxScore;
      return Math.trunc(maxScore * ((total - byValue.get(labels[label])!) / total));
    });
  };
}

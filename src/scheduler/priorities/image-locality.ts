import { Priority } from './priority';

const MB = 1024 * 1024;
/** minThreshold / maxThreshold (v1.12) and maxContainerThreshold per container (v1.32). */
const MIN_THRESHOLD = 23 * MB;
const MAX_THRESHOLD = 1000 * MB;

/** normalizedImageName: an image without a tag is ":latest". */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}

/**
 * ImageLocalityPriority (v1.12 image_locality.go, in the DefaultProvider since v1.12) and
 * the ImageLocality plugin (v1.32, weight 1): for each container image present on the node,
 * its size × (nodes that have it / all nodes) — the spread that keeps one node from drawing
 * every pod of a popular image — summed and mapped from [23 MiB, 1000 MiB] onto 0..10
 * (v1.12, app containers only) or from [23 MiB, 1000 MiB × containers] onto 0..100 (v1.32,
 * init containers too).
 */
export interface ImageLocalityRules {
  /** The top score: 10 (v1.12) or 100 (v1.32). */
  maxScore: number;
  /** v1.32: init containers' images count too, and the upper threshold is per container. */
  allContainers: boolean;
}

export const V1_12_IMAGE_LOCALITY: ImageLocalityRules = { maxScore: 10, allContainers: false };
export const V1_32_IMAGE_LOCALITY: ImageLocalityRules = { maxScore: 100, allContainers: true };

export function imageLocality(rules: ImageLocalityRules): Priority {
  return (pod, meta, nodes) => {
    const spread = new Map<string, number>();
    for (const n of meta.cluster.nodesWithImages())
      for (const name of n.images.keys()) spread.set(name, (spread.get(name) ?? 0) + 1);
    if (spread.size === 0) return nodes.map(() => 0);
    const total = meta.cluster.allNodes().length;
    const containers = rules.allContainers
      ? [...(pod.spec.initContainers ?? []), ...pod.spec.containers]
      : pod.spec.containers;
    const max = rules.allContainers ? MAX_THRESHOLD * containers.length : MAX_THRESHOLD;
    const top = rules.maxScore;
    return nodes.map((n) => {
      const images = n.images;
      let sum = 0;
      for (const c of containers) {
        const name = normalizedImageName(c.image ?? '');
        const size = images.get(name);
        if (size !== undefined) sum += Math.trunc(size * ((spread.get(name) ?? 0) / total));
      }
      const clamped = Math.min(Math.max(sum, MIN_THRESHOLD), max);
      return max <= MIN_THRESHOLD ? 0 : Math.trunc((top * (clamped - MIN_THRESHOLD)) / (max - MIN_THRESHOLD));
    });
  };
}

import { Pod } from '../api/core';
import { LabelSelector, Selector, selectorFromLabelSelector, selectorFromSet } from '../api/labels/selector';

/** A Service or ReplicationController as the scheduler reads it: namespace and a map selector. */
export interface MapSelected {
  metadata: { name?: string; namespace?: string };
  spec?: { selector?: Record<string, string> | null };
}

/** A ReplicaSet or StatefulSet as the scheduler reads it: namespace and a LabelSelector. */
export interface LabelSelected {
  metadata: { name?: string; namespace?: string };
  spec?: { selector?: LabelSelector | null };
}

/** The objects whose selectors spread a pod (the listers v1.12's SelectorSpread is built with). */
export interface SpreadSources {
  services: readonly MapSelected[];
  replicationControllers: readonly MapSelected[];
  replicaSets: readonly LabelSelected[];
  statefulSets: readonly LabelSelected[];
}

const ns = (o: { metadata: { namespace?: string } }) => o.metadata.namespace ?? 'default';

/** GetPodServices: services of the pod's namespace; a nil selector selects nothing, an empty one every pod. */
export function podServices<T extends MapSelected>(pod: Pod, services: readonly T[]): T[] {
  const namespace = ns(pod);
  return services.filter(
    (s) =>
      ns(s) === namespace && s.spec?.selector != null && selectorFromSet(s.spec.selector).matches(pod.metadata.labels),
  );
}

function labelSelectorOrUndefined(ls: LabelSelector | null | undefined): Selector | undefined {
  try {
    return selectorFromLabelSelector(ls);
  } catch {
    // LabelSelectorAsSelector failed: "this object has an invalid selector, it does not match the pod".
    return undefined;
  }
}

/**
 * getSelectors (v1.12 priorities/metadata.go) with the listers' Get…For pod rules
 * (GetPodControllers, GetPodReplicaSets, GetPodStatefulSets): the selectors of the
 * Services, ReplicationControllers, ReplicaSets and StatefulSets of the pod's namespace
 * that select it. A pod without labels has no controllers (the listers return an
 * error); a controller with an empty or nil selector, or one that does not parse,
 * selects nothing rather than everything.
 */
export function spreadSelectors(pod: Pod, sources: SpreadSources): Selector[] {
  const out = podServices(pod, sources.services).map((s) => selectorFromSet(s.spec!.selector));
  const labels = pod.metadata.labels ?? {};
  if (Object.keys(labels).length === 0) return out;
  const namespace = ns(pod);
  for (const rc of sources.replicationControllers) {
    if (ns(rc) !== namespace) continue;
    const s = selectorFromSet(rc.spec?.selector);
    if (!s.empty() && s.matches(labels)) out.push(s);
  }
  for (const o of [...sources.replicaSets, ...sources.statefulSets]) {
    if (ns(o) !== namespace) continue;
    const s = labelSelectorOrUndefined(o.spec?.selector);
    if (s && !s.empty() && s.matches(labels)) out.push(s);
  }
  return out;
}

import { FailureReason } from '../reasons';
import { fitsResources } from './fits-resources';
import { podFitsHost } from './host-name';
import { podFitsHostPorts } from './host-ports';
import { podMatchNodeSelector } from './node-selector';
import { Predicate } from './predicate';

const legacyResources = fitsResources(false);

/**
 * GeneralPredicates (v1.12 predicates.go): PodFitsResources (noncriticalPredicates), then
 * PodFitsHost, PodFitsHostPorts and PodMatchNodeSelector (EssentialPredicates); all four
 * run and their reasons are concatenated in that order.
 */
export const generalPredicates: Predicate = (pod, meta, node) => {
  const out: FailureReason[] = [];
  for (const p of [legacyResources, podFitsHost, podFitsHostPorts, podMatchNodeSelector]) out.push(...p(pod, meta, node));
  return out;
};

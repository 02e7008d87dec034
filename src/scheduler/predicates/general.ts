import { FailureReason } from '../reasons';
import { fitsResources } from './fits-resources';
import { podFitsHost } from './host-name';
import { podFitsHostPorts } from './host-ports';
import { podMatchNodeSelector } from './node-selector';
import { FITS, Predicate } from './predicate';

const legacyResources = fitsResources(false);

/**
 * GeneralPredicates (v1.12 predicates.go): PodFitsResources (noncriticalPredicates), then
 * PodFitsHost, PodFitsHostPorts and PodMatchNodeSelector (EssentialPredicates); all four
 * run and their reasons are concatenated in that order.
 */
const ALL: readonly Predicate[] = [legacyResources, podFitsHost, podFitsHostPorts, podMatchNodeSelector];

export const generalPredicates: Predicate = (pod, meta, node) => {
  let out: FailureReason[] | undefined;
  for (const p of ALL) {
    const r = p(pod, meta, node);
    if (r.length) (out ??= []).push(...r);
  }
  return out ?? FITS;
};

import { FailureReason } from '../reasons';
import { fitsResources } from './fits-resources';
import { podFitsHost } from './host-name';
import { podFitsHostPorts } from './host-ports';
import { podMatchNodeSelector } from './node-selector';
import { checkFor, FITS, NodeCheck, Predicate, withForPod } from './predicate';

const legacyResources = fitsResources(false);

/**
 * GeneralPredicates (v1.12 predicates.go): PodFitsResources (noncriticalPredicates), then
 * PodFitsHost, PodFitsHostPorts and PodMatchNodeSelector (EssentialPredicates); all four
 * run and their reasons are concatenated in that order.
 */
const ALL: readonly Predicate[] = [legacyResources, podFitsHost, podFitsHostPorts, podMatchNodeSelector];

function all(checks: readonly NodeCheck[]): NodeCheck {
  return (pod, meta, node) => {
    let out: FailureReason[] | undefined;
    for (const p of checks) {
      const r = p(pod, meta, node);
      if (r.length) (out ??= []).push(...r);
    }
    return out ?? FITS;
  };
}

/** Per pod, only the parts that can fail (most pods name no node, port or selector: resources alone). */
export const generalPredicates = withForPod(all(ALL), (pod, meta) => {
  const checks = ALL.map((p) => checkFor(p, pod, meta)).filter((c): c is NodeCheck => c !== undefined);
  if (checks.length === 0) return undefined;
  return checks.length === 1 ? checks[0] : all(checks);
});

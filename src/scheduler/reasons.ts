/**
 * Why a node does not fit a pod. Predicates return reasons as data; the message a user
 * sees depends on the release (legacy predicates of the seed's v1.12 vs the framework
 * plugins of v1.32), so the wording is one Wording per release (LEGACY_WORDING,
 * FRAMEWORK_WORDING), chosen once with the release's plugin set.
 */
export type PredicateReason =
  | 'NoDiskConflict'
  | 'MatchNodeSelector'
  | 'HostName'
  | 'PodFitsHostPorts'
  | 'CheckNodeLabelPresence'
  | 'CheckServiceAffinity'
  | 'PodToleratesNodeTaints'
  | 'NodeUnschedulable'
  | 'NodeUnknownCondition'
  | 'MaxVolumeCount'
  | 'MatchInterPodAffinity'
  | 'ExistingPodsAntiAffinityRulesNotMatch'
  | 'PodAffinityRulesNotMatch'
  | 'PodAntiAffinityRulesNotMatch'
  | 'PodTopologySpread'
  | 'PodTopologySpreadMissingLabel'
  | 'NodeNotReady'
  | 'NodeOutOfDisk'
  | 'NodeNetworkUnavailable'
  | 'NodeUnderMemoryPressure'
  | 'NodeUnderDiskPressure'
  | 'NodeUnderPIDPressure';

export type FailureReason =
  | { kind: 'predicate'; reason: PredicateReason; taint?: { key: string; value?: string } }
  | { kind: 'insufficient'; resource: string; requested: number; used: number; capacity: number };

/** v1.12 pkg/scheduler/algorithm/predicates/error.go, GetReason() of each Err* variable. */
const LEGACY: Record<PredicateReason, string> = {
  NoDiskConflict: 'node(s) had no available disk',
  MatchNodeSelector: "node(s) didn't match node selector",
  HostName: "node(s) didn't match the requested hostname",
  PodFitsHostPorts: "node(s) didn't have free ports for the requested pod ports",
  CheckNodeLabelPresence: "node(s) didn't have the requested labels",
  CheckServiceAffinity: "node(s) didn't match service affinity",
  PodToleratesNodeTaints: "node(s) had taints that the pod didn't tolerate",
  NodeUnschedulable: 'node(s) were unschedulable',
  NodeUnknownCondition: 'node(s) had unknown conditions',
  MaxVolumeCount: 'node(s) exceed max volume count',
  MatchInterPodAffinity: "node(s) didn't match pod affinity/anti-affinity",
  ExistingPodsAntiAffinityRulesNotMatch: "node(s) didn't satisfy existing pods anti-affinity rules",
  PodAffinityRulesNotMatch: "node(s) didn't match pod affinity rules",
  PodAntiAffinityRulesNotMatch: "node(s) didn't match pod anti-affinity rules",
  // v1.32 only (podtopologyspread ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch).
  PodTopologySpread: "node(s) didn't match pod topology spread constraints",
  PodTopologySpreadMissingLabel: "node(s) didn't match pod topology spread constraints (missing required label)",
  // v1.12 CheckNodeCondition and the pressure predicates (run only without TaintNodesByCondition).
  NodeNotReady: 'node(s) were not ready',
  NodeOutOfDisk: 'node(s) were out of disk space',
  NodeNetworkUnavailable: 'node(s) had unavailable network',
  NodeUnderMemoryPressure: 'node(s) had memory pressure',
  NodeUnderDiskPressure: 'node(s) had disk pressure',
  NodeUnderPIDPressure: 'node(s) had pid pressure',
};

/** v1.32 framework plugins' ErrReason constants (nodeaffinity, nodename, nodeports, volumerestrictions, …). */
const FRAMEWORK: Record<PredicateReason, string> = {
  ...LEGACY,
  MatchNodeSelector: "node(s) didn't match Pod's node affinity/selector",
  HostName: "node(s) didn't match the requested node name",
  CheckNodeLabelPresence: "node(s) didn't have the requested labels",
  NodeUnknownCondition: 'node(s) had unknown conditions',
  MaxVolumeCount: 'node(s) exceed max volume count',
};

/** A release's words for why nodes do not fit. */
export interface Wording {
  /** The short reason counted in the FailedScheduling histogram (GetReason / Status reason). */
  reasonText(r: FailureReason): string;
  /** The FailedScheduling message when no node fits. */
  fitError(numAllNodes: number, failures: ReadonlyMap<string, readonly FailureReason[]>): string;
}

/** v1.12: the predicates' GetReason(); no nodes at all is a message of its own. */
export const LEGACY_WORDING: Wording = {
  reasonText: (r) => (r.kind === 'insufficient' ? `Insufficient ${r.resource}` : LEGACY[r.reason]),
  fitError: (numAllNodes, failures) =>
    numAllNodes === 0 ? 'no nodes available to schedule pods' : fitErrorMessage(numAllNodes, failures, LEGACY_WORDING),
};

/** v1.32: the plugins' reasons ("Too many pods", the untolerated taint named), and preemption's verdict appended. */
export const FRAMEWORK_WORDING: Wording = {
  reasonText: (r) => {
    if (r.kind === 'insufficient') return r.resource === 'pods' ? 'Too many pods' : `Insufficient ${r.resource}`;
    if (r.reason === 'PodToleratesNodeTaints' && r.taint)
      return `node(s) had untolerated taint {${r.taint.key}: ${r.taint.value ?? ''}}`;
    return FRAMEWORK[r.reason];
  },
  fitError: (numAllNodes, failures) => frameworkFitErrorMessage(numAllNodes, failures),
};

/**
 * FitError.Error(): "0/N nodes are available: " then "<count> <reason>" per distinct
 * reason, sorted as strings, joined by ", ", and a final "." (v1.8+ generic_scheduler.go).
 * Every reason of every node counts once per node.
 */
export function fitErrorMessage(
  numAllNodes: number,
  failures: ReadonlyMap<string, readonly FailureReason[]>,
  wording: Wording,
): string {
  return `0/${numAllNodes} nodes are available: ${reasonHistogram(failures, wording).join(', ')}.`;
}

export function reasonHistogram(failures: ReadonlyMap<string, readonly FailureReason[]>, wording: Wording): string[] {
  const counts = new Map<string, number>();
  for (const reasons of failures.values()) {
    for (const r of reasons) {
      const t = wording.reasonText(r);
      counts.set(t, (counts.get(t) ?? 0) + 1);
    }
  }
  return [...counts].map(([t, n]) => `${n} ${t}`).sort();
}

/** Framework failures preemption could resolve by evicting pods (Unschedulable, not UnschedulableAndUnresolvable). */
function resolvable(r: FailureReason): boolean {
  // InterPodAffinity: a missing affinity match is UnschedulableAndUnresolvable; an
  // anti-affinity conflict is Unschedulable (evicting the matching pods could resolve it).
  return (
    r.kind === 'insufficient' ||
    r.reason === 'PodFitsHostPorts' ||
    r.reason === 'NoDiskConflict' ||
    r.reason === 'PodAntiAffinityRulesNotMatch' ||
    r.reason === 'PodTopologySpread' ||
    r.reason === 'ExistingPodsAntiAffinityRulesNotMatch'
  );
}

/**
 * v1.32 FitError.Error() with the DefaultPreemption PostFilter's message appended: every
 * node whose failure preemption cannot fix counts as "Preemption is not helpful for
 * scheduling", every other as "No preemption victims found for incoming pod" (this control
 * plane models no pod of lower priority to evict). The preemption message ends in "." and
 * is appended after a space, nothing more: the doubled ".." of earlier releases was gone
 * by v1.30 (found by running upstream v1.32.13; FitError.Error in framework/types.go).
 */
export function frameworkFitErrorMessage(
  numAllNodes: number,
  failures: ReadonlyMap<string, readonly FailureReason[]>,
): string {
  const counts = new Map<string, number>();
  for (const reasons of failures.values()) {
    const t = reasons.some((r) => !resolvable(r))
      ? 'Preemption is not helpful for scheduling'
      : 'No preemption victims found for incoming pod';
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  const preemption = `0/${numAllNodes} nodes are available: ${[...counts]
    .map(([t, n]) => `${n} ${t}`)
    .sort()
    .join(', ')}.`;
  return `${fitErrorMessage(numAllNodes, failures, FRAMEWORK_WORDING)} preemption: ${preemption}`;
}

import { FRAMEWORK_ARITHMETIC, LEGACY_ARITHMETIC, PodArithmetic } from './requests';
import { FRAMEWORK_WORDING, LEGACY_WORDING, Wording } from './reasons';

/**
 * What a scheduler release decides around its plugins: how it sums a pod's requests, its
 * words for a node that does not fit, how many nodes it looks at and in what order, and how
 * it picks among equal totals. Upstream's two modelled releases are two plugin sets
 * (providers.ts: v1.12's predicates and priorities, v1.32's framework plugins), each with
 * one of these, chosen once from the profile; no plugin asks which release it runs in.
 */
export interface SchedulerRelease {
  arithmetic: PodArithmetic;
  wording: Wording;
  /**
   * numFeasibleNodesToFind with percentageOfNodesToScore 0 (unset): v1.32's adaptive
   * 50 − nodes/125 % (at least 5 %); v1.12 takes 0 as "every node".
   */
  adaptivePercentage: boolean;
  /**
   * v1.32 filters the snapshot's node list from where the last cycle stopped
   * (nextStartNodeIndex); v1.12 walks the node tree's zone round-robin (NodeTree.Next).
   */
  resumeNodeList: boolean;
  /** selectHost among the highest totals: v1.12's round-robin, v1.32's reservoir sampling. */
  hostSelection: 'round-robin' | 'reservoir';
}

/** The seed's v1.12 scheduler (generic_scheduler.go, the predicates and priorities). */
export const LEGACY_RELEASE: SchedulerRelease = {
  arithmetic: LEGACY_ARITHMETIC,
  wording: LEGACY_WORDING,
  adaptivePercentage: false,
  resumeNodeList: false,
  hostSelection: 'round-robin',
};

/** v1.32's scheduler framework (schedule_one.go). */
export const FRAMEWORK_RELEASE: SchedulerRelease = {
  arithmetic: FRAMEWORK_ARITHMETIC,
  wording: FRAMEWORK_WORDING,
  adaptivePercentage: true,
  resumeNodeList: true,
  hostSelection: 'reservoir',
};

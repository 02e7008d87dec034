import { Pod } from '../api/core';
import { isoTime } from '../clock';
import { SchedulerCache } from './cache';
import { NodeVerdict, SchedulingDecision } from './decision';
import { PodMeta } from './meta';
import { NodeInfo } from './nodeinfo';
import { Algorithm } from './providers';
import { FailureReason, fitErrorMessage, frameworkFitErrorMessage, reasonText } from './reasons';
import { seededRandom } from '../util/random';

export interface ScheduleResult {
  node?: string;
  /** The FailedScheduling message when nothing fits. */
  message?: string;
  decision?: SchedulingDecision;
}

/** minFeasibleNodesToFind (generic_scheduler.go): below this many nodes every node is checked. */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;

/**
 * numFeasibleNodesToFind. Legacy (v1.12): percentageOfNodesToScore (default 50) of the
 * nodes, at least 100; all of them below 100 nodes or at 0/100 %. Framework (v1.32), with
 * the percentage unset: adaptive 50 − nodes/125 %, at least 5 %, at least 100 nodes.
 */
export function numFeasibleNodesToFind(era: Algorithm['era'], numAllNodes: number, percentage: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let p = percentage;
  if (era === 'framework' && p <= 0) p = Math.max(5, 50 - Math.trunc(numAllNodes / 125));
  if (p <= 0 || p >= 100) return numAllNodes;
  return Math.max(MIN_FEASIBLE_NODES_TO_FIND, Math.trunc((numAllNodes * p) / 100));
}

/**
 * selectHost among the highest totals. Legacy (v1.10–1.15 findMaxScores + lastNodeIndex):
 * round-robin over the max-score nodes in list order, one step per decision. Framework
 * (v1.32 selectHost): reservoir sampling — each later node with the max score replaces the
 * choice with probability 1/count — drawn from a PRNG with a fixed seed.
 */
export class HostSelector {
  private lastNodeIndex = 0;
  private readonly random: () => number;

  constructor(
    readonly era: Algorithm['era'],
    seed = 1,
  ) {
    this.random = seededRandom(seed);
  }

  select(names: readonly string[], totals: readonly number[]): string {
    if (this.era === 'legacy') {
      let max = -Infinity;
      const maxIdx: number[] = [];
      for (let i = 0; i < totals.length; i++) {
        if (totals[i] > max) {
          max = totals[i];
          maxIdx.length = 0;
        }
        if (totals[i] === max) maxIdx.push(i);
      }
      const ix = this.lastNodeIndex % maxIdx.length;
      this.lastNodeIndex++;
      return names[maxIdx[ix]];
    }
    let selected = 0;
    let count = 1;
    for (let i = 1; i < totals.length; i++) {
      if (totals[i] > totals[selected]) {
        selected = i;
        count = 1;
      } else if (totals[i] === totals[selected]) {
        count++;
        if (Math.floor(this.random() * count) === 0) selected = i;
      }
    }
    return names[selected];
  }
}

export interface GenericSchedulerOptions {
  percentageOfNodesToScore: number;
  /** Evaluate every predicate even after one failed (policy alwaysCheckAllPredicates). */
  alwaysCheckAllPredicates: boolean;
  seed?: number;
}

/**
 * One scheduling decision (genericScheduler.Schedule): filter nodes in the cache's order
 * until enough feasible ones are found, score them with every priority (Σ score ×
 * weight), pick the best. A single feasible node is taken without scoring, as upstream.
 */
export class GenericScheduler {
  private readonly selector: HostSelector;
  private nextStartNodeIndex = 0;

  constructor(
    readonly algorithm: Algorithm,
    private readonly cache: SchedulerCache,
    private readonly options: GenericSchedulerOptions,
  ) {
    this.selector = new HostSelector(algorithm.era, options.seed ?? 1);
  }

  schedule(pod: Pod, now: number, record: boolean): ScheduleResult {
    const era = this.algorithm.era;
    const all = this.cache.numNodes;
    const meta = new PodMeta(pod, this.cache, this.cache.arithmetic);
    const want = numFeasibleNodesToFind(era, all, this.options.percentageOfNodesToScore);
    const feasible: NodeInfo[] = [];
    const failures = new Map<string, FailureReason[]>();
    const verdicts: NodeVerdict[] = [];
    const order = era === 'framework' ? this.cache.tree.list() : undefined;
    let processed = 0;
    while (processed < all && feasible.length < want) {
      const info = order ? order[(this.nextStartNodeIndex + processed) % all] : this.cache.tree.next()!;
      const name = info.name;
      processed++;
      const failed = this.filter(pod, meta, info);
      if (!failed) {
        feasible.push(info);
        continue;
      }
      failures.set(name, failed.reasons);
      if (record)
        verdicts.push({
          node: name,
          failedPredicate: failed.predicate,
          reasons: failed.reasons.map((r) => reasonText(r, era)),
        });
    }
    if (order && all > 0) this.nextStartNodeIndex = (this.nextStartNodeIndex + processed) % all;
    const decision: SchedulingDecision | undefined = record
      ? {
          pod: `${pod.metadata.namespace}/${pod.metadata.name}`,
          at: isoTime(now),
          provider: this.algorithm.provider,
          numAllNodes: all,
          evaluated: processed,
          feasible: feasible.length,
          weights: Object.fromEntries(this.algorithm.priorities.map((p) => [p.name, p.weight])),
          nodes: verdicts,
        }
      : undefined;
    if (feasible.length === 0) {
      const message =
        era === 'framework'
          ? frameworkFitErrorMessage(all, failures)
          : all === 0
            ? 'no nodes available to schedule pods'
            : fitErrorMessage(all, failures, era);
      if (decision) decision.message = message;
      return { message, decision };
    }
    if (feasible.length === 1) {
      if (decision) {
        decision.nodes.push({ node: feasible[0].name });
        decision.chosen = feasible[0].name;
      }
      return { node: feasible[0].name, decision };
    }
    const totals = new Array<number>(feasible.length).fill(0);
    const perPriority: number[][] = [];
    for (const p of this.algorithm.priorities) {
      const scores = p.fn(pod, meta, feasible);
      perPriority.push(scores);
      for (let i = 0; i < scores.length; i++) totals[i] += scores[i] * p.weight;
    }
    if (this.algorithm.priorities.length === 0) totals.fill(1); // EqualPriority
    const names = feasible.map((n) => n.name);
    const chosen = this.selector.select(names, totals);
    if (decision) {
      feasible.forEach((n, i) => {
        decision.nodes.push({
          node: n.name,
          scores: Object.fromEntries(this.algorithm.priorities.map((p, j) => [p.name, perPriority[j][i]])),
          total: totals[i],
        });
      });
      decision.chosen = chosen;
    }
    return { node: chosen, decision };
  }

  /** podFitsOnNode: predicates in order; by default the first failure ends the node's evaluation. */
  private filter(pod: Pod, meta: PodMeta, info: NodeInfo): { predicate: string; reasons: FailureReason[] } | undefined {
    let first: string | undefined;
    let reasons: FailureReason[] | undefined;
    for (const p of this.algorithm.predicates) {
      const r = p.fn(pod, meta, info);
      if (r.length === 0) continue;
      if (!first) {
        first = p.name;
        reasons = [...r];
      } else reasons!.push(...r);
      if (!this.options.alwaysCheckAllPredicates) break;
    }
    return first ? { predicate: first, reasons: reasons! } : undefined;
  }
}

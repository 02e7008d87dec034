import { Pod } from '../api/core';
import { isoTime } from '../clock';
import { SchedulerCache } from './cache';
import { NodeVerdict, SchedulingDecision } from './decision';
import { PodMeta } from './meta';
import { NodeInfo } from './nodeinfo';
import { Algorithm } from './providers';
import { checkFor, NodeCheck } from './predicates/predicate';
import { Rows } from './node-table';
import { FailureReason } from './reasons';
import { SchedulerRelease } from './release';
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
export function numFeasibleNodesToFind(
  release: Pick<SchedulerRelease, 'adaptivePercentage'>,
  numAllNodes: number,
  percentage: number,
): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let p = percentage;
  if (release.adaptivePercentage && p <= 0) p = Math.max(5, 50 - Math.trunc(numAllNodes / 125));
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
    readonly selection: SchedulerRelease['hostSelection'],
    seed = 1,
  ) {
    this.random = seededRandom(seed);
  }

  select(names: readonly string[], totals: ArrayLike<number>): string {
    return names[this.selectIndex(totals)];
  }

  /** The index of the chosen node in totals. */
  selectIndex(totals: ArrayLike<number>): number {
    if (this.selection === 'round-robin') {
      // The max, how many nodes have it, then the (lastNodeIndex mod that)-th of them in order.
      let max = -Infinity;
      let ties = 0;
      for (let i = 0; i < totals.length; i++) {
        if (totals[i] > max) {
          max = totals[i];
          ties = 0;
        }
        if (totals[i] === max) ties++;
      }
      let ix = this.lastNodeIndex % ties;
      this.lastNodeIndex++;
      for (let i = 0; i < totals.length; i++) if (totals[i] === max && ix-- === 0) return i;
      return -1;
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
    return selected;
  }
}

function passesRows(
  checks: readonly NonNullable<NodeCheck['passesRow']>[],
  meta: PodMeta,
  data: Float64Array,
  row: number,
): boolean {
  for (let i = 0; i < checks.length; i++) if (!checks[i](meta, data, row)) return false;
  return true;
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
  /** The feasible nodes' table rows, reused from cycle to cycle. */
  private rows = new Int32Array(0);
  private totals = new Float64Array(0);

  constructor(
    readonly algorithm: Algorithm,
    private readonly cache: SchedulerCache,
    private readonly options: GenericSchedulerOptions,
  ) {
    this.selector = new HostSelector(algorithm.release.hostSelection, options.seed ?? 1);
  }

  schedule(pod: Pod, now: number, record: boolean): ScheduleResult {
    const release = this.algorithm.release;
    const all = this.cache.numNodes;
    const meta = new PodMeta(pod, this.cache, this.cache.arithmetic);
    const want = numFeasibleNodesToFind(release, all, this.options.percentageOfNodesToScore);
    // Sized once for the most nodes this cycle can find (no growth copies), trimmed after.
    const feasible = new Array<NodeInfo>(Math.min(want, all));
    let found = 0;
    const failures = new Map<string, FailureReason[]>();
    const verdicts: NodeVerdict[] = [];
    const tree = this.cache.tree;
    const order = release.resumeNodeList ? tree.list() : undefined;
    const orderRows = release.resumeNodeList ? tree.listRows() : undefined;
    const checks = this.checksFor(pod, meta);
    // When every check can answer from a node's table row, a node that passes them all is
    // never touched (its NodeInfo is only pushed); the others run the checks for reasons.
    const rowChecks = checks.every((c) => c.fn.passesRow) ? checks.map((c) => c.fn.passesRow!) : undefined;
    const data = this.cache.table.data;
    if (this.rows.length < feasible.length) this.rows = new Int32Array(feasible.length);
    const rows = this.rows;
    let processed = 0;
    while (processed < all && found < want) {
      let info: NodeInfo;
      let row: number;
      if (order) {
        const k = (this.nextStartNodeIndex + processed) % all;
        info = order[k];
        row = orderRows![k];
      } else {
        info = tree.next()!;
        row = tree.row;
      }
      processed++;
      if (rowChecks && row >= 0 && passesRows(rowChecks, meta, data, row)) {
        rows[found] = row;
        feasible[found++] = info;
        continue;
      }
      const failed = checks.length === 0 ? undefined : this.filter(pod, meta, info, checks);
      if (!failed) {
        rows[found] = info.row;
        feasible[found++] = info;
        continue;
      }
      const name = info.name;
      failures.set(name, failed.reasons);
      if (record)
        verdicts.push({
          node: name,
          failedPredicate: failed.predicate,
          reasons: failed.reasons.map((r) => release.wording.reasonText(r)),
        });
    }
    feasible.length = found;
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
      const message = release.wording.fitError(all, failures);
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
    // Float64Array: one element kind whatever the priorities return (a −0 would make an Array's doubles).
    if (this.totals.length < feasible.length) this.totals = new Float64Array(feasible.length);
    const totals = this.totals.subarray(0, feasible.length);
    totals.fill(0);
    const perPriority: number[][] = [];
    const at: Rows = { data, rows };
    for (const p of this.algorithm.priorities) {
      const scores = p.fn(pod, meta, feasible, at);
      perPriority.push(scores);
      const w = p.weight;
      for (let i = 0; i < scores.length; i++) totals[i] += scores[i] * w;
    }
    if (this.algorithm.priorities.length === 0) totals.fill(1); // EqualPriority
    const chosen = feasible[this.selector.selectIndex(totals)].name;
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

  /** The predicates, in order, that can fail for this pod (checkFor), each specialised to it once per cycle. */
  private checksFor(pod: Pod, meta: PodMeta): { name: string; fn: NodeCheck }[] {
    const out: { name: string; fn: NodeCheck }[] = [];
    for (const p of this.algorithm.predicates) {
      const fn = checkFor(p.fn, pod, meta);
      if (fn) out.push({ name: p.name, fn });
    }
    return out;
  }

  /** podFitsOnNode: predicates in order; by default the first failure ends the node's evaluation. */
  private filter(
    pod: Pod,
    meta: PodMeta,
    info: NodeInfo,
    checks: readonly { name: string; fn: NodeCheck }[],
  ): { predicate: string; reasons: FailureReason[] } | undefined {
    let first: string | undefined;
    let reasons: FailureReason[] | undefined;
    for (const p of checks) {
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

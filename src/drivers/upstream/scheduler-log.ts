import type { NodeVerdict, SchedulingDecision } from '../../scheduler/decision';

/**
 * kube-scheduler's scoring decisions read back from its log. kube-scheduler keeps no record of
 * why it chose a node, but at verbosity 10 its prioritizeNodes (pkg/scheduler/schedule_one.go,
 * v1.32) logs each score plugin's weighted score per node ("Plugin scored node for pod") and
 * each node's total ("Calculated node's final score for pod"). The driver turns on that one
 * file's verbosity (`--vmodule=schedule_one=10`), not the whole process's: -v=10 would log
 * every request and response body as well.
 *
 * What the log cannot tell: which filter refused a node (the FitError aggregates them), and a
 * decision with one feasible node, which skips scoring (schedulePod: "only one node after
 * predicate, just use it"). The decisions built here say so (filterVerdicts: false).
 */

/** The score plugins' weights in v1.32's default profile (pkg/scheduler/apis/config/v1/default_plugins.go getDefaultPlugins). */
export const V1_32_DEFAULT_SCORE_WEIGHTS: Readonly<Record<string, number>> = {
  TaintToleration: 3,
  NodeAffinity: 2,
  NodeResourcesFit: 1,
  PodTopologySpread: 2,
  InterPodAffinity: 2,
  NodeResourcesBalancedAllocation: 1,
  ImageLocality: 1,
  VolumeBinding: 1,
};

const SCORED = 'Plugin scored node for pod';
const TOTAL = "Calculated node's final score for pod";

/** A klog header's instant (`I1205 08:11:12.123456`: month, day and time of day, UTC here) as RFC 3339. */
function klogTime(line: string): string {
  const m = /^[IWEF](\d\d)(\d\d) (\d\d:\d\d:\d\d\.\d+)/.exec(line);
  return m ? `${new Date().getUTCFullYear()}-${m[1]}-${m[2]}T${m[3]}Z` : '';
}

/** The key="value" and key=value pairs after a klog text line's quoted message. */
function fields(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of line.matchAll(/ ([A-Za-z]+)=(?:"((?:[^"\\]|\\.)*)"|(\S+))/g)) out[m[1]] = m[2] ?? m[3];
  return out;
}

/**
 * The scoring decisions for `pod` (namespace/name) in `log`, oldest first. A decision ends
 * where a (node, plugin) pair comes again: each scheduling attempt scores every feasible node
 * once per plugin. Scores are divided by their plugin's weight (the log has them weighted),
 * so they read as the plugin's own 0–100; `total` is the logged final score.
 */
export function decisionsFromLog(
  log: string,
  pod: string,
  weights: Readonly<Record<string, number>> = V1_32_DEFAULT_SCORE_WEIGHTS,
): SchedulingDecision[] {
  const decisions: SchedulingDecision[] = [];
  let current: Map<string, NodeVerdict> | undefined;
  let at = '';
  const close = () => {
    if (!current) return;
    const nodes = [...current.values()].sort((a, b) => a.node.localeCompare(b.node));
    // A score plugin whose PreScore returned Skip (NodeAffinity without preferred terms,
    // PodTopologySpread without soft constraints, InterPodAffinity without preferred terms or
    // existing affinity, VolumeBinding without capacity scoring) is not run, so not logged:
    // RunScorePlugins leaves it out of the node's total, which is a score of 0.
    for (const n of nodes) for (const plugin of Object.keys(weights)) n.scores![plugin] ??= 0;
    decisions.push({
      pod,
      at,
      provider: 'kube-scheduler (its log)',
      numAllNodes: nodes.length,
      evaluated: nodes.length,
      feasible: nodes.length,
      weights: { ...weights },
      nodes,
      message: 'scores from its log (the binding is in the API)',
      filterVerdicts: false,
    });
    current = undefined;
  };
  for (const line of log.split('\n')) {
    const scored = line.includes(`"${SCORED}"`);
    const total = !scored && line.includes(`"${TOTAL}"`);
    if (!scored && !total) continue;
    const f = fields(line.slice(line.indexOf('"')));
    if (f.pod !== pod || !f.node || f.score === undefined) continue;
    const score = Number(f.score);
    if (scored) {
      const weight = weights[f.plugin];
      if (weight === undefined)
        throw new Error(`kube-scheduler scored with plugin ${f.plugin}, whose weight is not known`);
      const v = current?.get(f.node);
      if (!current || v?.scores?.[f.plugin] !== undefined || v?.total !== undefined) {
        close();
        current = new Map();
        at = klogTime(line);
      }
      const verdict = current.get(f.node) ?? { node: f.node, scores: {} };
      verdict.scores![f.plugin] = score / weight;
      current.set(f.node, verdict);
    } else if (current) {
      const verdict = current.get(f.node) ?? { node: f.node, scores: {} };
      verdict.total = score;
      current.set(f.node, verdict);
    }
  }
  close();
  return decisions;
}

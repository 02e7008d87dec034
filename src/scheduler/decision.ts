/** One node's part in a scheduling decision. */
export interface NodeVerdict {
  node: string;
  /** The predicate (filter) that failed, and the reasons it gave; absent when the node fits. */
  failedPredicate?: string;
  reasons?: string[];
  /** Each priority's score (0–10 legacy, 0–100 framework), when priorities ran. */
  scores?: Record<string, number>;
  /** Σ score × weight. */
  total?: number;
}

/** What the scheduler decided for one pod, and why (explainability). */
export interface SchedulingDecision {
  pod: string;
  /** Cluster time of the decision, RFC 3339. */
  at: string;
  provider: string;
  /** Nodes in the cluster, nodes evaluated, nodes that fit. */
  numAllNodes: number;
  evaluated: number;
  feasible: number;
  weights: Record<string, number>;
  nodes: NodeVerdict[];
  /** False when the source cannot tell which filter refused a node (kube-scheduler's log). */
  filterVerdicts?: boolean;
  /** The chosen node, or the FailedScheduling message. */
  chosen?: string;
  message?: string;
}

/** The decision as a few lines of text, for reports. */
export function formatDecision(d: SchedulingDecision): string {
  const lines = [
    `pod ${d.pod} at ${d.at} (${d.provider}): ${d.chosen ? `bound to ${d.chosen}` : d.message}`,
    `  ${d.numAllNodes} nodes, ${d.evaluated} evaluated, ${d.feasible} feasible; weights ${Object.entries(d.weights)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  ];
  for (const n of d.nodes) {
    if (n.failedPredicate) lines.push(`  ${n.node}: ✗ ${n.failedPredicate}: ${(n.reasons ?? []).join(', ')}`);
    else if (n.scores)
      lines.push(
        `  ${n.node}: ${Object.entries(n.scores)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')} → ${n.total}`,
      );
    else lines.push(`  ${n.node}: fits (only feasible node: priorities not run)`);
  }
  return lines.join('\n');
}

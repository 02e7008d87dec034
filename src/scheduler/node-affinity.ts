import { Node, Pod } from '../api/core';
import { newRequirement, Operator, Requirement } from '../api/labels/selector';

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] } | null;
  preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; preference: NodeSelectorTerm }[] | null;
}

const OPERATORS: Record<NodeSelectorRequirement['operator'], Operator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
  Gt: 'gt',
  Lt: 'lt',
};

/** A compiled term: undefined when it can never match (empty, or a requirement that does not parse). */
export type CompiledTerm = { labels: Requirement[]; fields: Requirement[] } | undefined;

function compile(reqs: NodeSelectorRequirement[] | undefined, fields: boolean): Requirement[] | undefined {
  const out: Requirement[] = [];
  for (const r of reqs ?? []) {
    try {
      // Field requirements: only metadata.name with In/NotIn (NodeSelectorRequirementsAsFieldSelector).
      if (fields && (r.key !== 'metadata.name' || !['In', 'NotIn'].includes(r.operator) || r.values?.length !== 1))
        return undefined;
      out.push(newRequirement(r.key, OPERATORS[r.operator], r.values ?? []));
    } catch {
      return undefined;
    }
  }
  return out;
}

/**
 * One term (v1helper.MatchNodeSelectorTerms): a term with no expressions and no fields
 * selects nothing; expressions are ANDed; an expression that does not parse makes the
 * term match nothing.
 */
export function compileTerm(term: NodeSelectorTerm | undefined): CompiledTerm {
  if (!term || ((term.matchExpressions?.length ?? 0) === 0 && (term.matchFields?.length ?? 0) === 0)) return undefined;
  const labels = compile(term.matchExpressions, false);
  const fields = compile(term.matchFields, true);
  if (!labels || !fields) return undefined;
  return { labels, fields };
}

export function termMatches(term: CompiledTerm, node: Node): boolean {
  if (!term) return false;
  const labels = node.metadata.labels;
  for (const r of term.labels) if (!r.matches(labels)) return false;
  if (term.fields.length) {
    const fields = { 'metadata.name': node.metadata.name ?? '' };
    for (const r of term.fields) if (!r.matches(fields)) return false;
  }
  return true;
}

function affinityOf(pod: Pod): NodeAffinity | undefined {
  return (pod.spec.affinity as { nodeAffinity?: NodeAffinity } | undefined)?.nodeAffinity ?? undefined;
}

/** The required terms, ORed; undefined when the pod states none (no constraint). An empty list matches nothing. */
export function requiredTerms(pod: Pod): CompiledTerm[] | undefined {
  const req = affinityOf(pod)?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!req) return undefined;
  return (req.nodeSelectorTerms ?? []).map(compileTerm);
}

export function preferredTerms(pod: Pod): { weight: number; term: CompiledTerm }[] {
  return (affinityOf(pod)?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((p) => ({
    weight: p.weight,
    term: compileTerm(p.preference),
  }));
}

import { Priority } from './priority';

/**
 * CalculateNodeLabelPriority (NewNodeLabelPriority, policy argument labelPreference):
 * max score when the node has the label and presence is true, or lacks it and presence
 * is false; else 0. The value is not looked at.
 */
export function nodeLabelPriority(label: string, presence: boolean, maxScore: number): Priority {
  return (_pod, _meta, nodes) =>
    nodes.map((n) => (Object.hasOwn(n.node?.metadata.labels ?? {}, label) === presence ? maxScore : 0));
}

import { Predicate, FITS } from './predicate';

/**
 * CheckNodeLabelPresence (NewNodeLabelPredicate, policy argument labelsPresence): with
 * presence true the node must carry every listed label key, with presence false none of
 * them; values are not looked at.
 */
export function nodeLabelPresence(labels: readonly string[], presence: boolean): Predicate {
  return (_pod, _meta, node) => {
    const have = node.node?.metadata.labels ?? {};
    for (const key of labels) {
      if (Object.hasOwn(have, key) !== presence) return [{ kind: 'predicate', reason: 'CheckNodeLabelPresence' }];
    }
    return FITS;
  };
}

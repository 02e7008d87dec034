import { qosClass } from '../../api/resources/pod';
import { FailureReason } from '../reasons';
import { FITS, Predicate } from './predicate';

/*
 * The v1.12 predicates that read node conditions. With TaintNodesByCondition (on in v1.12
 * and in the seed profile) ApplyFeatureGates unregisters all four: conditions reach the
 * scheduler as taints instead, and a Policy naming one of them is refused. They run only
 * where the gate is off.
 */

const status = (conditions: { type: string; status: string }[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type)?.status;

/**
 * CheckNodeConditionPredicate: Ready must be True, OutOfDisk and NetworkUnavailable False
 * (each only when reported), and the node not cordoned; every failing check is a reason.
 */
export const checkNodeCondition: Predicate = (_pod, _meta, node) => {
  if (!node.node) return [{ kind: 'predicate', reason: 'NodeUnknownCondition' }];
  const out: FailureReason[] = [];
  for (const c of node.node.status?.conditions ?? []) {
    if (c.type === 'Ready' && c.status !== 'True') out.push({ kind: 'predicate', reason: 'NodeNotReady' });
    else if (c.type === 'OutOfDisk' && c.status !== 'False') out.push({ kind: 'predicate', reason: 'NodeOutOfDisk' });
    else if (c.type === 'NetworkUnavailable' && c.status !== 'False')
      out.push({ kind: 'predicate', reason: 'NodeNetworkUnavailable' });
  }
  if (node.node.spec?.unschedulable) out.push({ kind: 'predicate', reason: 'NodeUnschedulable' });
  return out.length ? out : FITS;
};

/** CheckNodeMemoryPressurePredicate: only BestEffort pods are kept off a node under memory pressure. */
export const checkNodeMemoryPressure: Predicate = (pod, _meta, node) => {
  if (qosClass(pod.spec) !== 'BestEffort') return FITS;
  return status(node.node?.status?.conditions, 'MemoryPressure') === 'True'
    ? [{ kind: 'predicate', reason: 'NodeUnderMemoryPressure' }]
    : FITS;
};

/** CheckNodeDiskPressurePredicate: no pod goes to a node under disk pressure. */
export const checkNodeDiskPressure: Predicate = (_pod, _meta, node) =>
  status(node.node?.status?.conditions, 'DiskPressure') === 'True'
    ? [{ kind: 'predicate', reason: 'NodeUnderDiskPressure' }]
    : FITS;

/** CheckNodePIDPressurePredicate: no pod goes to a node under PID pressure. */
export const checkNodePIDPressure: Predicate = (_pod, _meta, node) =>
  status(node.node?.status?.conditions, 'PIDPressure') === 'True'
    ? [{ kind: 'predicate', reason: 'NodeUnderPIDPressure' }]
    : FITS;

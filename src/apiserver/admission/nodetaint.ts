import { Node } from '../../api/core';
import { TAINT_NOT_READY } from '../../api/taints';
import { AdmissionPlugin } from '../admission';

/**
 * TaintNodesByCondition (plugin/pkg/admission/nodetaint, Plugin.Admit): every Node created
 * gets `node.kubernetes.io/not-ready:NoSchedule` unless it already carries a taint of that
 * key and effect, so that no pod is scheduled to a new node in the moment before the node
 * lifecycle controller has tainted it by its conditions. That controller then reconciles the
 * NoSchedule taints with the conditions (doNoScheduleTaintingPass): it lifts the taint once
 * the node is Ready — and at once from a node that has no conditions at all (a hand-made one).
 * Creates only, no subresources; updates are left alone.
 */
export function nodeTaintAdmission(): AdmissionPlugin {
  return {
    name: 'TaintNodesByCondition',
    admit(attrs) {
      if (attrs.operation !== 'CREATE' || attrs.subresource) return;
      if (attrs.resource.resource !== 'nodes' || attrs.resource.group !== '') return;
      const node = attrs.object as Node | undefined;
      if (!node) return;
      const taints = node.spec?.taints ?? [];
      if (taints.some((t) => t.key === TAINT_NOT_READY && t.effect === 'NoSchedule')) return;
      node.spec = { ...node.spec, taints: [...taints, { key: TAINT_NOT_READY, effect: 'NoSchedule' }] };
    },
  };
}

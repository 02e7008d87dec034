import { errors, successStatus } from '../../api/errors';
import { Binding, Pod, PodCondition } from '../../api/core';
import { isoTime } from '../../clock';
import type { SubresourceHandler } from '../apiserver';

/**
 * pods/binding: assigns a pod to a node once (upstream BindingREST.Create → assignPod):
 * sets spec.nodeName and the PodScheduled condition; refuses a pod already assigned or
 * being deleted.
 */
export const bindingHandler: SubresourceHandler = {
  async create(api, target, body, ctx) {
    const binding = body as Binding;
    const name = target.name!;
    if (binding?.metadata?.name && binding.metadata.name !== name) {
      throw errors.badRequest(`name in URL does not match name in Binding object`);
    }
    const nodeName = binding?.target?.name;
    if (!nodeName)
      throw errors.invalid('Binding', name, [
        { reason: 'FieldValueRequired', field: 'target.name', message: 'Required value' },
      ]);
    if (binding.target.kind && binding.target.kind !== 'Node') {
      throw errors.invalid('Binding', name, [
        {
          reason: 'FieldValueNotSupported',
          field: 'target.kind',
          message: `Unsupported value: "${binding.target.kind}": supported values: "Node"`,
        },
      ]);
    }
    const pods = api.storage<Pod>({ resource: 'pods' });
    await pods.guaranteedUpdate(
      target.namespace,
      name,
      (pod) => {
        if (pod.metadata.deletionTimestamp) {
          throw errors.conflict(
            { kind: 'pods/binding', name },
            `pod ${name} is being deleted, cannot be assigned to a host`,
          );
        }
        if (pod.spec.nodeName) {
          throw errors.conflict(
            { kind: 'pods/binding', name },
            `pod ${name} is already assigned to node "${pod.spec.nodeName}"`,
          );
        }
        pod.spec.nodeName = nodeName;
        const now = isoTime(api.clock.now());
        const scheduled: PodCondition = {
          type: 'PodScheduled',
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: now,
        };
        const conditions = (pod.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
        pod.status = { ...pod.status, conditions: [...conditions, scheduled] };
        return pod;
      },
      { dryRun: ctx.dryRun, registryWrite: true },
    );
    return { ...successStatus(), code: 201 };
  },
};

import { errors, successStatus } from '../../api/errors';
import { DeleteOptions } from '../../api/request';
import type { SubresourceHandler } from '../apiserver';

interface Eviction {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  deleteOptions?: DeleteOptions;
}

/**
 * pods/{name}/eviction (policy/v1 Eviction), what `kubectl drain` posts: the pod is deleted
 * with the eviction's DeleteOptions, and the answer is a Status Success with code 201.
 * Upstream: pkg/registry/core/pod/storage/eviction.go (EvictionREST.Create). No
 * PodDisruptionBudget exists in this control plane yet, so no eviction is refused with 429.
 */
export const evictionHandler: SubresourceHandler = {
  async create(api, target, body, ctx) {
    const eviction = (body ?? {}) as Eviction;
    const name = target.name!;
    if (eviction.kind !== undefined && eviction.kind !== 'Eviction')
      throw errors.badRequest(`expected an Eviction, got ${eviction.kind}`);
    if (eviction.metadata?.name && eviction.metadata.name !== name) {
      throw errors.badRequest(`name in URL does not match name in Eviction object`);
    }
    await api.delete({ resource: 'pods', namespace: target.namespace, name }, eviction.deleteOptions ?? {}, ctx);
    return { ...successStatus(), code: 201 };
  },
};

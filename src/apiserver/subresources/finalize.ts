import { errors } from '../../api/errors';
import { Namespace } from '../../api/core';
import type { SubresourceHandler } from '../apiserver';

/**
 * namespaces/finalize (upstream FinalizeREST): the only way to change spec.finalizers; the
 * namespace controller removes `kubernetes` here once the namespace is empty.
 */
export const finalizeHandler: SubresourceHandler = {
  async update(api, target, body, ctx) {
    const incoming = body as Namespace;
    if (!incoming?.metadata) throw errors.badRequest('the body of the request was in an unknown format');
    return api.storage<Namespace>(target).guaranteedUpdate(
      undefined,
      target.name!,
      (ns) => {
        ns.spec = { ...ns.spec, finalizers: [...new Set(incoming.spec?.finalizers ?? [])] };
        return ns;
      },
      { dryRun: ctx.dryRun, expectedResourceVersion: incoming.metadata.resourceVersion },
    );
  },
};

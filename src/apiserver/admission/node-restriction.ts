import { errors } from '../../api/errors';
import type { Pod } from '../../api/core';
import type { AdmissionPlugin } from '../admission';
import { nodeIdentity } from '../auth/node-authorizer';

/**
 * NodeRestriction (plugin/pkg/admission/noderestriction): a kubelet identity may change only
 * its own Node, create only mirror pods bound to itself, and update the status of, delete or
 * evict only pods bound to itself. Other users are not its concern.
 */
const MIRROR = 'kubernetes.io/config.mirror';

export function nodeRestriction(): AdmissionPlugin {
  return {
    name: 'NodeRestriction',
    validate(attrs) {
      const node = attrs.user ? nodeIdentity(attrs.user) : undefined;
      if (!node) return;
      const rt = attrs.resource;
      if (rt.group !== '') return;
      const forbid = (why: string) =>
        errors.forbidden({ kind: rt.resource, name: attrs.name ?? attrs.object?.metadata.name }, why);
      if (rt.resource === 'nodes') {
        const name = attrs.name ?? attrs.object?.metadata.name;
        if (name !== node) throw forbid(`node "${node}" is not allowed to modify node "${name}"`);
        return;
      }
      if (rt.resource !== 'pods') return;
      const pod = (attrs.object ?? attrs.oldObject) as Pod | undefined;
      const bound = (p: Pod | undefined) => p?.spec?.nodeName === node;
      if (attrs.operation === 'CREATE' && !attrs.subresource) {
        if (!pod?.metadata.annotations?.[MIRROR])
          throw forbid(`pod does not have "${MIRROR}" annotation, node "${node}" can only create mirror pods`);
        if (!bound(pod)) throw forbid(`node "${node}" can only create pods with spec.nodeName set to itself`);
        return;
      }
      if (attrs.operation === 'CREATE' && attrs.subresource === 'eviction') return; // checked against the pod below by DELETE
      if (attrs.operation === 'UPDATE' && attrs.subresource !== 'status')
        throw forbid(`node "${node}" can only update pod status`);
      if (!bound(attrs.oldObject as Pod | undefined) && !bound(pod)) {
        throw forbid(
          attrs.operation === 'DELETE'
            ? `node "${node}" can only delete pods with spec.nodeName set to itself`
            : `node "${node}" can only update pod status for pods with spec.nodeName set to itself`,
        );
      }
    },
  };
}

import { errors } from '../../api/errors';
import { Namespace } from '../../api/core';
import type { ApiServer } from '../apiserver';
import { AdmissionPlugin } from '../admission';

export const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];

/**
 * NamespaceLifecycle (plugin/pkg/admission/namespace/lifecycle): no content in a namespace
 * that does not exist or is terminating; the system namespaces may not be deleted.
 */
export function namespaceLifecycle(api: ApiServer): AdmissionPlugin {
  return {
    name: 'NamespaceLifecycle',
    async validate(attrs) {
      if (attrs.resource.resource === 'namespaces') {
        if (attrs.operation === 'DELETE' && attrs.name && IMMORTAL_NAMESPACES.includes(attrs.name)) {
          throw errors.forbidden({ kind: 'namespaces', name: attrs.name }, 'this namespace may not be deleted');
        }
        return;
      }
      if (!attrs.resource.namespaced || attrs.operation !== 'CREATE' || !attrs.namespace) return;
      let ns: Namespace;
      try {
        ns = (await api.storage<Namespace>({ resource: 'namespaces' }).get(undefined, attrs.namespace));
      } catch {
        throw errors.notFound({ kind: 'namespaces', name: attrs.namespace });
      }
      // Events may still be written while a namespace terminates, as upstream allows.
      if (ns.status?.phase === 'Terminating' && attrs.resource.resource !== 'events') {
        throw errors.forbidden(
          { kind: attrs.resource.resource, group: attrs.resource.group, name: attrs.name },
          `unable to create new content in namespace ${attrs.namespace} because it is being terminated`,
        );
      }
    },
  };
}

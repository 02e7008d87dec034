import { errors, NAMESPACE_TERMINATING_CAUSE } from '../../api/errors';
import { Namespace } from '../../api/core';
import type { ApiServer } from '../apiserver';
import { AdmissionAttributes, AdmissionPlugin } from '../admission';

export const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];

/**
 * NamespaceLifecycle (staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle,
 * Lifecycle.Admit): the system namespaces may not be deleted; operations on namespaces
 * and deletes of anything are always allowed; creates and updates in a namespace that does
 * not exist are NotFound; creates in a Terminating namespace are Forbidden, with a
 * NamespaceTerminating cause. Events are no exception (upstream has none).
 */
export function namespaceLifecycle(api: ApiServer): AdmissionPlugin {
  return {
    name: 'NamespaceLifecycle',
    // Not async as a whole: a write that needs no namespace look-up (a cluster-scoped object,
    // a delete) answers at once and costs the admission chain no promise.
    admit(attrs) {
      if (attrs.resource.resource === 'namespaces') {
        if (attrs.operation === 'DELETE' && attrs.name && IMMORTAL_NAMESPACES.includes(attrs.name)) {
          throw errors.forbidden({ kind: 'namespaces', name: attrs.name }, 'this namespace may not be deleted');
        }
        return;
      }
      if (!attrs.resource.namespaced || !attrs.namespace || attrs.operation === 'DELETE') return;
      return inNamespace(attrs.namespace, attrs);
    },
  };

  async function inNamespace(namespace: string, attrs: AdmissionAttributes): Promise<void> {
    let ns: Namespace;
    try {
      ns = await api.storage<Namespace>({ resource: 'namespaces' }).get(undefined, namespace);
    } catch {
      throw errors.notFound({ kind: 'namespaces', name: namespace });
    }
    if (attrs.operation === 'CREATE' && ns.status?.phase === 'Terminating') {
      const err = errors.forbidden(
        {
          kind: attrs.resource.resource,
          group: attrs.resource.group,
          name: attrs.name ?? attrs.object?.metadata.generateName ?? 'Unknown',
        },
        `unable to create new content in namespace ${attrs.namespace} because it is being terminated`,
      );
      err.status.details = {
        ...err.status.details,
        causes: [
          {
            reason: NAMESPACE_TERMINATING_CAUSE,
            message: `namespace ${attrs.namespace} is being terminated`,
            field: 'metadata.namespace',
          },
        ],
      };
      throw err;
    }
  }
}

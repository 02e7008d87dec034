import { Namespace } from '../core';
import { defineResource } from '../registry';

/**
 * Namespaces. A DELETE on a namespace already Terminating whose spec.finalizers remain is a
 * 409 Conflict in v1.12 ("The system is ensuring all content is removed …"); v1.32's
 * REST.Delete answers it with the namespace as it is (pkg/registry/core/namespace/storage,
 * `if len(namespace.Spec.Finalizers) != 0 { return namespace, false, nil }`).
 */
export function namespacesResource(repeatDeleteAnswered: boolean) {
  return defineResource<Namespace>({
    group: '',
    version: 'v1',
    resource: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    subresources: ['status', 'finalize'],
    hasStatus: true,
    nameRule: 'label',
    defaults(ns) {
      ns.spec ??= {};
      ns.spec.finalizers ??= ['kubernetes'];
      ns.status ??= {};
      ns.status.phase ??= 'Active';
      ns.metadata.labels = { ...ns.metadata.labels, 'kubernetes.io/metadata.name': ns.metadata.name! };
    },
    deletionHold: {
      held: (ns) => (ns.spec?.finalizers ?? []).length > 0,
      markDeleting(ns) {
        ns.status = { ...ns.status, phase: 'Terminating' };
      },
      ...(repeatDeleteAnswered
        ? {}
        : {
            refusal:
              'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
          }),
    },
    fields(ns) {
      return { 'status.phase': ns.status?.phase ?? '' };
    },
  });
}

export const namespaces = namespacesResource(false);

import { Namespace } from '../core';
import { defineResource } from '../registry';

export const namespaces = defineResource<Namespace>({
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
    refusal: 'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
  },
  fields(ns) {
    return { 'status.phase': ns.status?.phase ?? '' };
  },
});

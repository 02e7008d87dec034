import { Event } from '../core';
import { defineResource } from '../registry';
import { fieldError } from '../validation/field';

export const events = defineResource<Event>({
  group: '',
  version: 'v1',
  resource: 'events',
  kind: 'Event',
  namespaced: true,
  shortNames: ['ev'],
  validate(ev) {
    return ev.involvedObject ? [] : [fieldError.required('involvedObject')];
  },
  fields(ev) {
    const o = ev.involvedObject ?? {};
    return {
      'involvedObject.kind': o.kind ?? '',
      'involvedObject.namespace': o.namespace ?? '',
      'involvedObject.name': o.name ?? '',
      'involvedObject.uid': o.uid ?? '',
      'involvedObject.apiVersion': o.apiVersion ?? '',
      'involvedObject.resourceVersion': o.resourceVersion ?? '',
      'involvedObject.fieldPath': o.fieldPath ?? '',
      reason: ev.reason ?? '',
      source: ev.source?.component ?? '',
      type: ev.type ?? '',
    };
  },
});

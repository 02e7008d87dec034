import { DaemonSet } from '../core';
import { defineResource } from '../registry';
import { fieldError, FieldErrors } from '../validation/field';
import { selectorFromLabelSelector } from '../labels/selector';
import { validateLabelSelector } from '../validation/labels';
import { defaultPodSpec, validatePodSpec } from './pod';

/** apps/v1 DaemonSet: a pod template run once on every eligible node. */
export const daemonsets = defineResource<DaemonSet>({
  group: 'apps',
  version: 'v1',
  resource: 'daemonsets',
  kind: 'DaemonSet',
  namespaced: true,
  shortNames: ['ds'],
  categories: ['all'],
  subresources: ['status'],
  hasStatus: true,
  tracksGeneration: true,
  defaults(ds) {
    if (ds.spec?.template?.spec) defaultPodSpec(ds.spec.template.spec);
    if (ds.spec) {
      ds.spec.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } };
      ds.spec.revisionHistoryLimit ??= 10;
      ds.spec.minReadySeconds ??= 0;
    }
  },
  prepareForCreate(ds) {
    ds.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
  },
  validate(ds) {
    const errs: FieldErrors = [];
    if (!ds.spec?.selector) return [fieldError.required('spec.selector')];
    for (const e of validateLabelSelector(ds.spec.selector, 'spec.selector')) errs.push(fieldError.invalid(e.field, '', e.message));
    const labels = ds.spec.template?.metadata?.labels ?? {};
    if (errs.length === 0 && !selectorFromLabelSelector(ds.spec.selector).matches(labels)) {
      errs.push(fieldError.invalid('spec.template.metadata.labels', JSON.stringify(labels), '`selector` does not match template `labels`'));
    }
    errs.push(...validatePodSpec('spec.template.spec', ds.spec.template?.spec));
    if (ds.spec.template?.spec?.restartPolicy && ds.spec.template.spec.restartPolicy !== 'Always') {
      errs.push(fieldError.notSupported('spec.template.spec.restartPolicy', ds.spec.template.spec.restartPolicy, ['Always']));
    }
    return errs;
  },
});

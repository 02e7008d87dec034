import { LabelSelector, selectorFromLabelSelector } from '../labels/selector';
import { validateLabelSelector } from '../validation/labels';
import { KubeObject, jsonEqual } from '../meta';
import { defineResource } from '../registry';
import { fieldError, FieldErrors } from '../validation/field';
import { defaultPodSpec } from './pod';
import { PodTemplateSpec, validatePodTemplate } from './replicationcontroller';

export interface WorkloadCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** apps/v1 ReplicaSet: a ReplicationController with a set-based selector. */
export interface ReplicaSet extends KubeObject {
  spec: {
    replicas?: number;
    minReadySeconds?: number;
    selector: LabelSelector;
    template: PodTemplateSpec;
  };
  status?: {
    replicas: number;
    fullyLabeledReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    conditions?: WorkloadCondition[];
  };
}

/** Checks shared by a nonnegative integer field (upstream ValidateNonnegativeField). */
export function nonNegative(field: string, v: number | undefined): FieldErrors {
  if (v === undefined || (Number.isInteger(v) && v >= 0)) return [];
  return [fieldError.invalid(field, v, 'must be greater than or equal to 0')];
}

/**
 * A workload's selector and template (upstream ValidateReplicaSetSpec /
 * ValidateDeploymentSpec / ValidateStatefulSetSpec share these): a non-empty valid selector
 * that the template's labels match, restartPolicy Always, no activeDeadlineSeconds.
 */
export function validateSelectedTemplate(
  kind: string,
  selector: LabelSelector | undefined,
  template: PodTemplateSpec | undefined,
): FieldErrors {
  const errs: FieldErrors = [];
  if (!selector) errs.push(fieldError.required('spec.selector'));
  else {
    for (const e of validateLabelSelector(selector, 'spec.selector'))
      errs.push({ reason: 'FieldValueInvalid', field: e.field, message: e.message });
    const empty =
      Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
    if (empty)
      errs.push(fieldError.invalid('spec.selector', selector, `empty selector is invalid for ${kind.toLowerCase()}`));
    const labels = template?.metadata?.labels ?? {};
    if (!empty && errs.length === 0 && !selectorFromLabelSelector(selector).matches(labels)) {
      errs.push(
        fieldError.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'),
      );
    }
  }
  if (!template) return [...errs, fieldError.required('spec.template')];
  const policy = template.spec?.restartPolicy;
  if (policy !== undefined && policy !== 'Always')
    errs.push(fieldError.notSupported('spec.template.spec.restartPolicy', policy, ['Always']));
  if (template.spec?.activeDeadlineSeconds !== undefined)
    errs.push(
      fieldError.forbidden(
        'spec.template.spec.activeDeadlineSeconds',
        `activeDeadlineSeconds in ${kind} is not Supported`,
      ),
    );
  errs.push(
    ...validatePodTemplate('spec.template', template).filter((e) => e.field !== 'spec.template.spec.restartPolicy'),
  );
  return errs;
}

/** apps/v1 selectors are immutable (upstream ValidateReplicaSetUpdate and friends). */
export function validateSelectorUnchanged(
  obj: { spec: { selector?: LabelSelector } },
  old: { spec: { selector?: LabelSelector } },
): FieldErrors {
  if (jsonEqual(obj.spec?.selector, old.spec?.selector)) return [];
  return [fieldError.invalid('spec.selector', obj.spec?.selector, 'field is immutable')];
}

/** ReplicaSet (apps/v1). Defaults as SetDefaults_ReplicaSet: replicas 1. */
export const replicasets = defineResource<ReplicaSet>({
  group: 'apps',
  version: 'v1',
  resource: 'replicasets',
  kind: 'ReplicaSet',
  namespaced: true,
  shortNames: ['rs'],
  categories: ['all'],
  subresources: ['status'],
  hasStatus: true,
  tracksGeneration: true,
  defaults(rs) {
    if (!rs.spec) return;
    rs.spec.replicas ??= 1;
    if (rs.spec.template?.spec) defaultPodSpec(rs.spec.template.spec);
  },
  prepareForCreate(rs) {
    rs.status = { replicas: 0 };
  },
  validate(rs) {
    if (!rs.spec) return [fieldError.required('spec')];
    return [
      ...nonNegative('spec.replicas', rs.spec.replicas),
      ...nonNegative('spec.minReadySeconds', rs.spec.minReadySeconds),
      ...validateSelectedTemplate('ReplicaSet', rs.spec.selector, rs.spec.template),
    ];
  },
  validateUpdate: (rs, old) => validateSelectorUnchanged(rs, old),
});

import { PodSpec } from '../core';
import { KubeObject, ObjectMeta } from '../meta';
import { defineResource } from '../registry';
import { fieldError, FieldErrors } from '../validation/field';
import { defaultPodSpec, validatePodSpec } from './pod';

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec: PodSpec;
}

export interface ReplicationControllerCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ReplicationController extends KubeObject {
  spec: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: Record<string, string>;
    template?: PodTemplateSpec;
  };
  status?: {
    replicas: number;
    fullyLabeledReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    conditions?: ReplicationControllerCondition[];
  };
}

/** autoscaling/v1 Scale, what the scale subresource reads and writes. */
export interface Scale extends KubeObject {
  spec: { replicas?: number };
  status?: { replicas: number; selector?: string };
}

/** Checks shared by every pod template (upstream ValidatePodTemplateSpec). */
export function validatePodTemplate(field: string, template: PodTemplateSpec | undefined): FieldErrors {
  if (!template) return [fieldError.required(field)];
  return validatePodSpec(`${field}.spec`, template.spec);
}

/**
 * ReplicationController (core/v1). Defaults as SetDefaults_ReplicationController: an empty
 * selector and empty labels take the template's labels, replicas 1. Validation as
 * ValidateReplicationControllerSpec / ValidatePodTemplateSpecForRC.
 */
export const replicationcontrollers = defineResource<ReplicationController>({
  group: '',
  version: 'v1',
  resource: 'replicationcontrollers',
  kind: 'ReplicationController',
  namespaced: true,
  shortNames: ['rc'],
  categories: ['all'],
  subresources: ['status', 'scale'],
  hasStatus: true,
  tracksGeneration: true,
  defaults(rc) {
    rc.spec ??= {};
    const labels = rc.spec.template?.metadata?.labels;
    if (labels && Object.keys(labels).length > 0) {
      if (!rc.spec.selector || Object.keys(rc.spec.selector).length === 0) rc.spec.selector = { ...labels };
      if (!rc.metadata.labels || Object.keys(rc.metadata.labels).length === 0) rc.metadata.labels = { ...labels };
    }
    rc.spec.replicas ??= 1;
    if (rc.spec.template?.spec) defaultPodSpec(rc.spec.template.spec);
  },
  prepareForCreate(rc) {
    rc.status = { replicas: 0 };
  },
  validate(rc) {
    const errs: FieldErrors = [];
    const s = rc.spec ?? {};
    if (s.replicas !== undefined && !(Number.isInteger(s.replicas) && s.replicas >= 0)) {
      errs.push(fieldError.invalid('spec.replicas', s.replicas, 'must be greater than or equal to 0'));
    }
    if ((s.minReadySeconds ?? 0) < 0)
      errs.push(fieldError.invalid('spec.minReadySeconds', s.minReadySeconds, 'must be greater than or equal to 0'));
    const selector = s.selector ?? {};
    if (Object.keys(selector).length === 0) errs.push(fieldError.required('spec.selector'));
    if (!s.template) {
      errs.push(fieldError.required('spec.template'));
      return errs;
    }
    const labels = s.template.metadata?.labels ?? {};
    if (Object.keys(selector).length > 0 && !Object.entries(selector).every(([k, v]) => labels[k] === v)) {
      errs.push(
        fieldError.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'),
      );
    }
    const policy = s.template.spec?.restartPolicy;
    if (policy !== undefined && policy !== 'Always')
      errs.push(fieldError.notSupported('spec.template.spec.restartPolicy', policy, ['Always']));
    if (s.template.spec?.activeDeadlineSeconds !== undefined)
      errs.push(
        fieldError.forbidden(
          'spec.template.spec.activeDeadlineSeconds',
          'activeDeadlineSeconds in ReplicationController is not Supported',
        ),
      );
    errs.push(
      ...validatePodTemplate('spec.template', s.template).filter((e) => e.field !== 'spec.template.spec.restartPolicy'),
    );
    return errs;
  },
  defaultGarbageCollectionPolicy: 'orphan',
});

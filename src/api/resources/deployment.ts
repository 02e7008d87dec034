import { LabelSelector } from '../labels/selector';
import { KubeObject } from '../meta';
import { defineResource } from '../registry';
import { fieldError, FieldErrors, intOrStringValue } from '../validation/field';
import { defaultPodSpec } from './pod';
import { PodTemplateSpec } from './replicationcontroller';
import { nonNegative, validateSelectedTemplate, validateSelectorUnchanged, WorkloadCondition } from './replicaset';

export type IntOrString = number | string;

export interface Deployment extends KubeObject {
  spec: {
    replicas?: number;
    selector: LabelSelector;
    template: PodTemplateSpec;
    strategy?: {
      type?: 'RollingUpdate' | 'Recreate';
      rollingUpdate?: { maxSurge?: IntOrString; maxUnavailable?: IntOrString };
    };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    paused?: boolean;
    progressDeadlineSeconds?: number;
  };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    unavailableReplicas?: number;
    conditions?: WorkloadCondition[];
    collisionCount?: number;
  };
}

const PERCENT = /^[0-9]+%$/;

/** Upstream ValidatePositiveIntOrPercent: a nonnegative integer or "N%". */
export function validateIntOrPercent(field: string, v: IntOrString | undefined): FieldErrors {
  if (v === undefined) return [];
  if (typeof v === 'string')
    return PERCENT.test(v)
      ? []
      : [fieldError.invalid(field, intOrStringValue(v), "must be an integer or percentage (e.g '5%')")];
  return nonNegative(field, v);
}

/** The number an int-or-percent names before scaling (upstream getIntOrPercentValue): "25%" → 25. */
function rawValue(v: IntOrString | undefined): number {
  if (v === undefined) return 0;
  return typeof v === 'string' ? Number.parseInt(v, 10) : v;
}

/**
 * Deployment (apps/v1). Defaults as SetDefaults_Deployment (apps/v1): replicas 1, strategy
 * RollingUpdate with maxUnavailable and maxSurge 25%, revisionHistoryLimit 10,
 * progressDeadlineSeconds 600. Validation as ValidateDeploymentSpec and
 * ValidateRollingUpdateDeployment: maxSurge and maxUnavailable may not both be 0,
 * maxUnavailable at most 100%, Recreate takes no rollingUpdate, the progress deadline
 * exceeds minReadySeconds.
 */
export const deployments = defineResource<Deployment>({
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  kind: 'Deployment',
  namespaced: true,
  shortNames: ['deploy'],
  categories: ['all'],
  subresources: ['status'],
  hasStatus: true,
  tracksGeneration: true,
  defaults(d) {
    const s = d.spec;
    if (!s) return;
    s.replicas ??= 1;
    s.strategy ??= {};
    s.strategy.type ??= 'RollingUpdate';
    if (s.strategy.type === 'RollingUpdate') {
      s.strategy.rollingUpdate ??= {};
      s.strategy.rollingUpdate.maxUnavailable ??= '25%';
      s.strategy.rollingUpdate.maxSurge ??= '25%';
    }
    s.revisionHistoryLimit ??= 10;
    s.progressDeadlineSeconds ??= 600;
    if (s.template?.spec) defaultPodSpec(s.template.spec);
  },
  prepareForCreate(d) {
    d.status = {};
  },
  validate(d) {
    const s = d.spec;
    if (!s) return [fieldError.required('spec')];
    const errs: FieldErrors = [
      ...nonNegative('spec.replicas', s.replicas),
      ...validateSelectedTemplate('Deployment', s.selector, s.template),
      ...nonNegative('spec.revisionHistoryLimit', s.revisionHistoryLimit),
      ...nonNegative('spec.minReadySeconds', s.minReadySeconds),
      ...nonNegative('spec.progressDeadlineSeconds', s.progressDeadlineSeconds),
    ];
    const type = s.strategy?.type;
    const ru = s.strategy?.rollingUpdate;
    if (type !== 'RollingUpdate' && type !== 'Recreate')
      errs.push(fieldError.notSupported('spec.strategy.type', type, ['Recreate', 'RollingUpdate']));
    if (type === 'Recreate' && ru)
      errs.push(
        fieldError.forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'"),
      );
    if (type === 'RollingUpdate' && ru) {
      errs.push(...validateIntOrPercent('spec.strategy.rollingUpdate.maxUnavailable', ru.maxUnavailable));
      errs.push(...validateIntOrPercent('spec.strategy.rollingUpdate.maxSurge', ru.maxSurge));
      if (rawValue(ru.maxUnavailable) === 0 && rawValue(ru.maxSurge) === 0) {
        errs.push(
          fieldError.invalid(
            'spec.strategy.rollingUpdate.maxUnavailable',
            intOrStringValue(ru.maxUnavailable),
            'may not be 0 when `maxSurge` is 0',
          ),
        );
      }
      if (
        typeof ru.maxUnavailable === 'string' &&
        PERCENT.test(ru.maxUnavailable) &&
        rawValue(ru.maxUnavailable) > 100
      ) {
        errs.push(
          fieldError.invalid(
            'spec.strategy.rollingUpdate.maxUnavailable',
            intOrStringValue(ru.maxUnavailable),
            'must not be greater than 100%',
          ),
        );
      }
    }
    if (s.progressDeadlineSeconds !== undefined && s.progressDeadlineSeconds <= (s.minReadySeconds ?? 0)) {
      errs.push(
        fieldError.invalid(
          'spec.progressDeadlineSeconds',
          s.progressDeadlineSeconds,
          'must be greater than minReadySeconds',
        ),
      );
    }
    return errs;
  },
  validateUpdate: (d, old) => validateSelectorUnchanged(d, old),
});

import { KubeObject } from '../meta';
import { LabelSelector, selectorFromLabelSelector } from '../labels/selector';
import { validateLabelSelector } from '../validation/labels';
import { defineResource } from '../registry';
import { fieldError, FieldErrors } from '../validation/field';
import { defaultPodSpec } from './pod';
import { PodTemplateSpec, validatePodTemplate } from './replicationcontroller';

export interface JobCondition {
  type: 'Complete' | 'Failed' | 'Suspended' | 'FailureTarget' | 'SuccessCriteriaMet';
  status: 'True' | 'False' | 'Unknown';
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface Job extends KubeObject {
  spec: {
    parallelism?: number;
    completions?: number;
    backoffLimit?: number;
    activeDeadlineSeconds?: number;
    completionMode?: 'NonIndexed' | 'Indexed';
    suspend?: boolean;
    manualSelector?: boolean;
    selector?: LabelSelector;
    template: PodTemplateSpec;
  };
  status?: {
    active?: number;
    succeeded?: number;
    failed?: number;
    ready?: number;
    startTime?: string;
    completionTime?: string;
    conditions?: JobCondition[];
  };
}

/** The labels a Job's pods carry and its generated selector matches (upstream job strategy). */
export const JOB_CONTROLLER_UID = 'batch.kubernetes.io/controller-uid';
export const JOB_NAME = 'batch.kubernetes.io/job-name';

const NONNEGATIVE = ['parallelism', 'completions', 'backoffLimit'] as const;

/**
 * Job (batch/v1). Defaults as SetDefaults_Job (completions and parallelism 1 when both are
 * unset, backoffLimit 6); the selector is generated from the Job's uid unless
 * manualSelector, labelling the template with the controller uid and the job name (both
 * the legacy `controller-uid`/`job-name` keys and the `batch.kubernetes.io/` ones, as
 * v1.27+ does). Pods of a Job must restart OnFailure or Never.
 */
/**
 * Jobs as a release validates them: from v1.26 (ValidateJobSpec) a defaulted or explicit
 * restartPolicy Always is "Required value: valid values: …"; before, "Unsupported value".
 */
export function jobsResource(requiredRestartPolicy: boolean) {
  return defineResource<Job>({
    group: 'batch',
    version: 'v1',
    resource: 'jobs',
    kind: 'Job',
    namespaced: true,
    categories: ['all'],
    subresources: ['status'],
    hasStatus: true,
    tracksGeneration: true,
    defaults(job) {
      const s = job.spec;
      if (!s) return;
      if (s.completions === undefined && s.parallelism === undefined) s.completions = 1;
      s.parallelism ??= 1;
      s.backoffLimit ??= 6;
      s.completionMode ??= 'NonIndexed';
      s.suspend ??= false;
      if (s.template?.spec) defaultPodSpec(s.template.spec);
    },
    prepareForCreate(job) {
      job.status = {};
      if (job.spec?.manualSelector) return;
      const uid = job.metadata.uid!;
      const name = job.metadata.name!;
      job.spec.selector = { matchLabels: { [JOB_CONTROLLER_UID]: uid } };
      const tmpl = (job.spec.template ??= { spec: { containers: [] } });
      tmpl.metadata = {
        ...tmpl.metadata,
        labels: {
          ...tmpl.metadata?.labels,
          [JOB_CONTROLLER_UID]: uid,
          [JOB_NAME]: name,
          'controller-uid': uid,
          'job-name': name,
        },
      };
    },
    validate(job) {
      const errs: FieldErrors = [];
      const s = job.spec;
      if (!s) return [fieldError.required('spec')];
      for (const f of NONNEGATIVE) {
        const v = s[f];
        if (v !== undefined && !(Number.isInteger(v) && v >= 0))
          errs.push(fieldError.invalid(`spec.${f}`, v, 'must be greater than or equal to 0'));
      }
      if (!s.selector) errs.push(fieldError.required('spec.selector'));
      else {
        for (const e of validateLabelSelector(s.selector, 'spec.selector'))
          errs.push({ reason: 'FieldValueInvalid', field: e.field, message: e.message });
        const labels = s.template?.metadata?.labels ?? {};
        if (!selectorFromLabelSelector(s.selector).matches(labels)) {
          errs.push(
            fieldError.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'),
          );
        }
      }
      const policy = s.template?.spec?.restartPolicy;
      if (requiredRestartPolicy && (policy === 'Always' || !policy))
        errs.push(fieldError.required('spec.template.spec.restartPolicy', 'valid values: "OnFailure", "Never"'));
      else if (policy !== 'OnFailure' && policy !== 'Never')
        errs.push(fieldError.notSupported('spec.template.spec.restartPolicy', policy, ['OnFailure', 'Never']));
      errs.push(
        ...validatePodTemplate('spec.template', s.template).filter(
          (e) => e.field !== 'spec.template.spec.restartPolicy',
        ),
      );
      return errs;
    },
    defaultGarbageCollectionPolicy: 'orphan',
  });
}

export const jobs = jobsResource(false);

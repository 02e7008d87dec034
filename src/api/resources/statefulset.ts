import { LabelSelector } from '../labels/selector';
import { KubeObject } from '../meta';
import { defineResource } from '../registry';
import { fieldError, FieldErrors } from '../validation/field';
import { defaultPodSpec } from './pod';
import { PodTemplateSpec } from './replicationcontroller';
import { nonNegative, validateSelectedTemplate, validateSelectorUnchanged, WorkloadCondition } from './replicaset';

export interface StatefulSet extends KubeObject {
  spec: {
    replicas?: number;
    selector: LabelSelector;
    template: PodTemplateSpec;
    serviceName?: string;
    podManagementPolicy?: 'OrderedReady' | 'Parallel';
    updateStrategy?: { type?: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: { partition?: number } };
    revisionHistoryLimit?: number;
    volumeClaimTemplates?: unknown[];
  };
  status?: {
    observedGeneration?: number;
    replicas: number;
    readyReplicas?: number;
    currentReplicas?: number;
    updatedReplicas?: number;
    currentRevision?: string;
    updateRevision?: string;
    collisionCount?: number;
    conditions?: WorkloadCondition[];
  };
}

/**
 * StatefulSet (apps/v1). Defaults as SetDefaults_StatefulSet (apps/v1): replicas 1,
 * podManagementPolicy OrderedReady, updateStrategy RollingUpdate with partition 0,
 * revisionHistoryLimit 10. Validation as ValidateStatefulSetSpec; only replicas, template,
 * updateStrategy (and, in newer releases, a few more fields) may change.
 */
export const statefulsets = defineResource<StatefulSet>({
  group: 'apps',
  version: 'v1',
  resource: 'statefulsets',
  kind: 'StatefulSet',
  namespaced: true,
  shortNames: ['sts'],
  categories: ['all'],
  subresources: ['status'],
  hasStatus: true,
  tracksGeneration: true,
  defaults(s) {
    const spec = s.spec;
    if (!spec) return;
    spec.replicas ??= 1;
    spec.podManagementPolicy ??= 'OrderedReady';
    spec.updateStrategy ??= {};
    spec.updateStrategy.type ??= 'RollingUpdate';
    if (spec.updateStrategy.type === 'RollingUpdate') {
      spec.updateStrategy.rollingUpdate ??= {};
      spec.updateStrategy.rollingUpdate.partition ??= 0;
    }
    spec.revisionHistoryLimit ??= 10;
    if (spec.template?.spec) defaultPodSpec(spec.template.spec);
  },
  prepareForCreate(s) {
    s.status = { replicas: 0 };
  },
  validate(s) {
    const spec = s.spec;
    if (!spec) return [fieldError.required('spec')];
    const errs: FieldErrors = [
      ...nonNegative('spec.replicas', spec.replicas),
      ...validateSelectedTemplate('StatefulSet', spec.selector, spec.template),
    ];
    const policy = spec.podManagementPolicy;
    if (policy !== 'OrderedReady' && policy !== 'Parallel')
      errs.push(fieldError.notSupported('spec.podManagementPolicy', policy, ['OrderedReady', 'Parallel']));
    const type = spec.updateStrategy?.type;
    if (type !== 'RollingUpdate' && type !== 'OnDelete')
      errs.push(fieldError.notSupported('spec.updateStrategy.type', type, ['OnDelete', 'RollingUpdate']));
    if (type === 'OnDelete' && spec.updateStrategy?.rollingUpdate)
      errs.push(
        fieldError.invalid(
          'spec.updateStrategy.rollingUpdate',
          spec.updateStrategy.rollingUpdate,
          "only allowed for updateStrategy 'RollingUpdate'",
        ),
      );
    errs.push(
      ...nonNegative('spec.updateStrategy.rollingUpdate.partition', spec.updateStrategy?.rollingUpdate?.partition),
    );
    return errs;
  },
  validateUpdate(s, old) {
    const errs = validateSelectorUnchanged(s, old);
    // Upstream ValidateStatefulSetUpdate: everything but replicas, template, updateStrategy (and minReadySeconds, ordinals, PVC policy later) is immutable.
    const strip = (x: StatefulSet) => ({
      ...x.spec,
      replicas: undefined,
      template: undefined,
      updateStrategy: undefined,
    });
    if (JSON.stringify(strip(s)) !== JSON.stringify(strip(old))) {
      errs.push(
        fieldError.forbidden(
          'spec',
          "updates to statefulset spec for fields other than 'replicas', 'template', and 'updateStrategy' are forbidden",
        ),
      );
    }
    return errs;
  },
});

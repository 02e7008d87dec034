import { errors } from '../../api/errors';
import { KubeObject } from '../../api/meta';
import { Scale } from '../../api/resources/replicationcontroller';
import type { SubresourceHandler } from '../apiserver';

interface Scalable extends KubeObject {
  spec: { replicas?: number; selector?: Record<string, string> };
  status?: { replicas?: number };
}

function toScale(obj: Scalable): Scale {
  const selector = Object.entries(obj.spec.selector ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: {
      name: obj.metadata.name,
      namespace: obj.metadata.namespace,
      uid: obj.metadata.uid,
      resourceVersion: obj.metadata.resourceVersion,
      creationTimestamp: obj.metadata.creationTimestamp,
    },
    // autoscaling/v1 ScaleSpec.Replicas is `json:"replicas,omitempty"`: 0 is no field
    // (found on upstream v1.32.13); ScaleStatus.Replicas is always written.
    spec: obj.spec.replicas ? { replicas: obj.spec.replicas } : {},
    status: { replicas: obj.status?.replicas ?? 0, ...(selector ? { selector } : {}) },
  };
}

/**
 * <resource>/scale (autoscaling/v1 Scale, upstream ScaleREST): reads spec.replicas and
 * status.replicas of a set-based selector controller, and writes spec.replicas only.
 */
export const scaleHandler: SubresourceHandler = {
  async get(api, target) {
    return toScale(await api.storage<Scalable>(target).get(target.namespace, target.name!));
  },
  async update(api, target, body, ctx) {
    const scale = body as Scale;
    // An absent spec.replicas is 0, as Go decodes it (and as GET writes 0: omitted).
    const replicas = scale?.spec?.replicas ?? 0;
    if (!(Number.isInteger(replicas) && replicas! >= 0)) {
      throw errors.invalid(
        'Scale',
        target.name!,
        [
          {
            reason: 'FieldValueInvalid',
            field: 'spec.replicas',
            message: `Invalid value: ${replicas}: must be greater than or equal to 0`,
          },
        ],
        'autoscaling',
      );
    }
    const updated = await api.storage<Scalable>(target).guaranteedUpdate(
      target.namespace,
      target.name!,
      (obj) => {
        obj.spec.replicas = replicas;
        return obj;
      },
      { dryRun: ctx.dryRun, expectedResourceVersion: scale.metadata?.resourceVersion },
    );
    return toScale(updated);
  },
};

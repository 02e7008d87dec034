import { errors } from '../../api/errors';
import { KubeObject } from '../../api/meta';
import { Scale } from '../../api/resources/replicationcontroller';
import { SubresourceHandler } from './subresource';

interface Scalable extends KubeObject {
  spec: { replicas?: number; selector?: Record<string, string> };
  status?: { replicas?: number };
}

function toScale(obj: Scalable): Scale {
  const selector = Object.entries(obj.spec.selector ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: obj.metadata.name, namespace: obj.metadata.namespace, uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion, creationTimestamp: obj.metadata.creationTimestamp },
    spec: { replicas: obj.spec.replicas ?? 0 },
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
    const replicas = scale?.spec?.replicas;
    if (!(Number.isInteger(replicas) && replicas! >= 0)) {
      throw errors.invalid('Scale', target.name!, [{ reason: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${replicas}: must be greater than or equal to 0` }], 'autoscaling');
    }
    const updated = await api.storage<Scalable>(target).guaranteedUpdate(target.namespace, target.name!, (obj) => {
      obj.spec.replicas = replicas;
      return obj;
    }, { dryRun: ctx.dryRun, expectedResourceVersion: scale.metadata?.resourceVersion });
    return toScale(updated);
  },
};

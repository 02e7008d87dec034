import { errors } from '../../api/errors';
import { Pod } from '../../api/core';
import { LimitRange } from '../../api/resources/limitrange';
import type { ApiServer } from '../apiserver';
import { AdmissionPlugin } from '../admission';
import { applyDefaults, LIMIT_RANGER_ANNOTATION, validateLimits } from './limits';

/**
 * LimitRanger admission (plugin/pkg/admission/limitranger): on pod creation, defaults
 * from the namespace's LimitRanges (annotated kubernetes.io/limit-ranger), then their
 * min / max / maxLimitRequestRatio for containers and pods; violations are Forbidden, one
 * message as is, several as "[e1, e2]". Updates and subresources are not checked.
 */
export function limitRanger(api: ApiServer): AdmissionPlugin {
  const rangesIn = async (ns: string) => (await api.storage<LimitRange>({ resource: 'limitranges' }).list(ns)).items;
  const applies = (attrs: Parameters<NonNullable<AdmissionPlugin['admit']>>[0]) =>
    attrs.resource.resource === 'pods' &&
    attrs.resource.group === '' &&
    attrs.operation === 'CREATE' &&
    !attrs.subresource &&
    attrs.object &&
    attrs.namespace;
  return {
    name: 'LimitRanger',
    admit(attrs) {
      if (!applies(attrs)) return;
      return (async () => {
        const pod = attrs.object as Pod;
        for (const lr of await rangesIn(attrs.namespace!)) {
          const note = applyDefaults(pod, lr.spec?.limits ?? []);
          if (note) pod.metadata.annotations = { ...pod.metadata.annotations, [LIMIT_RANGER_ANNOTATION]: note };
        }
      })();
    },
    validate(attrs) {
      if (!applies(attrs)) return;
      return (async () => {
        const pod = attrs.object as Pod;
        const errs = (await rangesIn(attrs.namespace!)).flatMap((lr) => validateLimits(pod, lr.spec?.limits ?? []));
        if (errs.length > 0)
          throw errors.forbidden(
            { kind: 'pods', name: pod.metadata.name ?? '' },
            errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`,
          );
      })();
    },
  };
}

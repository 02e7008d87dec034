import { ResourceList } from '../core';
import { KubeObject } from '../meta';
import { defineResource } from '../registry';
import { fieldError, FieldErrors } from '../validation/field';
import { validateResourceList } from './node';

export type LimitType = 'Container' | 'Pod' | 'PersistentVolumeClaim';

export interface LimitRangeItem {
  type: LimitType;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

export interface LimitRange extends KubeObject {
  spec: { limits: LimitRangeItem[] };
}

const LIMIT_TYPES: LimitType[] = ['Container', 'Pod', 'PersistentVolumeClaim'];

/**
 * LimitRange (core/v1). Defaults as SetDefaults_LimitRangeItem, for Container items only:
 * default ← max, then defaultRequest ← default, then defaultRequest ← min, key by key.
 */
export const limitranges = defineResource<LimitRange>({
  group: '',
  version: 'v1',
  resource: 'limitranges',
  kind: 'LimitRange',
  namespaced: true,
  shortNames: ['limits'],
  defaults(lr) {
    for (const item of lr.spec?.limits ?? []) {
      for (const part of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const) {
        for (const [k, v] of Object.entries(item[part] ?? {})) if (typeof v === 'number') item[part]![k] = String(v);
      }
      if (item.type !== 'Container') continue;
      for (const [k, v] of Object.entries(item.max ?? {}))
        if (item.default?.[k] === undefined) item.default = { ...item.default, [k]: v };
      for (const [k, v] of Object.entries(item.default ?? {}))
        if (item.defaultRequest?.[k] === undefined) item.defaultRequest = { ...item.defaultRequest, [k]: v };
      for (const [k, v] of Object.entries(item.min ?? {}))
        if (item.defaultRequest?.[k] === undefined) item.defaultRequest = { ...item.defaultRequest, [k]: v };
    }
  },
  validate(lr) {
    const errs: FieldErrors = [];
    (lr.spec?.limits ?? []).forEach((item, i) => {
      const f = `spec.limits[${i}]`;
      if (!LIMIT_TYPES.includes(item.type)) errs.push(fieldError.notSupported(`${f}.type`, item.type, LIMIT_TYPES));
      for (const part of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const)
        errs.push(...validateResourceList(`${f}.${part}`, item[part]));
    });
    return errs;
  },
});

import { ResourceList } from '../core';
import { KubeObject } from '../meta';
import { defineResource } from '../registry';
import { fieldError, FieldErrors } from '../validation/field';
import { validateResourceList } from './node';

export type QuotaScope = 'Terminating' | 'NotTerminating' | 'BestEffort' | 'NotBestEffort';

export interface ResourceQuota extends KubeObject {
  spec: { hard?: ResourceList; scopes?: QuotaScope[] };
  status?: { hard?: ResourceList; used?: ResourceList };
}

const SCOPES: QuotaScope[] = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort'];

export const resourcequotas = defineResource<ResourceQuota>({
  group: '',
  version: 'v1',
  resource: 'resourcequotas',
  kind: 'ResourceQuota',
  namespaced: true,
  shortNames: ['quota'],
  subresources: ['status'],
  hasStatus: true,
  defaults(q) {
    for (const [k, v] of Object.entries(q.spec?.hard ?? {})) if (typeof v === 'number') q.spec.hard![k] = String(v);
  },
  prepareForCreate(q) {
    q.status = {};
  },
  validate(q) {
    const errs: FieldErrors = [...validateResourceList('spec.hard', q.spec?.hard)];
    (q.spec?.scopes ?? []).forEach((s, i) => {
      if (!SCOPES.includes(s)) errs.push(fieldError.notSupported(`spec.scopes[${i}]`, s, SCOPES));
    });
    return errs;
  },
});

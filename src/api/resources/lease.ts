import { Lease } from '../core';
import { defineResource } from '../registry';
import { fieldError, FieldErrors } from '../validation/field';

export const leases = defineResource<Lease>({
  group: 'coordination.k8s.io',
  version: 'v1',
  resource: 'leases',
  kind: 'Lease',
  namespaced: true,
  validate(lease) {
    const errs: FieldErrors = [];
    const d = lease.spec?.leaseDurationSeconds;
    if (d !== undefined && !(d > 0))
      errs.push(fieldError.invalid('spec.leaseDurationSeconds', d, 'must be greater than 0'));
    return errs;
  },
});

import { Node } from '../core';
import { defineResource } from '../registry';
import { fieldError, FieldErrors } from '../validation/field';
import { Quantity } from '../quantity';

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export function validateResourceList(field: string, list: Record<string, string> | undefined): FieldErrors {
  const errs: FieldErrors = [];
  for (const [name, value] of Object.entries(list ?? {})) {
    try {
      const q = Quantity.parse(String(value));
      if (q.cmp(Quantity.parse('0')) < 0)
        errs.push(fieldError.invalid(`${field}[${name}]`, value, 'must be greater than or equal to 0'));
    } catch (e) {
      errs.push(fieldError.invalid(`${field}[${name}]`, value, (e as Error).message));
    }
  }
  return errs;
}

export const nodes = defineResource<Node>({
  group: '',
  version: 'v1',
  resource: 'nodes',
  kind: 'Node',
  namespaced: false,
  shortNames: ['no'],
  storagePrefix: 'minions',
  subresources: ['status', 'proxy'],
  hasStatus: true,
  validate(node) {
    const errs: FieldErrors = [];
    (node.spec?.taints ?? []).forEach((t, i) => {
      if (!t.key) errs.push(fieldError.required(`spec.taints[${i}].key`));
      if (!EFFECTS.includes(t.effect))
        errs.push(fieldError.notSupported(`spec.taints[${i}].effect`, t.effect, EFFECTS));
    });
    const seen = new Set<string>();
    (node.spec?.taints ?? []).forEach((t, i) => {
      const k = `${t.key}:${t.effect}`;
      if (seen.has(k)) errs.push(fieldError.duplicate(`spec.taints[${i}]`, `${t.key}:${t.effect}`));
      seen.add(k);
    });
    errs.push(...validateResourceList('status.capacity', node.status?.capacity));
    errs.push(...validateResourceList('status.allocatable', node.status?.allocatable));
    return errs;
  },
  validateUpdate(node, old) {
    const errs: FieldErrors = [];
    const oldCIDR = old.spec?.podCIDR;
    if (oldCIDR && node.spec?.podCIDR !== oldCIDR) {
      errs.push(fieldError.forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
    }
    return errs;
  },
  fields(node) {
    return { 'spec.unschedulable': String(node.spec?.unschedulable ?? false) };
  },
});

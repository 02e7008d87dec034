/** Field errors as upstream's field.ErrorList renders them into Status causes. */
import { StatusCause } from '../meta';
import { dns1123LabelErrors, dns1123SubdomainErrors, NameRule, pathSegmentNameErrors } from './names';
export type FieldErrors = StatusCause[];

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined || value === null) return 'null';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export const fieldError = {
  required: (field: string, detail = ''): StatusCause => ({
    reason: 'FieldValueRequired', field, message: `Required value${detail ? `: ${detail}` : ''}`,
  }),
  invalid: (field: string, value: unknown, detail: string): StatusCause => ({
    reason: 'FieldValueInvalid', field, message: `Invalid value: ${show(value)}: ${detail}`,
  }),
  notSupported: (field: string, value: unknown, supported: string[]): StatusCause => ({
    reason: 'FieldValueNotSupported', field,
    message: `Unsupported value: ${show(value)}: supported values: ${supported.map((s) => `"${s}"`).join(', ')}`,
  }),
  duplicate: (field: string, value: unknown): StatusCause => ({
    reason: 'FieldValueDuplicate', field, message: `Duplicate value: ${show(value)}`,
  }),
  forbidden: (field: string, detail: string): StatusCause => ({
    reason: 'FieldValueForbidden', field, message: `Forbidden: ${detail}`,
  }),
};

export function nameErrors(field: string, name: string, rule: NameRule): FieldErrors {
  const errs = rule === 'label' ? dns1123LabelErrors(name) : rule === 'path' ? pathSegmentNameErrors(name) : dns1123SubdomainErrors(name);
  return errs.map((e) => fieldError.invalid(field, name, e));
}

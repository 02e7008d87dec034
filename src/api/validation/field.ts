/** Field errors as upstream's field.ErrorList renders them into Status causes. */
import { StatusCause } from '../meta';
import { dns1123LabelErrors, dns1123SubdomainErrors, NameRule, pathSegmentNameErrors } from './names';
export type FieldErrors = StatusCause[];

/** A value already rendered as Go's field.Error prints it (see intOrStringValue). */
export class GoValue {
  constructor(readonly text: string) {}
}

/**
 * An intstr.IntOrString as a bad value of field.Invalid: its String() has a pointer receiver,
 * so the value is not a fmt.Stringer and ErrorBody falls back to %#v (v1.12 and v1.32 alike):
 * `intstr.IntOrString{Type:0, IntVal:0, StrVal:""}`. Found on upstream v1.32.13.
 */
export function intOrStringValue(v: number | string | undefined): GoValue {
  if (typeof v === 'string') return new GoValue(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`);
  return new GoValue(`intstr.IntOrString{Type:0, IntVal:${v ?? 0}, StrVal:""}`);
}

function show(value: unknown): string {
  if (value instanceof GoValue) return value.text;
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined || value === null) return 'null';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export const fieldError = {
  required: (field: string, detail = ''): StatusCause => ({
    reason: 'FieldValueRequired',
    field,
    message: `Required value${detail ? `: ${detail}` : ''}`,
  }),
  invalid: (field: string, value: unknown, detail: string): StatusCause => ({
    reason: 'FieldValueInvalid',
    field,
    message: `Invalid value: ${show(value)}: ${detail}`,
  }),
  notSupported: (field: string, value: unknown, supported: string[]): StatusCause => ({
    reason: 'FieldValueNotSupported',
    field,
    message: `Unsupported value: ${show(value)}: supported values: ${supported.map((s) => `"${s}"`).join(', ')}`,
  }),
  duplicate: (field: string, value: unknown): StatusCause => ({
    reason: 'FieldValueDuplicate',
    field,
    message: `Duplicate value: ${show(value)}`,
  }),
  forbidden: (field: string, detail: string): StatusCause => ({
    reason: 'FieldValueForbidden',
    field,
    message: `Forbidden: ${detail}`,
  }),
};

export function nameErrors(field: string, name: string, rule: NameRule): FieldErrors {
  const errs =
    rule === 'label'
      ? dns1123LabelErrors(name)
      : rule === 'path'
        ? pathSegmentNameErrors(name)
        : dns1123SubdomainErrors(name);
  return errs.map((e) => fieldError.invalid(field, name, e));
}

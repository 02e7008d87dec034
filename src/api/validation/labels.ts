import type { LabelSelector } from '../labels/selector';
import { labelValueErrors, qualifiedNameErrors } from './names';

/* Validation of labels and label selectors embedded in objects (metav1/validation). */

/** Go's %q for the strings we quote (close enough: JSON escaping). */
function quote(s: string): string {
  return JSON.stringify(s);
}

/**
 * ValidateLabels (metav1 validation): one message per problem, in the form of
 * a field error body (`Invalid value: "k": ...`); the caller supplies the field
 * path (normally metadata.labels).
 */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined | null): string[] {
  const out: string[] = [];
  if (!labels) return out;
  for (const [k, v] of Object.entries(labels)) {
    for (const msg of qualifiedNameErrors(k)) out.push(`Invalid value: ${quote(k)}: ${msg}`);
    if (typeof v !== 'string') {
      out.push(`Invalid value: ${quote(String(v))}: label values must be strings`);
      continue;
    }
    for (const msg of labelValueErrors(v)) out.push(`Invalid value: ${quote(v)}: ${msg}`);
  }
  return out;
}

/** A field error from validateLabelSelector. */
export interface LabelSelectorFieldError {
  field: string;
  message: string;
}

/**
 * ValidateLabelSelector (metav1 validation) for API objects that embed a
 * LabelSelector; `path` is the selector's field path, e.g. `spec.selector`.
 */
export function validateLabelSelector(ls: LabelSelector | undefined | null, path: string): LabelSelectorFieldError[] {
  const errs: LabelSelectorFieldError[] = [];
  if (!ls) return errs;
  (ls.matchExpressions ?? []).forEach((req, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push({
            field: `${p}.values`,
            message: "Required value: must be specified when `operator` is 'In' or 'NotIn'",
          });
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push({
            field: `${p}.values`,
            message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          });
        }
        break;
      default:
        errs.push({
          field: `${p}.operator`,
          message: `Invalid value: ${quote(String(req.operator))}: not a valid selector operator`,
        });
    }
    for (const msg of qualifiedNameErrors(req.key ?? '')) {
      errs.push({ field: `${p}.key`, message: `Invalid value: ${quote(req.key ?? '')}: ${msg}` });
    }
    values.forEach((v, j) => {
      for (const msg of labelValueErrors(v))
        errs.push({ field: `${p}.values[${j}]`, message: `Invalid value: ${quote(v)}: ${msg}` });
    });
  });
  for (const message of validateLabels(ls.matchLabels)) errs.push({ field: `${path}.matchLabels`, message });
  return errs;
}

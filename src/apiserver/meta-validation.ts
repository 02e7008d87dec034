import { ObjectMeta } from '../api/meta';
import { validateLabels } from '../api/labels';
import { fieldError, FieldErrors } from '../api/validation';

/** Checks that apply to every object's metadata (upstream ValidateObjectMeta, in part). */
export function validateObjectMeta(m: ObjectMeta): FieldErrors {
  const errs: FieldErrors = [];
  for (const message of validateLabels(m.labels ?? {})) {
    errs.push({ reason: 'FieldValueInvalid', field: 'metadata.labels', message });
  }
  let annotationBytes = 0;
  for (const [k, v] of Object.entries(m.annotations ?? {})) annotationBytes += k.length + String(v).length;
  if (annotationBytes > 256 * 1024) errs.push(fieldError.tooLong('metadata.annotations', '', 256 * 1024));
  return errs;
}

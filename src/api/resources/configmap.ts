import { KubeObject } from '../meta';
import { defineResource } from '../registry';
import { FieldErrors, fieldError } from '../validation/field';

export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
  /** Values base64-encoded on the wire, as a []byte field. */
  binaryData?: Record<string, string>;
  immutable?: boolean;
}

/** core.MaxSecretSize: the data of a secret or config map together (1 MiB). */
const MAX_SIZE = 1024 * 1024;
const KEY = /^[-._a-zA-Z0-9]+$/;

/** validation.IsConfigMapKey: the messages for a key that cannot be a file name. */
function configMapKeyErrors(key: string): string[] {
  const errs: string[] = [];
  if (key.length > 253) errs.push('must be no more than 253 characters');
  if (!KEY.test(key))
    errs.push(
      `a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    );
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/**
 * ConfigMap (core/v1), served by v1.12 and v1.32 alike: keys must be usable as file names
 * (IsConfigMapKey), a key lives in data or binaryData but not both, and the values together
 * are at most 1 MiB (ValidateConfigMap). The `immutable` field (v1.19+) is stored but not
 * enforced yet.
 */
export const configmaps = defineResource<ConfigMap>({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
  shortNames: ['cm'],
  validate(cm) {
    const errs: FieldErrors = [];
    let size = 0;
    for (const [key, value] of Object.entries(cm.data ?? {})) {
      for (const msg of configMapKeyErrors(key)) errs.push(fieldError.invalid(`data[${key}]`, key, msg));
      if (cm.binaryData && key in cm.binaryData)
        errs.push(fieldError.invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
      size += Buffer.byteLength(String(value), 'utf8');
    }
    for (const [key, value] of Object.entries(cm.binaryData ?? {})) {
      for (const msg of configMapKeyErrors(key)) errs.push(fieldError.invalid(`binaryData[${key}]`, key, msg));
      size += Buffer.from(String(value), 'base64').length;
    }
    if (size > MAX_SIZE)
      errs.push({ reason: 'FieldValueTooLong', field: '', message: `Too long: must have at most ${MAX_SIZE} bytes` });
    return errs;
  },
});

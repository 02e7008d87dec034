import { ObjectMeta } from '../meta';
import { errors } from '../errors';
import { qualifiedNameErrors, dns1123SubdomainErrors } from './names';
import { validateLabels } from './labels';
import { fieldError, FieldErrors } from './field';

/**
 * ObjectMeta as upstream's apimachinery checks it: first decoding (every field of its Go
 * type, 400 otherwise, unknown fields dropped), then ValidateObjectMeta (labels,
 * annotations, ownerReferences, finalizers, generation; 422 otherwise).
 * Upstream: k8s.io/apimachinery/pkg/api/validation/objectmeta.go, metav1 validation.
 */

export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024;
/** Finalizers the API server itself knows (metav1.FinalizerOrphanDependents…, core's "kubernetes"). */
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

type Shape = 'string' | 'int' | 'bool' | 'map[string]string' | '[]string' | '[]OwnerReference' | '[]ManagedFieldsEntry';

const META_FIELDS: Record<string, Shape> = {
  name: 'string',
  generateName: 'string',
  namespace: 'string',
  selfLink: 'string',
  uid: 'string',
  resourceVersion: 'string',
  generation: 'int',
  creationTimestamp: 'string',
  deletionTimestamp: 'string',
  deletionGracePeriodSeconds: 'int',
  labels: 'map[string]string',
  annotations: 'map[string]string',
  ownerReferences: '[]OwnerReference',
  finalizers: '[]string',
  managedFields: '[]ManagedFieldsEntry',
};
const OWNER_FIELDS: Record<string, Shape> = {
  apiVersion: 'string',
  kind: 'string',
  name: 'string',
  uid: 'string',
  controller: 'bool',
  blockOwnerDeletion: 'bool',
};

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

function fits(v: unknown, shape: 'string' | 'int' | 'bool'): boolean {
  if (shape === 'string') return typeof v === 'string';
  if (shape === 'bool') return typeof v === 'boolean';
  return typeof v === 'number' && Number.isSafeInteger(v);
}

/** Go's encoding/json message for a value of the wrong type. */
function wrongType(kind: string, version: string, path: string, v: unknown, goType: string) {
  return errors.badRequest(
    `${kind} in version "${version}" cannot be handled as a ${kind}: json: cannot unmarshal ${jsonType(v)} into Go struct field ${path} of type ${goType}`,
  );
}

/**
 * Decodes metadata in place: null fields are unset (as Go decodes null), wrong types are a
 * 400 naming the field, fields ObjectMeta does not have are dropped.
 */
export function decodeObjectMeta(m: Record<string, unknown>, kind: string, version: string): void {
  for (const k of Object.keys(m)) {
    const v = m[k];
    const shape = META_FIELDS[k];
    if (!shape) {
      delete m[k];
      continue;
    }
    if (v === null || v === undefined) {
      delete m[k];
      continue;
    }
    const path = `ObjectMeta.metadata.${k}`;
    switch (shape) {
      case 'string':
      case 'int':
      case 'bool':
        if (!fits(v, shape)) throw wrongType(kind, version, path, v, shape === 'int' ? 'int64' : shape);
        break;
      case 'map[string]string':
        if (jsonType(v) !== 'object') throw wrongType(kind, version, path, v, 'map[string]string');
        for (const [mk, mv] of Object.entries(v as Record<string, unknown>)) {
          if (mv === null) (v as Record<string, unknown>)[mk] = '';
          else if (typeof mv !== 'string') throw wrongType(kind, version, `${path}[${mk}]`, mv, 'string');
        }
        break;
      case '[]string':
        if (!Array.isArray(v)) throw wrongType(kind, version, path, v, '[]string');
        v.forEach((x, i) => {
          if (typeof x !== 'string') throw wrongType(kind, version, `${path}[${i}]`, x, 'string');
        });
        break;
      case '[]OwnerReference':
        if (!Array.isArray(v)) throw wrongType(kind, version, path, v, '[]v1.OwnerReference');
        v.forEach((ref, i) => {
          if (jsonType(ref) !== 'object') throw wrongType(kind, version, `${path}[${i}]`, ref, 'v1.OwnerReference');
          for (const rk of Object.keys(ref)) {
            const rs = OWNER_FIELDS[rk];
            const rv = ref[rk];
            if (!rs) {
              delete ref[rk];
              continue;
            }
            if (rv === null) {
              delete ref[rk];
              continue;
            }
            if (!fits(rv, rs as 'string' | 'bool'))
              throw wrongType(kind, version, `OwnerReference.metadata.ownerReferences.${rk}`, rv, rs);
          }
        });
        break;
      case '[]ManagedFieldsEntry':
        if (!Array.isArray(v)) throw wrongType(kind, version, path, v, '[]v1.ManagedFieldsEntry');
        v.forEach((e, i) => {
          if (jsonType(e) !== 'object') throw wrongType(kind, version, `${path}[${i}]`, e, 'v1.ManagedFieldsEntry');
        });
        break;
    }
  }
}

/** Checks that apply to every object's metadata (upstream ValidateObjectMeta). */
export function validateObjectMeta(m: ObjectMeta): FieldErrors {
  const errs: FieldErrors = [];
  for (const message of validateLabels(m.labels ?? {})) {
    errs.push({ reason: 'FieldValueInvalid', field: 'metadata.labels', message });
  }
  errs.push(...validateAnnotations(m.annotations ?? {}));
  if (m.generation !== undefined && m.generation < 0)
    errs.push(fieldError.invalid('metadata.generation', m.generation, 'must be greater than or equal to 0'));
  if (m.generateName) {
    const trimmed = m.generateName.replace(/-$/, '');
    if (trimmed && dns1123SubdomainErrors(`${trimmed}a`).length)
      errs.push(
        ...dns1123SubdomainErrors(`${trimmed}a`).map((e) =>
          fieldError.invalid('metadata.generateName', m.generateName, e),
        ),
      );
  }
  errs.push(...validateOwnerReferences(m.ownerReferences ?? []));
  errs.push(...validateFinalizers(m.finalizers ?? []));
  return errs;
}

/** ValidateAnnotations: keys are qualified names (case-insensitive), total size at most 256 KiB. */
export function validateAnnotations(annotations: Record<string, string>): FieldErrors {
  const errs: FieldErrors = [];
  let bytes = 0;
  for (const [k, v] of Object.entries(annotations)) {
    for (const msg of qualifiedNameErrors(k.toLowerCase()))
      errs.push(fieldError.invalid('metadata.annotations', k, msg));
    bytes += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  }
  if (bytes > TOTAL_ANNOTATION_SIZE_LIMIT_B) {
    errs.push({
      reason: 'FieldValueTooLong',
      field: 'metadata.annotations',
      message: `Too long: may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT_B} bytes`,
    });
  }
  return errs;
}

/** ValidateOwnerReferences: apiVersion, kind, name and uid required; no List kinds; one controller at most. */
export function validateOwnerReferences(refs: ObjectMeta['ownerReferences'] & object): FieldErrors {
  const errs: FieldErrors = [];
  let controllers = 0;
  refs.forEach((r, i) => {
    const p = `metadata.ownerReferences[${i}]`;
    if (!r.apiVersion)
      errs.push(fieldError.invalid(`${p}.apiVersion`, r.apiVersion ?? '', 'version must not be empty'));
    if (!r.kind) errs.push(fieldError.invalid(`${p}.kind`, r.kind ?? '', 'kind must not be empty'));
    if (!r.name) errs.push(fieldError.invalid(`${p}.name`, r.name ?? '', 'name must not be empty'));
    if (!r.uid) errs.push(fieldError.invalid(`${p}.uid`, r.uid ?? '', 'uid must not be empty'));
    if (r.kind === 'List')
      errs.push(fieldError.invalid(`${p}.kind`, r.kind, 'List is not a valid kind for an owner reference'));
    if (r.controller) controllers++;
  });
  if (controllers > 1) {
    errs.push(
      fieldError.invalid(
        'metadata.ownerReferences',
        refs
          .filter((r) => r.controller)
          .map((r) => `${r.kind}/${r.name}`)
          .join(', '),
        'Only one reference can have Controller set to true',
      ),
    );
  }
  return errs;
}

/** ValidateFinalizers: qualified names, standard or domain-qualified; orphan and foregroundDeletion exclusive. */
export function validateFinalizers(finalizers: string[]): FieldErrors {
  const errs: FieldErrors = [];
  for (const f of finalizers) {
    const msgs = qualifiedNameErrors(f);
    for (const msg of msgs) errs.push(fieldError.invalid('metadata.finalizers', f, msg));
    if (msgs.length === 0 && !f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      errs.push(
        fieldError.invalid(
          'metadata.finalizers',
          f,
          'name is neither a standard finalizer name nor is it fully qualified',
        ),
      );
    }
  }
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(
      fieldError.invalid(
        'metadata.finalizers',
        finalizers,
        'finalizer orphan and foregroundDeletion cannot be both set',
      ),
    );
  }
  return errs;
}

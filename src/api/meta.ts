/** metav1.ObjectMeta and friends, shaped as Kubernetes shapes them. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: unknown[];
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: T[];
}

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: ListMeta;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/**
 * Deep copy of a JSON-shaped value (objects from caches are frozen: copy before changing),
 * with JSON's rules: undefined and function members dropped (null inside arrays),
 * non-finite numbers null, toJSON honoured. As a JSON round trip, without the string.
 */
export function clone<T>(value: T): T {
  return value === undefined ? value : (copyJson(value) as T);
}

function absent(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

function copyJson(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v === null || typeof v !== 'object') return v;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return JSON.parse(JSON.stringify(v));
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = absent(v[i]) ? null : copyJson(v[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (!absent(x)) out[k] = copyJson(x);
  }
  return out;
}

/**
 * Whether two JSON-shaped values serialize to the same JSON (member order included),
 * without serializing them; top-level members named in `skip` are left out of the comparison.
 */
export function jsonEqual(a: unknown, b: unknown, skip?: readonly string[]): boolean {
  if (a === b) return true;
  if (typeof a === 'number' || typeof b === 'number') return normNumber(a) === normNumber(b);
  if (hasToJSON(a) || hasToJSON(b)) return JSON.stringify(a) === JSON.stringify(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const x = absent(a[i]) ? null : a[i];
      const y = absent(b[i]) ? null : b[i];
      if (!jsonEqual(x, y)) return false;
    }
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  const kb = Object.keys(rb);
  const skipped = (r: Record<string, unknown>, k: string) => absent(r[k]) || skip?.includes(k) === true;
  let j = 0;
  for (const k of ka) {
    if (skipped(ra, k)) continue;
    while (j < kb.length && skipped(rb, kb[j])) j++;
    if (j >= kb.length || kb[j] !== k || !jsonEqual(ra[k], rb[k])) return false;
    j++;
  }
  while (j < kb.length && skipped(rb, kb[j])) j++;
  return j === kb.length;
}

function hasToJSON(v: unknown): boolean {
  return v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function';
}

function normNumber(v: unknown): unknown {
  return typeof v === 'number' && !Number.isFinite(v) ? null : v;
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    // for…in over a plain object or array: its own enumerable members, with no array made.
    for (const k in value) deepFreeze((value as Record<string, unknown>)[k]);
  }
  return value;
}

export function objectKey(obj: { metadata: ObjectMeta }): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name}` : `${name}`;
}

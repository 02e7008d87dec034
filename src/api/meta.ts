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

/** A member JSON leaves out (null in an array): undefined, a function, a symbol. */
export function absent(v: unknown): boolean {
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

/** A value JSON writes through its toJSON (a Date), not member by member. */
export function hasToJSON(v: unknown): boolean {
  return v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function';
}

/** A number as JSON writes it: NaN and the infinities are null. */
export function normNumber(v: unknown): unknown {
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

/**
 * Structural sharing between stored versions: every subtree of `next` (a private copy about
 * to be frozen and stored) that holds exactly what the same place in `prev` (a frozen stored
 * version) holds, members in the same order, is replaced by prev's frozen subtree. The
 * result serializes as `next` did; a write that changes one field of a Pod's status then
 * allocates, freezes and keeps only the path to that field, and the versions held in watch
 * history share the rest. `next` is changed in place; frozen parts of it are left alone.
 * Returns `next`, or `prev` itself when the two are alike and prev is frozen.
 */
export function reuseFrozen<T>(next: T, prev: unknown): T {
  return (shareWith(next, prev) ? prev : next) as T;
}

/** Shares prev's equal subtrees into next; true when next as a whole equals prev (and prev may stand for it). */
function shareWith(next: unknown, prev: unknown): boolean {
  if (next === prev) return true;
  if (next === null || prev === null || typeof next !== 'object' || typeof prev !== 'object') return false;
  // A value with toJSON (a Date) is not compared by its members: never shared.
  if (Object.isFrozen(next) || hasToJSON(next) || hasToJSON(prev)) return false;
  const frozenPrev = Object.isFrozen(prev);
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return false;
    let same = next.length === prev.length;
    const n = Math.min(next.length, prev.length);
    for (let i = 0; i < n; i++) {
      if (shareWith(next[i], prev[i])) {
        if (next[i] !== prev[i]) next[i] = prev[i];
      } else same = false;
    }
    return same && frozenPrev;
  }
  if (Array.isArray(prev)) return false;
  const rn = next as Record<string, unknown>;
  const rp = prev as Record<string, unknown>;
  const kn = Object.keys(rn);
  const kp = Object.keys(rp);
  let same = kn.length === kp.length;
  for (let i = 0; i < kn.length; i++) {
    const k = kn[i];
    if (same && kp[i] !== k) same = false;
    if (!Object.hasOwn(rp, k)) {
      same = false;
      continue;
    }
    if (shareWith(rn[k], rp[k])) {
      if (rn[k] !== rp[k]) rn[k] = rp[k];
    } else same = false;
  }
  return same && frozenPrev;
}

export function objectKey(obj: { metadata: ObjectMeta }): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name}` : `${name}`;
}

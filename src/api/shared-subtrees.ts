import { flatString } from '../util/flat-string';

/*
 * Subtrees shared between stored objects (issue 31). 30 000 pods made from a few templates
 * hold 30 000 copies of the same defaulted containers, security contexts, label maps and
 * specs, each promoted to the old generation and marked by every full collection. Here a
 * stored object, just before it is frozen, gives each of its subtrees that is alike (the
 * same members, in the same order, with the same values) to one kept before the pooled one,
 * frozen and shared; a repeated string (a label value, a node name, an image) is then held
 * by the one subtree that holds it.
 *
 * Sharing never changes what a reader sees: the object is the same JSON, the same value
 * member by member (undefined members, -0 and NaN are never pooled, so they stay where they
 * were), and every part of it is frozen, as before (deepFreeze); the pooled subtree a
 * reader gets from two objects is the same, immutable one (test/api/shared-subtrees.test.ts
 * checks this on generated objects).
 *
 * What is not pooled, because it does not repeat and would only fill the pool: a subtree
 * that holds a uid or an RFC 3339 time (metadata, a Lease's spec, conditions, most of a
 * status), a string longer than MAX_STRING, a subtree whose signature is longer than
 * MAX_SIGNATURE, a value with toJSON (a Date), and anything above such a part. The pool is
 * two generations of POOL_GENERATION signatures: a subtree not met again for that long is
 * forgotten (the objects that hold it keep it), so the pool stays small whatever the churn.
 *
 * The strings of a part that is not pooled are shared too, one at a time (`intern`): a
 * request body is decoded into fresh strings, so every Lease renewal kept in the history
 * held its own "coordination.k8s.io/v1" and holder name, every Event its own "Started
 * container c", and objects written in the same second their own copy of that second's
 * RFC 3339 time. The same two-generation pool holds them (uids, which never repeat, stay out).
 */

/** Longest string a pooled subtree may hold. */
export const MAX_STRING = 128;
/** Longest signature (the subtree's members with its pooled children by number) pooled. */
export const MAX_SIGNATURE = 1024;
/** Signatures per generation of the pool. */
export const POOL_GENERATION = 16_384;

/** Strings per generation of the string pool. */
export const STRING_GENERATION = 16_384;

/** The number of a pooled subtree (not enumerable: no JSON, spread or key list sees it). */
const ID = Symbol('pooled');

let nextId = 1;
let young = new Map<string, object>();
let old = new Map<string, object>();
let youngStrings = new Map<string, string>();
let oldStrings = new Map<string, string>();

/**
 * Freezes `value` deeply, as deepFreeze does, giving each poolable subtree of it to the
 * pooled one alike. Changes `value` in place (a member may now hold a pooled subtree) and
 * returns it, or the pooled value alike when `value` itself is poolable. Frozen parts of
 * `value` (a stored version's, kept by an update) are left as they are.
 */
export function shareSubtrees<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  return child(value) as T;
}

/** Whether a value is a pooled subtree (for tests and figures). */
export function isPooled(value: unknown): boolean {
  return value !== null && typeof value === 'object' && (value as Record<symbol, unknown>)[ID] !== undefined;
}

/** Forgets the pool (a test's fresh start); pooled subtrees stay valid where they are held. */
export function resetPool(): void {
  young = new Map();
  old = new Map();
  youngStrings = new Map();
  oldStrings = new Map();
}

/**
 * The string equal to `s` kept in the pool, in one piece (`s` itself, flattened, when none
 * is). A uid, an RFC 3339 time or a string longer than MAX_STRING is returned as it is: it
 * would only push repeating strings out of the pool (a Lease's renewTime, new with every
 * renewal, filled it; the clock already hands out one string per second or millisecond).
 */
export function intern(s: string): string {
  if (looksUnique(s)) return s;
  let kept = youngStrings.get(s);
  if (kept !== undefined) return kept;
  kept = oldStrings.get(s) ?? (s.length > 12 ? flatString(s) : s);
  if (youngStrings.size >= STRING_GENERATION) {
    oldStrings = youngStrings;
    youngStrings = new Map();
  }
  youngStrings.set(kept, kept);
  return kept;
}

/** The number of signatures pooled now. */
export function poolSize(): number {
  return young.size + old.size;
}

/** The number of strings pooled now. */
export function stringPoolSize(): number {
  return youngStrings.size + oldStrings.size;
}

/** A member's value, pooled or frozen, and whether a signature can name it. */
function child(x: object): object {
  if (Object.isFrozen(x)) return x;
  const proto = Object.getPrototypeOf(x);
  // Plain objects and arrays only (a null-prototype object is not interchangeable with one).
  const plain = Array.isArray(x) || proto === Object.prototype;
  if (!plain || typeof (x as { toJSON?: unknown }).toJSON === 'function') {
    deepFreezeRest(x);
    return x;
  }
  return visit(x as Record<string, unknown>);
}

/**
 * Whether a primitive member may be named in a signature (by its JSON): a string that
 * repeats, a finite number other than -0, a boolean, null. Anything else (undefined, NaN,
 * -0, whose JSON would confuse them with null or 0) keeps its subtree out of the pool.
 */
function poolablePrimitive(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
      return !looksUnique(v);
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'boolean':
      return true;
    case 'object':
      return v === null;
    default:
      return false;
  }
}

/** A uid, an RFC 3339 time or a long text: values that do not repeat from object to object. */
function looksUnique(s: string): boolean {
  const n = s.length;
  if (n > MAX_STRING || isUid(s)) return true;
  return n >= 20 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45 && s.charCodeAt(10) === 84;
}

function isUid(s: string): boolean {
  return s.length === 36 && s.charCodeAt(8) === 45 && s.charCodeAt(13) === 45 && s.charCodeAt(23) === 45;
}

/** A plain object or array not frozen yet: its members first, then itself. */
function visit(node: Record<string, unknown>): object {
  const isArray = Array.isArray(node);
  // The signature: [1 for an array, 0 for an object, then each member (key, value)], a
  // pooled child as [its number] (no primitive reads as an array: no two subtrees share one).
  const parts: unknown[] = [isArray ? 1 : 0];
  let poolable = true;
  const member = (k: string | number) => {
    const v = (node as Record<string | number, unknown>)[k];
    if (v !== null && typeof v === 'object') {
      const c = child(v);
      if (c !== v) (node as Record<string | number, unknown>)[k] = c;
      const id = (c as Record<symbol, number | undefined>)[ID];
      if (id === undefined) poolable = false;
      else if (poolable) parts.push([id]);
    } else {
      // Always written back: two equal strings compare ===, but the pool's is the one to keep.
      if (typeof v === 'string') (node as Record<string | number, unknown>)[k] = intern(v);
      if (!poolablePrimitive(v)) poolable = false;
      else if (poolable) parts.push(v);
    }
  };
  if (isArray) {
    const a = node as unknown as unknown[];
    for (let i = 0; i < a.length; i++) member(i); // a hole reads undefined: not poolable
  } else {
    for (const k of Object.keys(node)) {
      if (poolable) parts.push(k);
      member(k);
    }
  }
  if (!poolable) return Object.freeze(node);
  const signature = JSON.stringify(parts);
  if (signature.length > MAX_SIGNATURE) return Object.freeze(node);
  let pooled = young.get(signature);
  if (pooled === undefined) {
    pooled = old.get(signature);
    if (pooled !== undefined) young.set(signature, pooled);
  }
  if (pooled !== undefined) {
    Object.freeze(node);
    return pooled;
  }
  admit(node, signature);
  return node;
}

/** Makes `node` the pooled subtree for its signature (its strings already interned): numbered, frozen. */
function admit(node: Record<string, unknown>, signature: string): void {
  Object.defineProperty(node, ID, { value: nextId++ });
  Object.freeze(node);
  if (young.size >= POOL_GENERATION) {
    old = young;
    young = new Map();
  }
  young.set(signature, node);
}

/** deepFreeze for a part that is never pooled (a Date, a class instance). */
function deepFreezeRest(value: object): void {
  if (Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const k in value) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== null && typeof v === 'object') deepFreezeRest(v);
  }
}

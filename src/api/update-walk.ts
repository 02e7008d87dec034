import { absent, hasToJSON, jsonEqual, normNumber, reuseFrozen } from './meta';

/*
 * One walk of an update for three rules that each walked the whole object (issue 31). When
 * the API server stores a new version it asks of the object a client sent (ResourceStorage
 * .guaranteedUpdate):
 * - is it the stored version again? Then the write is a no-op and keeps its resourceVersion
 *   (upstream's GuaranteedUpdate compares the encoded bytes): jsonEqual(next, prev);
 * - did anything but metadata and status change? Then metadata.generation grows (the
 *   strategies' PrepareForUpdate): !jsonEqual(next, prev, ['metadata', 'status']);
 * - which of its parts are the stored version's, alike? Those are stored as the stored
 *   version's frozen parts, shared (./meta reuseFrozen).
 * The rules stay written as they are in ./meta; walkUpdate answers all three in one pass
 * over the two objects, and test/api/update-walk.test.ts checks on generated objects that it
 * answers as the three rules do and shares exactly what reuseFrozen shares.
 */

/** The stored parts of metadata and status are not the object's spec. */
export const METADATA_AND_STATUS: readonly string[] = ['metadata', 'status'];

export interface UpdateWalk {
  /** jsonEqual(next, prev): the write changes nothing. */
  same: boolean;
  /** jsonEqual(next, prev, METADATA_AND_STATUS): nothing but metadata and status changed. */
  specSame: boolean;
}

/**
 * Answers the two comparisons of `next` with `prev` and, in the same pass, gives each part
 * of `next` alike to prev's (frozen) to prev's, as reuseFrozen does (`next` is changed in
 * place; next itself is never replaced: a caller that finds `same` keeps prev).
 */
export function walkUpdate(next: object, prev: object): UpdateWalk {
  if (
    next === prev ||
    Object.isFrozen(next) ||
    Array.isArray(next) ||
    Array.isArray(prev) ||
    hasToJSON(next) ||
    hasToJSON(prev)
  ) {
    // Not an object the API stores: the rules themselves.
    const same = jsonEqual(next, prev);
    const specSame = jsonEqual(next, prev, METADATA_AND_STATUS);
    if (!same) reuseFrozen(next, prev);
    return { same, specSame };
  }
  const r = walkObject(next as Record<string, unknown>, prev as Record<string, unknown>, METADATA_AND_STATUS);
  return { same: (r & EQ) !== 0, specSame: (r & EQ_SKIPPING) !== 0 };
}

/** jsonEqual answers yes. */
const EQ = 1;
/** reuseFrozen may put prev in next's place (implies EQ). */
const SAME = 2;
/** jsonEqual with the skip list answers yes (the top level only). */
const EQ_SKIPPING = 4;

/** The walk of one pair of values: which of EQ and SAME hold; next's alike parts given to prev's. */
function walk(n: unknown, p: unknown): number {
  if (n === p) return EQ | SAME;
  if (typeof n === 'number' || typeof p === 'number') return normNumber(n) === normNumber(p) ? EQ : 0;
  if (hasToJSON(n) || hasToJSON(p)) return JSON.stringify(n) === JSON.stringify(p) ? EQ : 0;
  if (n === null || p === null || typeof n !== 'object' || typeof p !== 'object') return 0;
  // A frozen part of next is never shared into (reuseFrozen leaves it alone): compared only.
  if (Object.isFrozen(n)) return jsonEqual(n, p) ? EQ : 0;
  if (Array.isArray(n) || Array.isArray(p)) {
    if (!Array.isArray(n) || !Array.isArray(p)) return 0;
    return walkArray(n, p);
  }
  return walkObject(n as Record<string, unknown>, p as Record<string, unknown>);
}

function walkArray(n: unknown[], p: unknown[]): number {
  let eq = n.length === p.length;
  let same = eq;
  const m = Math.min(n.length, p.length);
  for (let i = 0; i < m; i++) {
    const x = n[i];
    const y = p[i];
    if (x !== y && (absent(x) || absent(y))) {
      // JSON writes an absent element as null; sharing needs the very value.
      same = false;
      if (eq && !jsonEqual(absent(x) ? null : x, absent(y) ? null : y)) eq = false;
      continue;
    }
    const r = walk(x, y);
    // A string too: equal strings compare ===, and prev's copy is the one to keep.
    if (r & SAME) {
      if (x !== y || typeof x === 'string') n[i] = y;
    } else same = false;
    if (!(r & EQ)) eq = false;
  }
  return (eq ? EQ : 0) | (same && Object.isFrozen(p) ? SAME : 0);
}

/**
 * Members are paired by name for sharing (reuseFrozen) and by position, absent members
 * left out, for equality (jsonEqual): the two pairings agree on every pair equality looks
 * at, so one child walk serves both. With `skip`, equality is also answered with those
 * top-level members left out (EQ_SKIPPING).
 */
function walkObject(n: Record<string, unknown>, p: Record<string, unknown>, skip?: readonly string[]): number {
  const kn = Object.keys(n);
  const kp = Object.keys(p);
  let same = kn.length === kp.length;
  let eq = true;
  let eqSkipping = skip !== undefined;
  let j = 0;
  let js = 0;
  const left = (k: string) => absent(p[k]);
  const leftSkipping = (k: string) => absent(p[k]) || skip!.includes(k);
  for (let i = 0; i < kn.length; i++) {
    const k = kn[i];
    if (same && kp[i] !== k) same = false;
    const x = n[k];
    let r = 0;
    if (Object.hasOwn(p, k)) {
      const y = p[k];
      r = walk(x, y);
      // A string too: equal strings compare ===, and prev's copy is the one to keep.
      if (r & SAME) {
        if (x !== y || typeof x === 'string') n[k] = y;
      } else same = false;
    } else same = false;
    if (absent(x)) continue;
    if (eq) {
      while (j < kp.length && left(kp[j])) j++;
      if (j >= kp.length || kp[j] !== k || !(r & EQ)) eq = false;
      j++;
    }
    if (eqSkipping && !skip!.includes(k)) {
      while (js < kp.length && leftSkipping(kp[js])) js++;
      if (js >= kp.length || kp[js] !== k || !(r & EQ)) eqSkipping = false;
      js++;
    }
  }
  if (eq) {
    while (j < kp.length && left(kp[j])) j++;
    eq = j === kp.length;
  }
  if (eqSkipping) {
    while (js < kp.length && leftSkipping(kp[js])) js++;
    eqSkipping = js === kp.length;
  }
  return (eq ? EQ : 0) | (same && Object.isFrozen(p) ? SAME : 0) | (eqSkipping ? EQ_SKIPPING : 0);
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonEqual, reuseFrozen } from '../../src/api/meta';
import { METADATA_AND_STATUS, walkUpdate } from '../../src/api/update-walk';
import { seededRandom } from '../../src/util/random';

/*
 * walkUpdate (src/api/update-walk.ts) is the update path's one walk for three rules written
 * in src/api/meta.ts: jsonEqual(next, prev) (a no-op write), jsonEqual(next, prev,
 * ['metadata', 'status']) (the generation bump) and reuseFrozen(next, prev) (the stored
 * version's parts kept). On generated pairs — a stored version, mostly frozen, and a new
 * object made from it as writers make them (parts kept by reference, copied and edited,
 * members dropped, set undefined, reordered or added, NaN, -0, null, Dates, frozen copies) —
 * it must answer as the two comparisons do and share exactly the parts reuseFrozen shares.
 */

const { tree } = fc.letrec<{ tree: unknown }>((rec) => ({
  tree: fc.oneof(
    { maxDepth: 3, withCrossShrink: true },
    fc.constantFrom<unknown>('a', 'b', '', 0, 1, 30, true, false, null, undefined),
    fc.array(rec('tree'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'name', 'spec', 'status', '0'), rec('tree'), {
      maxKeys: 4,
      noNullPrototype: true,
    }),
  ),
}));

const kubeObject = fc.record(
  {
    metadata: fc.dictionary(fc.constantFrom('name', 'generation', 'labels', 'resourceVersion'), tree, {
      maxKeys: 3,
      noNullPrototype: true,
    }),
    spec: tree,
    status: tree,
    data: tree,
  },
  { requiredKeys: ['metadata'] },
);

type Json = Record<string, unknown> | unknown[];

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !(v instanceof Date);

/** Freezes every part (children first), leaving one part in ten open: a stored version, mostly frozen. */
function freezeMostly(v: unknown, r: () => number): unknown {
  if (!isObject(v)) return v;
  for (const k of Object.keys(v)) freezeMostly((v as Record<string, unknown>)[k], r);
  if (r() < 0.9) Object.freeze(v);
  return v;
}

/** A private copy of the open parts; frozen parts (and Dates) kept by reference, as a writer's clone keeps nothing frozen but a writer may. */
function copyOpen(v: unknown): unknown {
  if (!isObject(v) || Object.isFrozen(v)) return v;
  if (Array.isArray(v)) return v.map(copyOpen);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = copyOpen(v[k]);
  return out;
}

function copyAll(v: unknown): unknown {
  if (!isObject(v)) return v;
  if (Array.isArray(v)) return v.map(copyAll);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = copyAll(v[k]);
  return out;
}

const ODD = [Number.NaN, -0, Number.POSITIVE_INFINITY, null, 0, undefined, () => 1];

/** A new version made from prev as writers make one. */
function derive(prev: unknown, other: unknown, r: () => number): unknown {
  const x = r();
  if (x < 0.25) return Object.isFrozen(prev) || !isObject(prev) ? prev : copyAll(prev);
  if (x < 0.3) return other;
  if (x < 0.35) return ODD[Math.floor(r() * ODD.length)];
  if (x < 0.38) return new Date(0);
  if (x < 0.42 && isObject(prev)) return Object.freeze(copyAll(prev));
  if (!isObject(prev)) return x < 0.7 ? prev : other;
  if (Array.isArray(prev)) {
    const out = prev.map((e, i) => derive(e, Array.isArray(other) ? other[i] : undefined, r));
    if (r() < 0.1) out.push(other);
    if (r() < 0.1) out.pop();
    return out;
  }
  const o = isObject(other) && !Array.isArray(other) ? other : {};
  const entries: [string, unknown][] = [];
  for (const k of Object.keys(prev)) {
    const y = r();
    if (y < 0.1) continue;
    entries.push([k, y < 0.15 ? undefined : derive(prev[k], o[k], r)]);
  }
  for (const k of Object.keys(o)) if (!(k in prev) && r() < 0.3) entries.push([k, o[k]]);
  // A member JSON leaves out, where prev has none: still a no-op.
  if (r() < 0.1) entries.splice(Math.floor(r() * (entries.length + 1)), 0, ['unset', undefined]);
  if (r() < 0.1) entries.reverse();
  return Object.fromEntries(entries);
}

/**
 * The two results share the same parts of prev: at every place either the very same value
 * (a part of prev given to both, or a part both kept), or two open copies alike member by member.
 */
function sameSharing(a: unknown, b: unknown, path: string): void {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return;
  assert.ok(isObject(a) && isObject(b), `${path}: ${String(a)} vs ${String(b)}`);
  assert.ok(!Object.isFrozen(a) && !Object.isFrozen(b), `${path}: shared by one walk only`);
  assert.deepEqual(Object.keys(a), Object.keys(b), path);
  for (const k of Object.keys(a))
    sameSharing((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
}

test('walkUpdate answers as jsonEqual (both ways) and shares what reuseFrozen shares', () => {
  let sameSeen = 0;
  let specOnly = 0;
  fc.assert(
    fc.property(kubeObject, kubeObject, fc.integer(), (prevTree, otherTree, seed) => {
      const r = seededRandom(seed);
      const prev = freezeMostly(prevTree, r) as Record<string, unknown>;
      const next = derive(prev, copyAll(otherTree), r);
      if (!isObject(next) || Array.isArray(next) || next === prev) return;
      const base = copyOpen(next) as Record<string, unknown>;
      const text = JSON.stringify(base);
      // The three rules, as written.
      const a = copyOpen(base) as Record<string, unknown>;
      const same = jsonEqual(a, prev);
      const specSame = jsonEqual(a, prev, METADATA_AND_STATUS);
      const shared = same ? a : reuseFrozen(a, prev);
      // The one walk.
      const b = copyOpen(base) as Record<string, unknown>;
      const w = walkUpdate(b, prev);
      assert.equal(w.same, same, 'no-op');
      assert.equal(w.specSame, specSame, 'generation');
      if (same) sameSeen++;
      if (!same && specSame) specOnly++;
      if (same) return;
      assert.equal(JSON.stringify(b), text);
      sameSharing(shared, b, '');
    }),
    { numRuns: 2000 },
  );
  assert.ok(sameSeen > 20 && specOnly > 20, `both answers drawn often (no-op ${sameSeen}, spec unchanged ${specOnly})`);
});

test('walkUpdate on a Pod status write: a no-op, then a status change that keeps the spec', () => {
  const prev = freezeMostly(
    {
      metadata: { name: 'p', resourceVersion: '7', labels: { app: 'web' } },
      spec: { nodeName: 'n', containers: [{ name: 'c', image: 'pause' }] },
      status: { phase: 'Pending' },
    },
    () => 0,
  ) as Record<string, Record<string, unknown>>;
  const again = copyAll(prev) as typeof prev;
  assert.deepEqual(walkUpdate(again, prev), { same: true, specSame: true });
  const running = copyAll(prev) as typeof prev;
  running.status.phase = 'Running';
  assert.deepEqual(walkUpdate(running, prev), { same: false, specSame: true });
  assert.equal(running.spec, prev.spec, 'the stored spec kept');
  assert.equal(running.metadata, prev.metadata);
  assert.notEqual(running.status, prev.status);
  const rescheduled = copyAll(prev) as typeof prev;
  rescheduled.spec.nodeName = 'm';
  assert.deepEqual(walkUpdate(rescheduled, prev), { same: false, specSame: false });
  assert.equal(rescheduled.spec.containers, prev.spec.containers);
});

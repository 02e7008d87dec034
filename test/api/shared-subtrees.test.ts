import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { clone, deepFreeze } from '../../src/api/meta';
import {
  intern,
  isPooled,
  POOL_GENERATION,
  poolSize,
  resetPool,
  STRING_GENERATION,
  shareSubtrees,
  stringPoolSize,
} from '../../src/api/shared-subtrees';

/*
 * Pooling subtrees (src/api/shared-subtrees.ts) is a way to store objects, not a rule of
 * Kubernetes: it must never change what a reader sees, nor let one object's change reach
 * another. Checked on generated objects drawn from a small vocabulary, so that subtrees
 * repeat between them, with the values a pool could confuse (undefined members, -0, NaN,
 * null, Dates, uids, times, long strings, holes, parts already frozen).
 */

const SMALL_STRINGS = ['a', 'b', 'app', 'web', 'node-1', 'node-12345678901', 'pause', '', '0', 'null', 'true'];
const UNIQUE_STRINGS = ['0f8fad5b-d9cb-469f-a165-70867728950e', '2026-12-05T17:00:00Z', 'x'.repeat(200)];

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SMALL_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(...UNIQUE_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(0, 1, 30, -0, Number.NaN, 1.5) },
  { weight: 2, arbitrary: fc.constantFrom(true, false, null, undefined) },
  { weight: 1, arbitrary: fc.constant('date').map(() => new Date(0)) },
);

const { tree } = fc.letrec<{ tree: unknown }>((rec) => ({
  tree: fc.oneof(
    { maxDepth: 3, withCrossShrink: true },
    leaf,
    fc.array(rec('tree'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'name', 'image', 'spec', '0', '1'), rec('tree'), { maxKeys: 4 }),
  ),
}));

/** Some parts frozen already, as the parts of a stored version an update keeps. */
const object = fc
  .tuple(fc.dictionary(fc.constantFrom('metadata', 'spec', 'status', 'x'), tree), fc.boolean())
  .map(([o, freezeSpec]) => {
    if (freezeSpec && o.spec !== null && typeof o.spec === 'object') deepFreeze(o.spec);
    return o;
  });

function everyPartFrozen(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (!Object.isFrozen(v)) return false;
  return Object.values(v).every(everyPartFrozen);
}

/** A structured copy: keeps undefined members, -0, NaN and Dates as they are (JSON would not). */
function snapshot(v: unknown): unknown {
  return structuredClone(v);
}

test('pooling keeps every object as it was (member by member, not only its JSON) and all of it frozen', () => {
  resetPool();
  fc.assert(
    fc.property(fc.array(object, { minLength: 1, maxLength: 12 }), (objects) => {
      // Frozen parts stay as they are: the snapshot is of the input as given.
      const before = objects.map(snapshot);
      const texts = objects.map((o) => JSON.stringify(o));
      const stored = objects.map((o) => shareSubtrees(o));
      stored.forEach((s, i) => {
        assert.equal(JSON.stringify(s), texts[i]);
        assert.deepStrictEqual(snapshot(s), before[i]);
        assert.ok(everyPartFrozen(s), 'every part frozen');
      });
      // No mutation leaks: a change to a stored object throws (strict mode), so every other
      // object, sharing its subtrees or not, is still as it was.
      for (const s of stored) {
        assert.throws(() => {
          (s as Record<string, unknown>).x = 'changed';
        }, TypeError);
        const spec = (s as Record<string, unknown>).spec;
        if (spec !== null && typeof spec === 'object' && !Array.isArray(spec))
          assert.throws(() => {
            (spec as Record<string, unknown>).a = 'changed';
          }, TypeError);
      }
      for (const [i, s] of stored.entries()) assert.deepStrictEqual(snapshot(s), before[i]);
      // A copy made to change (the update path's clone) is unfrozen and leaves the pool alone.
      const copy = clone(stored[0]) as Record<string, unknown>;
      copy.x = 'changed';
      assert.equal(JSON.stringify(stored[0]), texts[0]);
    }),
    { numRuns: 300 },
  );
});

test('alike subtrees of different objects are one; what does not repeat is not pooled', () => {
  resetPool();
  const pods = Array.from({ length: 50 }, (_, i) => ({
    metadata: {
      name: `pod-${i}`,
      uid: `0f8fad5b-d9cb-469f-a165-${String(i).padStart(12, '0')}`,
      creationTimestamp: '2026-12-05T17:00:00Z',
      labels: { app: 'web' },
    },
    spec: {
      nodeName: `node-${i % 5}`,
      containers: [{ name: 'c', image: 'pause', terminationMessagePath: '/dev/termination-log' }],
      securityContext: {},
    },
    status: { phase: 'Pending' },
  }));
  const stored = pods.map((p) => shareSubtrees(p));
  assert.equal(stored[0].spec.containers, stored[1].spec.containers, 'the defaulted containers, once');
  assert.equal(stored[0].spec.securityContext, stored[49].spec.securityContext);
  assert.equal(stored[0].metadata.labels, stored[1].metadata.labels, 'the label map, once');
  assert.equal(stored[0].spec, stored[5].spec, 'the pods of one node share their spec');
  assert.notEqual(stored[0].spec, stored[1].spec, 'another node, another spec');
  assert.ok(!isPooled(stored[0].metadata), 'metadata holds a uid: never pooled');
  assert.ok(!isPooled(stored[0]), 'nor anything above it');
  assert.equal(stored[0].status, stored[1].status);
  // A frozen stored version's pooled parts are met again when an update keeps them.
  const next = { ...clone(stored[0]), spec: stored[0].spec, status: { phase: 'Running' } };
  const updated = shareSubtrees(next);
  assert.equal(updated.spec, stored[0].spec);
  assert.equal(updated.metadata.labels, stored[0].metadata.labels, 'a copied label map finds the pooled one');
});

test('the pool forgets what it has not met for two generations, and stays bounded', () => {
  resetPool();
  const first = shareSubtrees({ spec: { image: 'kept' } });
  for (let i = 0; i < 3 * POOL_GENERATION; i++) shareSubtrees({ spec: { image: `img-${i}` } });
  assert.ok(poolSize() <= 2 * POOL_GENERATION, `bounded (${poolSize()})`);
  const again = shareSubtrees({ spec: { image: 'kept' } });
  assert.notEqual(again.spec, first.spec, 'forgotten: a new pooled one');
  assert.deepStrictEqual(again, first);
});

test('the strings of parts never pooled are pooled one by one: uids, times and long texts stay out, the pool stays bounded', () => {
  resetPool();
  const uid = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const stored = shareSubtrees({
    apiVersion: 'coordination.k8s.io/v1',
    metadata: { name: 'node-1', uid, creationTimestamp: '2026-12-05T17:00:00Z' },
    spec: { holderIdentity: 'node-1', renewTime: '2026-12-05T17:00:00.000000Z' },
    message: 'x'.repeat(200),
  });
  assert.deepStrictEqual(stored.metadata, { name: 'node-1', uid, creationTimestamp: '2026-12-05T17:00:00Z' });
  // apiVersion, name (twice: one entry), holderIdentity's node-1 again: not the uid, not the
  // times (a renewTime is new with every renewal), not the long text.
  assert.equal(stringPoolSize(), 2);
  assert.equal(intern(uid), uid);
  assert.equal(intern('2026-12-05T17:00:01.000000Z'), '2026-12-05T17:00:01.000000Z');
  assert.equal(stringPoolSize(), 2, 'a uid or a time is never admitted');
  for (let i = 0; i < 3 * STRING_GENERATION; i++) intern(`node-${i}`);
  assert.ok(stringPoolSize() <= 2 * STRING_GENERATION, `bounded (${stringPoolSize()})`);
  resetPool();
  assert.equal(stringPoolSize(), 0);
});

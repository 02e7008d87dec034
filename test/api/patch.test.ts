// Patches: RFC 7386 and RFC 6902 examples, and strategic merge patch vectors from
// apimachinery's strategicpatch/patch_test.go (its MergeItem test type: the
// customStrategicMergePatchTestCaseData of TestCustomStrategicMergePatch, and its error cases)
// plus the built-in kinds' patch metadata.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch } from '../../src/api/patch/json';
import { applyMergePatch } from '../../src/api/patch/merge';
import {
  applyStrategicMergePatch,
  applyStrategicMergePatchWithSchema,
  hasStrategicMergeSchema,
} from '../../src/api/patch/strategic';
import { PatchError, type JsonValue } from '../../src/api/patch/document';
import { type StrategicField, type StrategicSchema } from '../../src/api/patch/schemas';

test('merge patch: RFC 7386 appendix A', () => {
  const cases: [JsonValue, JsonValue, JsonValue][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [target, patch, want] of cases)
    assert.deepEqual(applyMergePatch(target, patch), want, JSON.stringify([target, patch]));
});

test('merge patch on an object: labels and lists', () => {
  const pod = {
    metadata: { name: 'p', labels: { a: '1', b: '2' } },
    spec: { containers: [{ name: 'c', image: 'x' }] },
  };
  const out = applyMergePatch(pod, {
    metadata: { labels: { a: null, c: '3' } },
    spec: { containers: [{ name: 'd' }] },
  });
  assert.deepEqual(out, { metadata: { name: 'p', labels: { b: '2', c: '3' } }, spec: { containers: [{ name: 'd' }] } });
  assert.deepEqual(pod.metadata.labels, { a: '1', b: '2' }, 'input untouched');
  assert.equal(pod.spec.containers.length, 1);
});

test('json patch: RFC 6902 appendix A', () => {
  assert.deepEqual(applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }]), {
    foo: 'bar',
    baz: 'qux',
  });
  assert.deepEqual(applyJsonPatch({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }]), {
    foo: ['bar', 'qux', 'baz'],
  });
  assert.deepEqual(applyJsonPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }]), { foo: 'bar' });
  assert.deepEqual(applyJsonPatch({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }]), {
    foo: ['bar', 'baz'],
  });
  assert.deepEqual(applyJsonPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }]), {
    baz: 'boo',
    foo: 'bar',
  });
  assert.deepEqual(
    applyJsonPatch({ foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } }, [
      { op: 'move', from: '/foo/waldo', path: '/qux/thud' },
    ]),
    { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
  );
  assert.deepEqual(
    applyJsonPatch({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }]),
    { foo: ['all', 'cows', 'eat', 'grass'] },
  );
  assert.deepEqual(
    applyJsonPatch({ baz: 'qux', foo: ['a', 2, 'c'] }, [
      { op: 'test', path: '/baz', value: 'qux' },
      { op: 'test', path: '/foo/1', value: 2 },
    ]),
    { baz: 'qux', foo: ['a', 2, 'c'] },
  );
  assert.throws(() => applyJsonPatch({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]), PatchError);
  assert.deepEqual(applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }]), {
    foo: 'bar',
    child: { grandchild: {} },
  });
  assert.throws(() => applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]), PatchError);
  assert.deepEqual(applyJsonPatch({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }]), {
    '/': 9,
    '~1': 10,
  });
  assert.deepEqual(applyJsonPatch({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }]), {
    foo: ['bar', ['abc', 'def']],
  });
  assert.deepEqual(applyJsonPatch({ a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '/c' }]), {
    a: { b: 1 },
    c: { b: 1 },
  });
  assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }]), { b: 2 });
});

test('json patch errors name the failing operation and leave the input alone', () => {
  const doc = { metadata: { labels: { a: '1' } }, spec: { items: [1, 2, 3] } };
  const fails: [unknown, RegExp][] = [
    [
      [{ op: 'remove', path: '/metadata/annotations' }],
      /operation 0 \(remove at \/metadata\/annotations\) failed: the path does not exist/,
    ],
    [[{ op: 'replace', path: '/spec/nope', value: 1 }], /replace at \/spec\/nope.*does not exist/],
    [[{ op: 'add', path: '/spec/items/9', value: 1 }], /out of bounds/],
    [[{ op: 'add', path: '/x/y', value: 1 }], /parent of the path does not exist/],
    [
      [
        { op: 'add', path: '/a', value: 1 },
        { op: 'test', path: '/a', value: 2 },
      ],
      /operation 1 \(test at \/a\) failed: the value does not match/,
    ],
    [[{ op: 'move', from: '/spec', path: '/spec/x' }], /cannot be moved into one of its children/],
    [[{ op: 'copy', from: '/nope', path: '/x' }], /"from" path does not exist/],
    [[{ op: 'frobnicate', path: '/a' }], /unknown operation/],
    [[{ op: 'add', path: 'a', value: 1 }], /JSON pointer/],
    [{ op: 'add', path: '/a', value: 1 }, /must be an array/],
    [[{ op: 'add', path: '/__proto__/x', value: 1 }], /__proto__/],
  ];
  for (const [ops, re] of fails)
    assert.throws(
      () => applyJsonPatch(doc, ops),
      (e: unknown) => e instanceof PatchError && re.test(e.message),
      JSON.stringify(ops),
    );
  // a failing later operation does not leave earlier ones applied to the input
  assert.deepEqual(doc, { metadata: { labels: { a: '1' } }, spec: { items: [1, 2, 3] } });
  assert.equal(({} as Record<string, unknown>).x, undefined);
  const out = applyJsonPatch(doc, [{ op: 'add', path: '/metadata/labels/b', value: '2' }]);
  assert.deepEqual(out, { metadata: { labels: { a: '1', b: '2' } }, spec: { items: [1, 2, 3] } });
  assert.deepEqual(doc.metadata.labels, { a: '1' });
});

// The MergeItem type of upstream's tests, as a schema.
const MERGE_ITEM: Record<string, StrategicField> = {};
const RETAIN_KEYS_ITEM: Record<string, StrategicField> = {};
Object.assign(MERGE_ITEM, {
  mergingList: { strategy: 'merge', mergeKey: 'name', schema: MERGE_ITEM },
  nonMergingList: { schema: MERGE_ITEM },
  mergingIntList: { strategy: 'merge' },
  mergeItemPtr: { strategy: 'merge', mergeKey: 'name', schema: MERGE_ITEM },
  replacingItem: { strategy: 'replace' },
  retainKeysMap: { retainKeys: true, schema: RETAIN_KEYS_ITEM },
  retainKeysMergingList: { strategy: 'merge', mergeKey: 'name', retainKeys: true, schema: MERGE_ITEM },
});
Object.assign(RETAIN_KEYS_ITEM, {
  mergingIntList: { strategy: 'merge' },
  mergingList: { strategy: 'merge', mergeKey: 'name', schema: MERGE_ITEM },
});
const schema: StrategicSchema = MERGE_ITEM;
const smp = (original: unknown, patch: unknown): JsonValue =>
  applyStrategicMergePatchWithSchema(original, patch, schema);

test('strategic merge patch: upstream MergeItem vectors', () => {
  const cases: [string, JsonValue, JsonValue, JsonValue][] = [
    [
      'unique scalars when merging lists',
      { mergingIntList: [1, 2] },
      { mergingIntList: [2, 3] },
      { mergingIntList: [1, 2, 3] },
    ],
    [
      'delete map from nested map',
      { simpleMap: { key1: 1, key2: 1 } },
      { simpleMap: { $patch: 'delete' } },
      { simpleMap: {} },
    ],
    [
      'delete all items from merging list',
      { mergingList: [{ name: 1 }, { name: 2 }] },
      { mergingList: [{ $patch: 'replace' }] },
      { mergingList: [] },
    ],
    ['merge empty merging lists', { mergingList: [] }, { mergingList: [] }, { mergingList: [] }],
    ['delete all keys from map', { name: 1, value: 1 }, { $patch: 'replace' }, {}],
    ['add key and delete all keys from map', { name: 1, value: 1 }, { other: 'a', $patch: 'replace' }, { other: 'a' }],
    [
      'delete all duplicate entries in a merging list',
      { mergingList: [{ name: 1 }, { name: 1 }, { name: 2, value: 'a' }, { name: 3 }, { name: 3 }] },
      {
        mergingList: [
          { name: 1, $patch: 'delete' },
          { name: 3, $patch: 'delete' },
        ],
      },
      { mergingList: [{ name: 2, value: 'a' }] },
    ],
    [
      'retainKeys map can delete a field when no retainKeys directive present',
      { retainKeysMap: { name: 'foo', value: 'a' } },
      { retainKeysMap: { value: null } },
      { retainKeysMap: { name: 'foo' } },
    ],
    [
      'preserve the order from the patch in a merging list',
      { mergingList: [{ name: 1 }, { name: 2, value: 'b' }, { name: 3 }] },
      {
        mergingList: [
          { name: 3, value: 'c' },
          { name: 1, value: 'a' },
          { name: 2, other: 'x' },
        ],
      },
      {
        mergingList: [
          { name: 3, value: 'c' },
          { name: 1, value: 'a' },
          { name: 2, value: 'b', other: 'x' },
        ],
      },
    ],
    [
      'preserve the order from the patch in a merging list 2',
      { mergingList: [{ name: 1 }, { name: 2, value: 'b' }, { name: 3 }] },
      {
        mergingList: [
          { name: 3, value: 'c' },
          { name: 1, value: 'a' },
        ],
      },
      {
        mergingList: [
          { name: 2, value: 'b' },
          { name: 3, value: 'c' },
          { name: 1, value: 'a' },
        ],
      },
    ],
    [
      'preserve the order from the patch in a merging int list',
      { mergingIntList: [1, 2, 3] },
      { mergingIntList: [3, 1] },
      { mergingIntList: [2, 3, 1] },
    ],
    [
      '$setElementOrder contains item that is not present in the list to be merged',
      { mergingList: [{ name: 1 }, { name: 3 }] },
      {
        '$setElementOrder/mergingList': [{ name: 3 }, { name: 2 }, { name: 1 }],
        mergingList: [
          { name: 3, value: 3 },
          { name: 1, value: 1 },
        ],
      },
      {
        mergingList: [
          { name: 3, value: 3 },
          { name: 1, value: 1 },
        ],
      },
    ],
    [
      '$setElementOrder on an int list',
      { mergingIntList: [1, 3] },
      { '$setElementOrder/mergingIntList': [3, 2, 1] },
      { mergingIntList: [3, 1] },
    ],
    [
      '$deleteFromPrimitiveList of nonexistent item',
      { mergingIntList: [1, 2] },
      { '$deleteFromPrimitiveList/mergingIntList': [3] },
      { mergingIntList: [1, 2] },
    ],
    [
      '$deleteFromPrimitiveList on empty list',
      { mergingIntList: null },
      { '$deleteFromPrimitiveList/mergingIntList': [3] },
      { mergingIntList: null },
    ],
    [
      '$deleteFromPrimitiveList on nonexistent list',
      { foo: ['bar'] },
      { '$deleteFromPrimitiveList/mergingIntList': [3] },
      { foo: ['bar'] },
    ],
    [
      '$deleteFromPrimitiveList with merge strategy',
      { mergingIntList: [1, 2, 3] },
      { '$deleteFromPrimitiveList/mergingIntList': [2] },
      { mergingIntList: [1, 3] },
    ],
    [
      '$deleteFromPrimitiveList without merge strategy',
      { nonMergingIntList: [1, 2, 3] },
      { '$deleteFromPrimitiveList/nonMergingIntList': [2] },
      { nonMergingIntList: [1, 3] },
    ],
    [
      'add and delete items in lists of scalars',
      { mergingIntList: [1, 2, 3] },
      {
        '$setElementOrder/mergingIntList': [1, 2, 4],
        '$deleteFromPrimitiveList/mergingIntList': [3],
        mergingIntList: [4],
      },
      { mergingIntList: [1, 2, 4] },
    ],
    [
      'merge lists of maps (three-way)',
      {
        mergingList: [
          { name: 1, other: 'a' },
          { name: 2, value: 2, other: 'b' },
        ],
      },
      {
        '$setElementOrder/mergingList': [{ name: 4 }, { name: 1 }, { name: 2 }, { name: 3 }],
        mergingList: [
          { name: 4, value: 4 },
          { name: 3, value: 3 },
        ],
      },
      {
        mergingList: [
          { name: 4, value: 4 },
          { name: 1, other: 'a' },
          { name: 2, value: 2, other: 'b' },
          { name: 3, value: 3 },
        ],
      },
    ],
    [
      'nested patch merge with empty list',
      { name: 'hi' },
      { mergingList: [{ name: 'hello' }, { $patch: 'delete', name: 'doesntexist' }] },
      { name: 'hi', mergingList: [{ name: 'hello' }] },
    ],
    [
      'add map and delete map from merging list (three-way)',
      { mergingList: [{ name: 1 }, { name: 2, other: 'b' }, { name: 4, other: 'c' }] },
      {
        '$setElementOrder/mergingList': [{ name: 2 }, { name: 3 }],
        mergingList: [{ name: 3 }, { name: 1, $patch: 'delete' }],
      },
      { mergingList: [{ name: 2, other: 'b' }, { name: 4, other: 'c' }, { name: 3 }] },
    ],
    [
      'add map and delete map from merging list with conflict (three-way)',
      {
        mergingList: [
          { name: 1, other: 'a' },
          { name: 4, other: 'c' },
        ],
      },
      {
        '$setElementOrder/mergingList': [{ name: 2 }, { name: 3 }],
        mergingList: [{ name: 2 }, { name: 3 }, { name: 1, $patch: 'delete' }],
      },
      { mergingList: [{ name: 4, other: 'c' }, { name: 2 }, { name: 3 }] },
    ],
    [
      'retainKeys clears fields missing from the list',
      { retainKeysMap: { name: 'foo', value: 'a', other: 'x' } },
      { retainKeysMap: { $retainKeys: ['name', 'value'], value: 'b' } },
      { retainKeysMap: { name: 'foo', value: 'b' } },
    ],
    [
      'replace strategy replaces a map',
      { replacingItem: { a: 1, b: 2 } },
      { replacingItem: { b: 3 } },
      { replacingItem: { b: 3 } },
    ],
    [
      'non-merging lists are replaced',
      { nonMergingList: [{ name: 1 }, { name: 2 }] },
      { nonMergingList: [{ name: 3 }] },
      { nonMergingList: [{ name: 3 }] },
    ],
    [
      'nulls and directives in new values are dropped',
      {},
      {
        mergeItemPtr: { name: 'a', value: null, mergingList: [{ name: 'x', $patch: 'delete' }] },
        simpleMap: { $patch: 'delete' },
      },
      { mergeItemPtr: { name: 'a', mergingList: [] } },
    ],
    ['a map patch over a scalar replaces it', { name: 'x' }, { name: { a: 1 } }, { name: { a: 1 } }],
    ['null deletes', { name: 'x', value: 'y' }, { value: null, other: null }, { name: 'x' }],
  ];
  for (const [desc, original, patch, want] of cases) assert.deepEqual(smp(original, patch), want, desc);
});

test('strategic merge patch: upstream error cases', () => {
  const errs: [string, JsonValue, JsonValue, RegExp][] = [
    [
      'order in $setElementOrder and patch list must match',
      { mergingList: [{ name: 1 }, { name: 3 }, { name: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }, { name: 3 }],
        mergingList: [
          { name: 3, value: 3 },
          { name: 1, value: 1 },
        ],
      },
      /doesn't match/,
    ],
    [
      'missing merge key',
      { mergingList: [{ name: 1, value: 'a' }] },
      { mergingList: [{ value: 'b' }] },
      /does not contain declared merge key: name/,
    ],
    [
      '$patch: merge in a list',
      { mergingList: [{ name: 1 }] },
      { mergingList: [{ name: 1, $patch: 'merge' }] },
      /merging lists cannot yet be specified/,
    ],
    [
      'unknown $patch in a map',
      { simpleMap: { a: 1 } },
      { simpleMap: { $patch: 'explode' } },
      /unknown patch type: "explode"/,
    ],
    [
      'patch keys outside $retainKeys',
      { retainKeysMap: { name: 'a' } },
      { retainKeysMap: { $retainKeys: ['name'], value: 'b' } },
      /invalid patch format of retainKeys/,
    ],
    ['mixed element types', { mergingIntList: [1] }, { mergingIntList: ['a'] }, /list element types are not identical/],
    ['lists of lists', { mergingIntList: [[1]] }, { mergingIntList: [[2]] }, /lists of lists are not supported/],
    [
      'bad directive prefix',
      { mergingIntList: [1] },
      { '$deleteFromPrimitiveListX/mergingIntList': [1] },
      /invalid patch format of primitive list/,
    ],
  ];
  for (const [desc, original, patch, re] of errs) {
    assert.throws(
      () => smp(original, patch),
      (e: unknown) => e instanceof PatchError && re.test(e.message),
      desc,
    );
  }
  assert.throws(() => applyStrategicMergePatch({}, [1], 'Pod'), PatchError);
  assert.throws(() => applyStrategicMergePatch('x', {}, 'Pod'), PatchError);
});

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web',
    labels: { app: 'web', tier: 'fe' },
    finalizers: ['a/one'],
    ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'rc', uid: 'u1', controller: true }],
  },
  spec: {
    containers: [
      {
        name: 'app',
        image: 'nginx:1',
        ports: [{ containerPort: 80, protocol: 'TCP' }],
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        resources: { requests: { cpu: '100m', memory: '64Mi' } },
      },
      { name: 'sidecar', image: 'busybox' },
    ],
    tolerations: [{ key: 'k1', operator: 'Exists' }],
    volumes: [{ name: 'data', emptyDir: {} }],
  },
  status: {
    phase: 'Pending',
    conditions: [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'False' },
    ],
    containerStatuses: [
      { name: 'app', ready: false },
      { name: 'sidecar', ready: false },
    ],
  },
};

test('strategic merge patch on a Pod: containers, env and ports merge by key', () => {
  const snapshot = JSON.stringify(pod);
  const out = applyStrategicMergePatch(
    pod,
    {
      spec: {
        containers: [
          {
            name: 'app',
            image: 'nginx:2',
            env: [
              { name: 'B', value: '3' },
              { name: 'C', value: '4' },
            ],
            ports: [{ containerPort: 443 }],
          },
        ],
      },
    },
    'Pod',
  ) as typeof pod;
  assert.equal(JSON.stringify(pod), snapshot, 'input untouched');
  assert.deepEqual(
    out.spec.containers.map((c) => c.name),
    ['app', 'sidecar'],
  );
  const app = out.spec.containers[0];
  assert.equal(app.image, 'nginx:2');
  assert.deepEqual(app.env, [
    { name: 'A', value: '1' },
    { name: 'B', value: '3' },
    { name: 'C', value: '4' },
  ]);
  assert.deepEqual(app.ports, [{ containerPort: 443 }, { containerPort: 80, protocol: 'TCP' }]);
  assert.deepEqual(app.resources, { requests: { cpu: '100m', memory: '64Mi' } });
  assert.deepEqual(out.spec.tolerations, pod.spec.tolerations);
});

test('strategic merge patch on a Pod: deletes, replaces and primitive lists', () => {
  const out = applyStrategicMergePatch(
    pod,
    {
      metadata: {
        labels: { tier: null, track: 'canary' },
        finalizers: ['b/two', 'a/one'],
        ownerReferences: [{ uid: 'u1', controller: false }],
      },
      spec: {
        containers: [
          { name: 'sidecar', $patch: 'delete' },
          { name: 'app', env: [{ name: 'A', $patch: 'delete' }] },
        ],
        tolerations: [{ key: 'k2', operator: 'Equal', value: 'v' }],
      },
    },
    'Pod',
  ) as typeof pod;
  assert.deepEqual(out.metadata.labels, { app: 'web', track: 'canary' });
  assert.deepEqual(out.metadata.finalizers, ['b/two', 'a/one']);
  assert.deepEqual(out.metadata.ownerReferences, [
    { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc', uid: 'u1', controller: false },
  ]);
  assert.deepEqual(
    out.spec.containers.map((c) => c.name),
    ['app'],
  );
  assert.deepEqual(out.spec.containers[0].env, [{ name: 'B', value: '2' }]);
  assert.deepEqual(
    out.spec.tolerations,
    [{ key: 'k2', operator: 'Equal', value: 'v' }],
    'tolerations have no merge key: replaced',
  );

  const fin = applyStrategicMergePatch(
    pod,
    { metadata: { '$deleteFromPrimitiveList/finalizers': ['a/one'] } },
    'Pod',
  ) as typeof pod;
  assert.deepEqual(fin.metadata.finalizers, []);
  const added = applyStrategicMergePatch(pod, { metadata: { finalizers: ['z/last'] } }, 'Pod') as typeof pod;
  assert.deepEqual(
    added.metadata.finalizers,
    ['z/last', 'a/one'],
    'patch items come first without $setElementOrder, as upstream',
  );
  const ordered = applyStrategicMergePatch(
    pod,
    { metadata: { '$setElementOrder/finalizers': ['a/one', 'z/last'], finalizers: ['z/last'] } },
    'Pod',
  ) as typeof pod;
  assert.deepEqual(ordered.metadata.finalizers, ['a/one', 'z/last']);

  const reordered = applyStrategicMergePatch(
    pod,
    { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }] } },
    'Pod',
  ) as typeof pod;
  assert.deepEqual(
    reordered.spec.containers.map((c) => c.name),
    ['sidecar', 'app'],
  );

  const replaced = applyStrategicMergePatch(
    pod,
    { spec: { containers: [{ name: 'only', image: 'x' }, { $patch: 'replace' }] } },
    'Pod',
  ) as typeof pod;
  assert.deepEqual(replaced.spec.containers, [{ name: 'only', image: 'x' }]);

  const volumes = applyStrategicMergePatch(
    pod,
    { spec: { volumes: [{ name: 'data', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/d' } }] } },
    'Pod',
  ) as { spec: { volumes: unknown[] } };
  assert.deepEqual(volumes.spec.volumes, [{ name: 'data', hostPath: { path: '/d' } }]);
});

test('strategic merge patch on Pod status: conditions merge by type, containerStatuses replace', () => {
  const out = applyStrategicMergePatch(
    pod,
    {
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [{ name: 'app', ready: true }],
      },
    },
    'Pod',
  ) as typeof pod;
  assert.equal(out.status.phase, 'Running');
  assert.deepEqual(out.status.conditions, [
    { type: 'PodScheduled', status: 'True' },
    { type: 'Ready', status: 'True' },
  ]);
  assert.deepEqual(out.status.containerStatuses, [{ name: 'app', ready: true }]);
});

test('strategic merge patch on other kinds', () => {
  const node = {
    kind: 'Node',
    metadata: { name: 'n1' },
    spec: { taints: [{ key: 'a', effect: 'NoSchedule' }], podCIDRs: ['10.0.0.0/24'] },
    status: {
      conditions: [
        { type: 'Ready', status: 'True', lastHeartbeatTime: 't0' },
        { type: 'MemoryPressure', status: 'False' },
      ],
      addresses: [{ type: 'InternalIP', address: '10.1.1.1' }],
      images: [{ names: ['a'] }],
    },
  };
  const n = applyStrategicMergePatch(
    node,
    {
      spec: { taints: [{ key: 'b', effect: 'NoExecute' }] },
      status: {
        conditions: [{ type: 'Ready', status: 'Unknown', lastHeartbeatTime: 't1' }],
        addresses: [{ type: 'Hostname', address: 'n1' }],
        images: [],
      },
    },
    'Node',
  ) as typeof node;
  assert.deepEqual(n.spec.taints, [{ key: 'b', effect: 'NoExecute' }]);
  assert.deepEqual(n.status.conditions, [
    { type: 'Ready', status: 'Unknown', lastHeartbeatTime: 't1' },
    { type: 'MemoryPressure', status: 'False' },
  ]);
  assert.deepEqual(n.status.addresses, [
    { type: 'Hostname', address: 'n1' },
    { type: 'InternalIP', address: '10.1.1.1' },
  ]);
  assert.deepEqual(n.status.images, []);

  const svc = {
    kind: 'Service',
    metadata: { name: 's' },
    spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }], selector: { app: 'a' } },
  };
  const s = applyStrategicMergePatch(
    svc,
    { spec: { ports: [{ port: 80, targetPort: 9090 }], selector: { app: 'b' } } },
    'Service',
  ) as typeof svc;
  assert.deepEqual(s.spec.ports, [{ port: 80, targetPort: 9090 }, { port: 443 }]);
  assert.deepEqual(s.spec.selector, { app: 'b' });

  const rc = {
    kind: 'ReplicationController',
    metadata: { name: 'rc' },
    spec: {
      replicas: 1,
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i1' }] } },
    },
  };
  const r = applyStrategicMergePatch(
    rc,
    { spec: { replicas: 3, template: { spec: { containers: [{ name: 'd', image: 'i2' }] } } } },
    'ReplicationController',
  ) as typeof rc;
  assert.equal(r.spec.replicas, 3);
  assert.deepEqual(
    r.spec.template.spec.containers.map((c) => c.name),
    ['d', 'c'],
  );
  assert.deepEqual(r.spec.template.metadata.labels, { a: 'b' });

  for (const kind of [
    'Pod',
    'Node',
    'Service',
    'ReplicationController',
    'Job',
    'DaemonSet',
    'Deployment',
    'Endpoints',
    'Namespace',
  ]) {
    assert.ok(hasStrategicMergeSchema(kind), kind);
  }
  assert.ok(!hasStrategicMergeSchema('Widget'));
});

test('unknown kinds fall back to merge-patch semantics for maps and replace for lists', () => {
  const obj = {
    kind: 'Widget',
    metadata: { finalizers: ['a'] },
    spec: { parts: [{ name: 'x' }], opts: { a: 1, b: 2 } },
  };
  const out = applyStrategicMergePatch(
    obj,
    { metadata: { finalizers: ['b'] }, spec: { parts: [{ name: 'y' }], opts: { a: null, c: 3 } } },
    'Widget',
  );
  assert.deepEqual(out, {
    kind: 'Widget',
    metadata: { finalizers: ['b'] },
    spec: { parts: [{ name: 'y' }], opts: { b: 2, c: 3 } },
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configmaps } from '../../../src/api/resources/configmap';

const cm = (o: object) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'd' }, ...o });
const messages = (o: object) => (configmaps.validate?.(cm(o)) ?? []).map((e) => `${e.field}: ${e.message}`);

test('ConfigMap: keys are file names (IsConfigMapKey), in data or binaryData but not both', () => {
  assert.deepEqual(
    messages({ data: { 'a.b_c-1': 'x' }, binaryData: { bin: Buffer.from('y').toString('base64') } }),
    [],
  );
  assert.match(
    messages({ data: { 'a/b': 'x' } })[0],
    /^data\[a\/b\]: Invalid value: "a\/b": a valid config key must consist/,
  );
  assert.deepEqual(messages({ data: { '..': 'x' } }), ['data[..]: Invalid value: "..": must not be \'..\'']);
  assert.deepEqual(messages({ binaryData: { '..x': 'eA==' } }), [
    'binaryData[..x]: Invalid value: "..x": must not start with \'..\'',
  ]);
  assert.deepEqual(messages({ data: { k: 'x' }, binaryData: { k: 'eA==' } }), [
    'data[k]: Invalid value: "k": duplicate of key present in binaryData',
  ]);
});

test('ConfigMap: the values together are at most 1 MiB (binaryData counted decoded)', () => {
  const half = 'x'.repeat(512 * 1024);
  assert.deepEqual(messages({ data: { a: half, b: half } }), []);
  assert.deepEqual(messages({ data: { a: half, b: `${half}x` } }), [': Too long: must have at most 1048576 bytes']);
  const bin = Buffer.alloc(512 * 1024 + 1).toString('base64');
  assert.deepEqual(messages({ data: { a: half }, binaryData: { b: bin } }), [
    ': Too long: must have at most 1048576 bytes',
  ]);
});

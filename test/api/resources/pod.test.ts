import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pod } from '../../../src/api/core';
import {
  podsResource,
  validateOnlyDeletedSchedulingGates,
  validateSchedulingGates,
} from '../../../src/api/resources/pod';

/*
 * Scheduling gates in the pod API (v1.32 pkg/apis/core/validation: validateSchedulingGates,
 * ValidatePodCreate, validateOnlyDeletedSchedulingGates; registry/core/pod strategy.go
 * applySchedulingGatedCondition), with the cases of upstream's TestValidateSchedulingGates and
 * the scheduling-gates cases of TestValidatePodUpdate / TestSchedulingGatedCondition
 * (validation_test.go, strategy_test.go at v1.32).
 */

const gates = (...names: string[]) => names.map((name) => ({ name }));
const fields = (errs: { field?: string; reason?: string }[]) => errs.map((e) => `${e.reason} ${e.field}`);

test('validateSchedulingGates (TestValidateSchedulingGates, v1.32)', () => {
  const cases: [string, { name: string }[] | null, string[]][] = [
    ['nil gates', null, []],
    // IsQualifiedName("") says both "must be non-empty" and the regex error: two Invalid errors.
    [
      'empty string in gates',
      gates('foo', ''),
      ['FieldValueInvalid spec.schedulingGates[1]', 'FieldValueInvalid spec.schedulingGates[1]'],
    ],
    ['legit gates', gates('foo', 'bar'), []],
    ['invalid gates', gates('foo', 'bar/baz/qux'), ['FieldValueInvalid spec.schedulingGates[1]']],
    [
      'duplicated gates (single duplication)',
      gates('foo', 'bar', 'bar'),
      ['FieldValueDuplicate spec.schedulingGates[2]'],
    ],
    [
      'duplicated gates (multiple duplications)',
      gates('foo', 'bar', 'foo', 'baz', 'foo', 'bar'),
      [
        'FieldValueDuplicate spec.schedulingGates[2]',
        'FieldValueDuplicate spec.schedulingGates[4]',
        'FieldValueDuplicate spec.schedulingGates[5]',
      ],
    ],
  ];
  for (const [name, g, want] of cases)
    assert.deepEqual(fields(validateSchedulingGates('spec.schedulingGates', g)), want, name);
});

test('gates may only be removed after creation (TestValidatePodUpdate scheduling-gates cases, v1.32)', () => {
  const f = 'spec.schedulingGates';
  assert.deepEqual(validateOnlyDeletedSchedulingGates(f, gates('foo'), gates('foo', 'bar')), [], 'remove one');
  assert.deepEqual(validateOnlyDeletedSchedulingGates(f, null, gates('foo')), [], 'remove all');
  assert.deepEqual(validateOnlyDeletedSchedulingGates(f, gates('bar', 'foo'), gates('foo', 'bar')), [], 'reorder');
  assert.deepEqual(fields(validateOnlyDeletedSchedulingGates(f, gates('foo', 'baz'), gates('foo'))), [
    'FieldValueForbidden spec.schedulingGates[1].name',
  ]);
  assert.deepEqual(fields(validateOnlyDeletedSchedulingGates(f, gates('foo'), null)), [
    'FieldValueForbidden spec.schedulingGates[0].name',
  ]);
});

const pod = (spec: Partial<Pod['spec']>): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', creationTimestamp: '2020-01-01T00:00:00Z' },
  spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
});

test('a gated pod is created with PodScheduled=False SchedulingGated (TestSchedulingGatedCondition, v1.32)', () => {
  const rt = podsResource({ schedulingGates: true });
  const plain = pod({});
  rt.prepareForCreate!(plain);
  assert.equal(plain.status?.conditions, undefined);
  const gated = pod({ schedulingGates: gates('foo') });
  rt.prepareForCreate!(gated);
  assert.deepEqual(gated.status?.conditions, [
    {
      type: 'PodScheduled',
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime: '2020-01-01T00:00:00Z',
      reason: 'SchedulingGated',
      message: 'Scheduling is blocked due to non-empty scheduling gates',
    },
  ]);
});

test('ValidatePodCreate: nodeName must wait until every gate is cleared (v1.32)', () => {
  const rt = podsResource({ schedulingGates: true });
  assert.deepEqual(fields(rt.validate!(pod({ nodeName: 'n1', schedulingGates: gates('foo') }))), [
    'FieldValueForbidden spec.nodeName',
  ]);
  assert.deepEqual(rt.validate!(pod({ nodeName: 'n1' })), []);
});

test('v1.12 has no spec.schedulingGates: the field is dropped as an unknown one', () => {
  const rt = podsResource({ schedulingGates: false });
  const p = pod({ schedulingGates: gates('foo') });
  rt.defaults!(p);
  rt.prepareForCreate!(p);
  assert.equal(p.spec.schedulingGates, undefined);
  assert.equal(p.status?.conditions, undefined);
});

// ResourceQuota usage and LimitRanger rules, against upstream's admission test vectors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pod } from '../../src/api/core';
import { Quantity } from '../../src/api/quantity';
import { matchesScopes, missingConstraints, prettyPrint, totalUsage, usageOf } from '../../src/quota/usage';
import { applyDefaults, validateLimits } from '../../src/apiserver/admission/limits';
import { LimitRangeItem } from '../../src/api/resources/limitrange';

const PODS = { resource: 'pods', group: '' };

function pod(
  containers: { req?: Record<string, string>; lim?: Record<string, string> }[],
  o: { phase?: 'Succeeded'; deadline?: number; init?: { lim?: Record<string, string> }[] } = {},
): Pod {
  const c = (x: { req?: Record<string, string>; lim?: Record<string, string> }, i: number) => ({
    name: `c${i}`,
    resources: { ...(x.req ? { requests: x.req } : {}), ...(x.lim ? { limits: x.lim } : {}) },
  });
  return {
    metadata: { name: 'p' },
    spec: {
      containers: containers.map(c),
      ...(o.init ? { initContainers: o.init.map((x, i) => ({ ...c(x, i), name: `init${i}` })) } : {}),
      ...(o.deadline !== undefined ? { activeDeadlineSeconds: o.deadline } : {}),
    },
    status: { phase: o.phase ?? 'Pending' },
  };
}

test('pod usage (TestAdmitBelowQuotaLimit): count, pods, cpu and memory under both names', () => {
  const u = usageOf(PODS, pod([{ req: { cpu: '100m', memory: '2Gi' } }]), 0);
  assert.equal(prettyPrint(u), 'count/pods=1,cpu=100m,memory=2Gi,pods=1,requests.cpu=100m,requests.memory=2Gi');
  const used = new Map([
    ['cpu', Quantity.parse('1')],
    ['memory', Quantity.parse('50Gi')],
    ['pods', Quantity.parse('3')],
  ]);
  for (const [k, v] of used) used.set(k, v.add(u.get(k)!));
  assert.equal(prettyPrint(used), 'cpu=1100m,memory=52Gi,pods=4');
});

test('finished pods count only as count/pods (derived: 3 running + 1 Succeeded → pods 3, count/pods 4)', () => {
  const items = [...Array(3)]
    .map(() => ({ rt: PODS, obj: pod([{}]) as Pod }))
    .concat([{ rt: PODS, obj: pod([{}], { phase: 'Succeeded' }) }]);
  assert.equal(prettyPrint(totalUsage(items, ['pods'], undefined, 0)), 'pods=3');
  assert.equal(prettyPrint(totalUsage(items, ['count/pods'], undefined, 0)), 'count/pods=4');
});

test('constraints (TestAdmitEnforceQuotaConstraints): a tracked limit every container must state', () => {
  const p = pod([{ req: { cpu: '100m', memory: '2Gi' }, lim: { cpu: '200m' } }]);
  assert.deepEqual([...missingConstraints(p, ['cpu', 'memory', 'limits.memory'])], [['limits.memory', ['c0']]]);
  assert.deepEqual([...missingConstraints(p, ['pods', 'requests.storage'])], []);
});

test('scopes (TestAdmitBelowTerminatingQuotaLimit): activeDeadlineSeconds makes a pod Terminating', () => {
  assert.equal(matchesScopes(PODS, pod([{}], { deadline: 30 }), ['Terminating']), true);
  assert.equal(matchesScopes(PODS, pod([{}], { deadline: 30 }), ['NotTerminating']), false);
  assert.equal(matchesScopes(PODS, pod([{}]), ['BestEffort']), true);
  assert.equal(matchesScopes({ resource: 'services', group: '' }, { metadata: {} }, ['BestEffort']), false);
});

const container = (o: Partial<LimitRangeItem>): LimitRangeItem => ({ type: 'Container', ...o });
const podItem = (o: Partial<LimitRangeItem>): LimitRangeItem => ({ type: 'Pod', ...o });

test('LimitRanger container bounds (TestPodLimitFunc vectors 1–3)', () => {
  assert.deepEqual(validateLimits(pod([{ req: { cpu: '100m' } }]), [container({ min: { cpu: '50m' } })]), []);
  assert.deepEqual(validateLimits(pod([{ req: { cpu: '40m' } }]), [container({ min: { cpu: '50m' } })]), [
    'minimum cpu usage per Container is 50m, but request is 40m',
  ]);
  assert.deepEqual(validateLimits(pod([{}]), [container({ min: { cpu: '50m' } })]), [
    'minimum cpu usage per Container is 50m.  No request is specified',
  ]);
  assert.deepEqual(
    validateLimits(pod([{ req: { cpu: '500m' }, lim: { cpu: '1' } }]), [container({ max: { cpu: '2' } })]),
    [],
  );
  assert.deepEqual(validateLimits(pod([{ lim: { cpu: '2500m' } }]), [container({ max: { cpu: '2' } })]), [
    'maximum cpu usage per Container is 2, but limit is 2500m',
  ]);
  assert.deepEqual(validateLimits(pod([{}]), [container({ max: { cpu: '2' } })]), [
    'maximum cpu usage per Container is 2.  No limit is specified',
  ]);
  assert.deepEqual(
    validateLimits(pod([{ req: { cpu: '500m' }, lim: { cpu: '750m' } }]), [
      container({ maxLimitRequestRatio: { cpu: '1.5' } }),
    ]),
    [],
  );
  assert.deepEqual(
    validateLimits(pod([{ req: { cpu: '1250m' }, lim: { cpu: '2500m' } }]), [
      container({ maxLimitRequestRatio: { cpu: '1' } }),
    ]),
    ['cpu max limit to request ratio per Container is 1, but provided ratio is 2.000000'],
  );
});

test('LimitRanger pod bounds (TestPodLimitFunc vectors 4–7)', () => {
  assert.deepEqual(
    validateLimits(pod([{ req: { cpu: '75m' } }, { req: { cpu: '75m' } }]), [podItem({ min: { cpu: '100m' } })]),
    [],
  );
  assert.equal(validateLimits(pod([{ req: { cpu: '75m' } }]), [podItem({ min: { cpu: '100m' } })]).length, 1);
  assert.deepEqual(
    validateLimits(pod([{ lim: { cpu: '1' } }, { lim: { cpu: '1' } }]), [podItem({ max: { cpu: '2' } })]),
    [],
  );
  assert.deepEqual(
    validateLimits(pod([{ lim: { cpu: '1' } }, { lim: { cpu: '1' } }, { lim: { cpu: '1' } }]), [
      podItem({ max: { cpu: '2' } }),
    ]),
    ['maximum cpu usage per Pod is 2, but limit is 3'],
  );
  assert.equal(
    validateLimits(pod([{ lim: { memory: '500Mi' } }], { init: [{ lim: { memory: '1.5Gi' } }] }), [
      podItem({ max: { memory: '1Gi' } }),
    ]).length,
    1,
  );
  const three = (r: string, l: string) => pod([0, 1, 2].map(() => ({ req: { memory: r }, lim: { memory: l } })));
  assert.deepEqual(validateLimits(three('300Mi', '450Mi'), [podItem({ maxLimitRequestRatio: { memory: '1.5' } })]), []);
  assert.equal(
    validateLimits(three('250Mi', '500Mi'), [podItem({ maxLimitRequestRatio: { memory: '1.5' } })]).length,
    1,
  );
});

test('LimitRanger defaults (TestPodLimitFuncApplyDefault, TestMergePodResourceRequirements)', () => {
  const items = [container({ default: { cpu: '75m', memory: '10Mi' }, defaultRequest: { cpu: '50m', memory: '5Mi' } })];
  const p = pod([{}], { init: [{}] });
  assert.equal(
    applyDefaults(p, items),
    'LimitRanger plugin set: cpu, memory request for container c0; cpu, memory limit for container c0; cpu, memory request for init container init0; cpu, memory limit for init container init0',
  );
  assert.deepEqual(p.spec.containers[0].resources, {
    requests: { cpu: '50m', memory: '5Mi' },
    limits: { cpu: '75m', memory: '10Mi' },
  });
  const partial = pod([{ lim: { memory: '512Mi' } }]);
  applyDefaults(partial, items);
  assert.deepEqual(partial.spec.containers[0].resources?.limits, { memory: '512Mi', cpu: '75m' });
  const full = pod([{ req: { cpu: '1', memory: '1Gi' }, lim: { cpu: '1', memory: '1Gi' } }]);
  assert.equal(applyDefaults(full, items), '');
});

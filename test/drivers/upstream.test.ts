import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProfile } from '../../src/profile/profile';
import { loadTargetDeclaration } from '../../src/drivers/targets';
import { UpstreamDriver } from '../../src/drivers/upstream';
import { NotApplicableError } from '../../src/drivers/driver';

// The upstream target translates every flag to kube-apiserver's / kube-controller-manager's;
// one the profile carries that has no translation would make *every* scenario not applicable
// (found after leader election added --leader-elect-* to the kubernetes-1.32 profile).
const driver = () =>
  new UpstreamDriver(loadProfile('kubernetes-1.32'), loadTargetDeclaration('upstream'), { binDir: '/nonexistent' });

test("the kubernetes-1.32 profile's own flags all translate to upstream's", () => {
  assert.doesNotThrow(() => driver().configure({}));
});

test("leader election flags pass through; --leader-elect is the scenario's", () => {
  assert.doesNotThrow(() =>
    driver().configure({ 'kube-controller-manager': { 'leader-elect': 'true', 'leader-elect-lease-duration': '15s' } }),
  );
});

test('a flag upstream removed is not applicable, with the reason', () => {
  assert.throws(
    () => driver().configure({ 'kube-controller-manager': { 'pod-eviction-timeout': '5m0s' } }),
    (e) => e instanceof NotApplicableError && /removed/.test(e.message),
  );
});

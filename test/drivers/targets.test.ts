import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTargetDeclaration, unmetFlags } from '../../src/drivers/targets';

test('the shipped target declarations load and name known profiles and flags', () => {
  const k3s = loadTargetDeclaration('k3s');
  assert.equal(k3s.profile, 'kubernetes-1.32');
  assert.equal(k3s.configurableFlags, false);
  assert.equal(k3s.flags['kube-controller-manager']!['node-monitor-grace-period'], '50s');
  assert.equal(k3s.maxScenarioTimeMs, 6 * 60_000);
  assert.equal(loadTargetDeclaration('kube').name, 'kube');
});

test('a flag a fixed target runs with is met by any spelling of the same value', () => {
  const declared = { 'kube-controller-manager': { 'node-monitor-grace-period': '50s', 'node-monitor-period': '5s' } };
  assert.deepEqual(unmetFlags(declared, { 'kube-controller-manager': { 'node-monitor-grace-period': '0m50s' } }), []);
  assert.deepEqual(unmetFlags(declared, { 'kube-controller-manager': { 'node-monitor-grace-period': '40s' } }), [
    '--node-monitor-grace-period=40s (it runs with 50s)',
  ]);
  assert.deepEqual(unmetFlags(declared, { 'kube-controller-manager': { 'pod-eviction-timeout': '5m' } }), [
    '--pod-eviction-timeout=5m (the target does not declare its value)',
  ]);
});

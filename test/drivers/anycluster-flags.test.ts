import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProfile } from '../../src/profile/profile';
import { KubeDriver } from '../../src/drivers/kube';
import { loadTargetDeclaration } from '../../src/drivers/targets';
import { NotApplicableError } from '../../src/drivers/driver';
import { KubeconfigClient } from '../../src/client/kubeconfig';

/** A target with fixed flags: the flags a scenario does not state are the profile's defaults. */

function driver(target: string): KubeDriver {
  const declaration = loadTargetDeclaration(target);
  return new KubeDriver(loadProfile(declaration.profile), declaration, {} as KubeconfigClient);
}

test('a target declared with the profile defaults runs a scenario that states no flag, and one stating the same values', () => {
  const d = driver('targets/kubespec-serve-seed.yaml');
  d.configure({});
  d.configure({ 'kube-controller-manager': { 'node-monitor-grace-period': '0m40s' } });
  assert.throws(
    () => d.configure({ 'kube-controller-manager': { 'node-monitor-grace-period': '20s' } }),
    (e: unknown) =>
      e instanceof NotApplicableError &&
      /node-monitor-grace-period=20s \(it runs with 40s\)/.test((e as Error).message),
  );
});

test('a target declared with another value than the profile default cannot run a scenario assuming the default', () => {
  const d = driver('targets/kubespec-serve-real.yaml');
  assert.throws(
    () => d.configure({}),
    (e: unknown) =>
      e instanceof NotApplicableError && /node-monitor-grace-period=40s \(it runs with 4s\)/.test((e as Error).message),
  );
  // Only the flags that differ (its grace period, and no v1.12 insecure port): stating them is enough.
  d.configure({
    'kube-apiserver': { 'insecure-port': '0' },
    'kube-controller-manager': { 'node-monitor-grace-period': '4s' },
  });
  driver('targets/kubespec-serve-real-defaults.yaml').configure({});
});

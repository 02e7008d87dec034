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
    () => driver().configure({ 'kube-apiserver': { 'insecure-port': '8080' } }),
    (e) => e instanceof NotApplicableError && /removed/.test(e.message),
  );
});

test('--pod-eviction-timeout: not applicable where the profile states it (its effect is expected), passed on to be refused where it does not', async () => {
  const { translateFlags } = await import('../../src/drivers/upstream/flags');
  const own = { 'kube-controller-manager': { 'pod-eviction-timeout': '2m0s' } };
  const seed = loadProfile('seed').flags;
  assert.throws(
    () => translateFlags(own, own, seed),
    (e) => e instanceof NotApplicableError && /removed from kube-controller-manager in v1.27/.test(e.message),
  );
  assert.ok(translateFlags(own, own, loadProfile('kubernetes-1.32').flags).kcm.includes('--pod-eviction-timeout=2m0s'));
  // The seed's own 5m0s, not asked for by the scenario, is left out.
  assert.ok(!translateFlags(seed, {}, seed).kcm.some((f) => f.startsWith('--pod-eviction-timeout')));
});

test('a scenario naming the simulated (or an external) cloud gets our cloud-controller-manager; an in-tree one is not applicable', async () => {
  const { translateFlags } = await import('../../src/drivers/upstream/flags');
  for (const value of ['simulated', 'external'])
    assert.equal(translateFlags({ 'kube-controller-manager': { 'cloud-provider': value } }, {}, {}).cloud, true, value);
  assert.equal(translateFlags({}, {}, {}).cloud, undefined);
  assert.throws(
    () => driver().configure({ 'kube-controller-manager': { 'cloud-provider': 'aws' } }),
    (e) => e instanceof NotApplicableError && /in-tree cloud providers were removed/.test(e.message),
  );
});

test('the target offers a cloud provider only where upstream:build made the cloud-controller-manager', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  assert.equal(driver().capabilities.cloudProvider, false);
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-ccm-test-'));
  try {
    fs.writeFileSync(path.join(bin, 'cloud-controller-manager'), '', { mode: 0o755 });
    const d = new UpstreamDriver(loadProfile('kubernetes-1.32'), loadTargetDeclaration('upstream'), { binDir: bin });
    assert.equal(d.capabilities.cloudProvider, true);
  } finally {
    fs.rmSync(bin, { recursive: true, force: true });
  }
});

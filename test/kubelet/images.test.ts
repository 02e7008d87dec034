import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ImageManager, normalizedReference } from '../../src/kubelet/images';

test('image references name one image whatever the form: Docker Hub, library/, :latest', () => {
  assert.equal(normalizedReference('nginx'), 'docker.io/library/nginx:latest');
  assert.equal(normalizedReference('nginx:1.27'), 'docker.io/library/nginx:1.27');
  assert.equal(normalizedReference('bitnami/redis'), 'docker.io/bitnami/redis:latest');
  assert.equal(normalizedReference('registry.k8s.io/pause:3.9'), 'registry.k8s.io/pause:3.9');
  assert.equal(normalizedReference('localhost:5000/app'), 'localhost:5000/app:latest');
  assert.equal(normalizedReference('nginx@sha256:abc'), 'docker.io/library/nginx@sha256:abc');
});

test('pull policies: Always pulls each time, IfNotPresent once per machine, Never only uses what is there', () => {
  const m = new ImageManager(false);
  const reasons = (image: string, imagePullPolicy: string) =>
    m.ensure({ name: 'c', image, imagePullPolicy }).events.map((e) => `${e.reason}: ${e.message}`);
  assert.deepEqual(reasons('redis:7', 'Never'), [
    'ErrImageNeverPull: Container image "redis:7" is not present with pull policy of Never',
  ]);
  assert.deepEqual(reasons('redis:7', 'IfNotPresent'), [
    'Pulling: pulling image "redis:7"',
    'Pulled: Successfully pulled image "redis:7"',
  ]);
  assert.deepEqual(reasons('docker.io/library/redis:7', 'IfNotPresent'), [
    'Pulled: Container image "docker.io/library/redis:7" already present on machine',
  ]);
  assert.deepEqual(reasons('redis:7', 'Never'), ['Pulled: Container image "redis:7" already present on machine']);
  assert.equal(reasons('redis:7', 'Always')[0], 'Pulling: pulling image "redis:7"');
  assert.match(
    new ImageManager(true).ensure({ name: 'c', image: 'nginx', imagePullPolicy: 'Always' }).events[1].message,
    /^Successfully pulled image "nginx" in 0s \(0s including waiting\)\. Image size: \d+ bytes\.$/,
  );
});

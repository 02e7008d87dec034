import { test } from 'node:test';
import assert from 'node:assert/strict';
import { K3S_IMAGE, NoContainerRuntimeError, requireContainerRuntime, startK3s } from '../../src/drivers/k3s';

test('without a container engine the k3s target says so and points at --target kube', async () => {
  await assert.rejects(
    requireContainerRuntime(async () => {
      throw new Error('Could not find a working container runtime strategy');
    }),
    (e: Error) =>
      e instanceof NoContainerRuntimeError &&
      e.message ===
        'no container runtime reachable: Could not find a working container runtime strategy; use --target kube --kubeconfig <file> to judge a cluster you started yourself',
  );
});

test('with an engine, k3s starts from the pinned image and its kubeconfig is handed over', async () => {
  const started: string[] = [];
  const running = await startK3s({
    probe: async () => ({}),
    starter: async (image) => {
      started.push(image);
      return { kubeconfig: 'apiVersion: v1\nkind: Config\n', stop: async () => undefined };
    },
  });
  assert.deepEqual(started, [K3S_IMAGE]);
  assert.match(running.kubeconfig, /kind: Config/);
});

test('the engine is checked before anything is started', async () => {
  let starts = 0;
  await assert.rejects(
    startK3s({
      probe: async () => {
        throw new Error('no socket');
      },
      starter: async () => {
        starts++;
        return { kubeconfig: '', stop: async () => undefined };
      },
    }),
    NoContainerRuntimeError,
  );
  assert.equal(starts, 0);
});

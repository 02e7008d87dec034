import { Given, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { Pod } from '../src/api/core';
import { isStatusError } from '../src/api/errors';
import { KubeWorld } from './world';
import { step } from './support';

/** Shared pod vocabulary: pods placed on nodes directly, their phase, where they run. */

const pods = (namespace: string) => ({ resource: 'pods', namespace });

export function podManifest(
  name: string,
  namespace: string,
  spec: Partial<Pod['spec']> = {},
  labels?: Record<string, string>,
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, ...(labels ? { labels } : {}) },
    spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9' }], ...spec },
  };
}

export async function getPod(world: KubeWorld, name: string, namespace = 'default'): Promise<Pod | undefined> {
  const cluster = await world.cluster();
  try {
    return await cluster.client.get<Pod>(pods(namespace), name);
  } catch (e) {
    if (isStatusError(e, 'NotFound')) return undefined;
    throw e;
  }
}

/** Creates a pod bound to a node (no scheduler involved) and waits until it runs there. */
export async function runPodOn(
  world: KubeWorld,
  name: string,
  node: string,
  namespace = 'default',
  spec: Partial<Pod['spec']> = {},
  labels?: Record<string, string>,
): Promise<void> {
  const cluster = await world.cluster();
  await cluster.client.create(pods(namespace), podManifest(name, namespace, { ...spec, nodeName: node }, labels));
  await cluster.waitFor(
    `pod ${namespace}/${name} to run on ${node}`,
    async () => (await getPod(world, name, namespace))?.status?.phase === 'Running',
    60_000,
  );
}

Given(
  'a pod {string}{in-namespace} running on node {node}',
  step(async function (this: KubeWorld, name: string, namespace: string, node: string) {
    await runPodOn(this, name, node, namespace);
  }),
);

Given(
  '{int} pod(s) running on node {node}',
  step(async function (this: KubeWorld, count: number, node: string) {
    for (let i = 1; i <= Number(count); i++) await runPodOn(this, `${node}-pod-${i}`, node);
  }),
);

When(
  'I create a pod {string}{in-namespace}',
  step(async function (this: KubeWorld, name: string, ns: string) {
    const cluster = await this.cluster();
    await cluster.client.create(pods(ns), podManifest(name, ns));
  }),
);

When(
  'I create {int} pods whose names start with {string}',
  step(async function (this: KubeWorld, count: number, prefix: string) {
    const cluster = await this.cluster();
    for (let i = 1; i <= count; i++)
      await cluster.client.create(pods('default'), podManifest(`${prefix}${i}`, 'default'));
  }),
);

Then(
  'pod {string}{in-namespace} is Running on node {node}',
  step(async function (this: KubeWorld, name: string, namespace: string, node: string) {
    const pod = await getPod(this, name, namespace);
    expect(pod, `pod ${name} exists`).to.not.equal(undefined);
    expect(pod!.spec.nodeName).to.equal(node);
    expect(pod!.status?.phase).to.equal('Running');
  }),
);

Then(
  'pod {string}{in-namespace} is {phase}',
  step(async function (this: KubeWorld, name: string, namespace: string, phase: string) {
    const pod = await getPod(this, name, namespace);
    expect(pod, `pod ${name} exists`).to.not.equal(undefined);
    expect(pod!.status?.phase).to.equal(phase);
  }),
);

for (const [state, terminating] of [
  ['Terminating', true],
  ['not Terminating', false],
] as const) {
  Then(
    `pod {string}{in-namespace} is ${state}`,
    step(async function (this: KubeWorld, name: string, namespace: string) {
      const pod = await getPod(this, name, namespace);
      expect(pod, `pod ${name} exists`).to.not.equal(undefined);
      if (terminating) expect(pod!.metadata.deletionTimestamp, 'deletionTimestamp').to.be.a('string');
      else expect(pod!.metadata.deletionTimestamp, 'deletionTimestamp').to.equal(undefined);
    }),
  );
}

for (const gone of ['is gone', 'no longer exists']) {
  Then(
    `pod {string}{in-namespace} ${gone}`,
    step(async function (this: KubeWorld, name: string, namespace: string) {
      expect(await getPod(this, name, namespace), `pod ${name}`).to.equal(undefined);
    }),
  );
}

Then(
  'node {node} runs {int} pod(s)',
  step(async function (this: KubeWorld, node: string, count: number) {
    const cluster = await this.cluster();
    const list = await cluster.client.list<Pod>({ resource: 'pods' }, { fieldSelector: `spec.nodeName=${node}` });
    const live = list.items.filter((p) => !p.metadata.deletionTimestamp);
    expect(
      live.map((p) => p.metadata.name),
      `pods on ${node}`,
    ).to.have.length(Number(count));
  }),
);

/**
 * API-CACHE: components act on watch events, not on a polling period: the pod is bound
 * (PodScheduled) and started (status.startTime) in the same second of cluster time it was
 * created in. A component that polled, even every second, would show a later time.
 */
Then(
  'pod {string}{in-namespace} was scheduled and started in the second it was created',
  step(async function (this: KubeWorld, name: string, namespace: string) {
    const cluster = await this.cluster();
    const pod = await cluster.client.get<Pod>(pods(namespace), name);
    const created = pod.metadata.creationTimestamp;
    const scheduled = pod.status?.conditions?.find(
      (c) => c.type === 'PodScheduled' && c.status === 'True',
    )?.lastTransitionTime;
    expect(scheduled, 'PodScheduled=True transition').to.equal(created);
    expect(pod.status?.startTime, 'status.startTime').to.equal(created);
  }),
);

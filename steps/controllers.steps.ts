import { DataTable, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { Pod } from '../src/api/core';
import { KubeObject } from '../src/api/meta';
import { isStatusError } from '../src/api/errors';
import { NotApplicableError } from '../src/drivers';
import { KubeWorld } from './world';
import { advanceUntil, latestOnceAllKnown, step } from './support';
import { fieldAt, refFor, showField } from './objects';

/** Controller vocabulary: pods a replication controller or job owns, scaling, relabelling, binding. */

async function owner(world: KubeWorld, kind: string, name: string, namespace: string): Promise<KubeObject> {
  const cluster = await world.cluster();
  const { ref } = refFor(kind, namespace);
  return cluster.client.get(ref, name);
}

/** Pods whose controller reference names the object, active ones only unless asked. */
async function ownedPods(world: KubeWorld, kind: string, name: string, namespace: string, all = false): Promise<Pod[]> {
  const cluster = await world.cluster();
  const o = await owner(world, kind, name, namespace);
  const list = await cluster.client.list<Pod>({ resource: 'pods', namespace: namespace });
  return list.items
    .filter((p) => p.metadata.ownerReferences?.some((r) => r.controller && r.uid === o.metadata.uid))
    .filter(
      (p) => all || (!p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed'),
    );
}

async function podsLabelled(world: KubeWorld, selector: string, namespace: string): Promise<Pod[]> {
  const cluster = await world.cluster();
  const list = await cluster.client.list<Pod>({ resource: 'pods', namespace: namespace }, { labelSelector: selector });
  return list.items.filter((p) => !p.metadata.deletionTimestamp);
}

Then(
  '{controller} {string}{in-namespace} controls {int} active pod(s)',
  step(async function (this: KubeWorld, kind: string, name: string, ns: string, count: number) {
    const pods = await ownedPods(this, kind, name, ns);
    expect(
      pods.map((p) => p.metadata.name),
      `active pods of ${kind} ${name}`,
    ).to.have.length(Number(count));
  }),
);

Then(
  'every pod of {controller} {string}{in-namespace} has:',
  step(async function (this: KubeWorld, kind: string, name: string, ns: string, table: DataTable) {
    const pods = await ownedPods(this, kind, name, ns, true);
    expect(pods, `pods of ${kind} ${name}`).to.not.be.empty;
    for (const pod of pods) {
      for (const [path, expected] of table.raw())
        expect(showField(fieldAt(pod, path)), `pod ${pod.metadata.name}: ${path}`).to.equal(expected);
    }
  }),
);

Then(
  '{int} pod(s) of {controller} {string}{in-namespace} has/have {word} {string}',
  step(async function (
    this: KubeWorld,
    count: number,
    kind: string,
    name: string,
    ns: string,
    path: string,
    value: string,
  ) {
    const pods = await ownedPods(this, kind, name, ns, true);
    expect(
      pods.filter((p) => showField(fieldAt(p, path)) === value).map((p) => p.metadata.name),
      `pods of ${kind} ${name} with ${path}=${value}`,
    ).to.have.length(Number(count));
  }),
);

When(
  'the pods of {controller} {string}{in-namespace} are bound to node {node}',
  step(async function (this: KubeWorld, kind: string, name: string, ns: string, node: string) {
    const cluster = await this.cluster();
    for (const pod of await ownedPods(this, kind, name, ns)) {
      if (pod.spec.nodeName) continue; // a scheduler may have placed it already
      await cluster.client.createSubresource(
        { resource: 'pods', namespace: pod.metadata.namespace },
        pod.metadata.name!,
        'binding',
        {
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name: pod.metadata.name },
          target: { apiVersion: 'v1', kind: 'Node', name: node },
        },
      );
    }
  }),
);

When(
  'I delete {int} pod(s) of {controller} {string}{in-namespace}',
  step(async function (this: KubeWorld, count: number, kind: string, name: string, ns: string) {
    const cluster = await this.cluster();
    const pods = (await ownedPods(this, kind, name, ns)).sort((a, b) =>
      a.metadata.name!.localeCompare(b.metadata.name!),
    );
    expect(pods.length, `pods of ${kind} ${name}`).to.be.at.least(Number(count));
    for (const pod of pods.slice(0, Number(count)))
      await cluster.client.delete({ resource: 'pods', namespace: pod.metadata.namespace }, pod.metadata.name!);
  }),
);

When(
  'I relabel {int} pod(s) of {controller} {string}{in-namespace} to {string}',
  step(async function (this: KubeWorld, count: number, kind: string, name: string, ns: string, label: string) {
    const [key, value, ...rest] = label.split('=');
    if (!key || value === undefined || rest.length) throw new Error(`"${label}" is not a label (want "key=value")`);
    const cluster = await this.cluster();
    const pods = (await ownedPods(this, kind, name, ns)).sort((a, b) =>
      a.metadata.name!.localeCompare(b.metadata.name!),
    );
    for (const pod of pods.slice(0, Number(count)))
      await cluster.client.patch({ resource: 'pods', namespace: pod.metadata.namespace }, pod.metadata.name!, 'merge', {
        metadata: { labels: { [key]: value } },
      });
  }),
);

When(
  'I scale {controller} {string}{in-namespace} to {int}( replicas)',
  step(async function (this: KubeWorld, kind: string, name: string, ns: string, replicas: number) {
    const cluster = await this.cluster();
    const { ref } = refFor(kind, ns);
    // Read-modify-write, retried on a conflict as kubectl scale does (ScaleWithRetries): on a
    // real cluster the controller updates the status between the read and the write.
    for (let attempt = 1; ; attempt++) {
      const scale = await cluster.client.get(ref, name, { subresource: 'scale' });
      try {
        await cluster.client.update(ref, { ...scale, spec: { replicas: Number(replicas) } } as KubeObject, {
          subresource: 'scale',
        });
        return;
      } catch (e) {
        if (!isStatusError(e, 'Conflict') || attempt >= 5) throw e;
      }
    }
  }),
);

Then(
  'the scale of {controller} {string}{in-namespace} has:',
  step(async function (this: KubeWorld, kind: string, name: string, ns: string, table: DataTable) {
    const cluster = await this.cluster();
    const { ref } = refFor(kind, ns);
    const scale = await cluster.client.get(ref, name, { subresource: 'scale' });
    for (const [path, expected] of table.raw())
      expect(showField(fieldAt(scale, path)), `scale ${name}: ${path}`).to.equal(expected);
  }),
);

Then(
  '{int} pod(s){in-namespace} are/is labelled {string}',
  step(async function (this: KubeWorld, count: number, ns: string, selector: string) {
    const pods = await podsLabelled(this, selector, ns);
    expect(
      pods.map((p) => p.metadata.name),
      `pods labelled ${selector}`,
    ).to.have.length(Number(count));
  }),
);

Then(
  'the pod(s){in-namespace} labelled {string} have/has no controller',
  step(async function (this: KubeWorld, ns: string, selector: string) {
    const pods = await podsLabelled(this, selector, ns);
    expect(pods, `pods labelled ${selector}`).to.not.be.empty;
    for (const p of pods)
      expect(p.metadata.ownerReferences ?? [], `ownerReferences of ${p.metadata.name}`).to.deep.equal([]);
  }),
);

Then(
  '{int} pod(s){in-namespace} are/is Terminating',
  step(async function (this: KubeWorld, count: number, ns: string) {
    const cluster = await this.cluster();
    const list = await cluster.client.list<Pod>({ resource: 'pods', namespace: ns });
    expect(
      list.items.filter((p) => p.metadata.deletionTimestamp).map((p) => p.metadata.name),
      'terminating pods',
    ).to.have.length(Number(count));
  }),
);

// A quota is in force once the quota controller has copied every name of spec.hard into
// status.hard: admission matches and charges a quota only by what its status says it tracks
// (upstream generic Matches and checkQuotas read quota.ResourceNames(Status.Hard), v1.12 and
// v1.32), so an object created before that is neither limited nor counted.
Then(
  'the resourcequota {string}{in-namespace} is in force',
  step(async function (this: KubeWorld, name: string, namespace: string) {
    const cluster = await this.cluster();
    const q = await cluster.client.get<KubeObject & { spec?: { hard?: object }; status?: { hard?: object } }>(
      { resource: 'resourcequotas', namespace },
      name,
    );
    expect(Object.keys(q.status?.hard ?? {}).sort(), `resourcequota ${name}: status.hard`).to.deep.equal(
      Object.keys(q.spec?.hard ?? {}).sort(),
    );
  }),
);

// Anchored to the moment a pod's run time counts from (the hollow kubelet ends a container
// kubespec.io/run-seconds after it started it), not to the end of the preceding checks, which
// at load 44 ended more than the 9 s after it (job.feature, fourteenth full run). startedAt
// has whole seconds: the wait may end up to 1 s early, never late.
When(
  '{duration} pass(es) after the pods of {controller} {string}{in-namespace} started',
  step(async function (this: KubeWorld, ms: number, kind: string, name: string, namespace: string) {
    const latest = await latestOnceAllKnown(this, `every active pod of ${kind} ${name} started`, async () =>
      (await ownedPods(this, kind, name, namespace)).map((p) => {
        const at = p.status?.containerStatuses?.map((c) => c.state?.running?.startedAt);
        return at?.length && at.every(Boolean) ? Math.max(...at.map((t) => Date.parse(String(t)))) : Number.NaN;
      }),
    );
    await advanceUntil(this, latest, ms, `the pods of ${kind} ${name} started`);
  }),
);

// Waits for what a step's fixed wait cannot promise on a real clock: making a thousand pods
// takes kube-controller-manager a minute at its default --kube-api-qps (20) on a quiet
// machine, over 5 minutes beside seven other scenarios at load ~19 (upstream v1.32.13).
// Every pod the controller asks for exists and is Ready; fails after 10 minutes, saying how
// far it got.
When(
  'every pod of {controller} {string}{in-namespace} is Ready',
  step(async function (this: KubeWorld, kind: string, name: string, namespace: string) {
    const cluster = await this.cluster();
    const want = ((await owner(this, kind, name, namespace)) as KubeObject & { spec?: { replicas?: number } }).spec
      ?.replicas;
    let seen = '';
    try {
      await cluster.waitFor(
        `${want} Ready pods of ${kind} ${name}`,
        async () => {
          const pods = await ownedPods(this, kind, name, namespace);
          const ready = pods.filter((p) =>
            p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
          );
          seen = `${pods.length} pods, ${ready.length} Ready`;
          return ready.length === want && pods.length === want;
        },
        10 * 60_000,
      );
    } catch (e) {
      if (e instanceof NotApplicableError) throw e;
      throw new Error(`${(e as Error).message} (last seen: ${seen})`);
    }
  }),
);

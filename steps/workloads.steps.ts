import { DataTable, Given, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { Pod } from '../src/api/core';
import { KubeObject } from '../src/api/meta';
import { KubeWorld } from './world';
import { advanceUntil, expectHeld, latestOnceAllKnown, step } from './support';
import { fieldAt, showField } from './objects';

/**
 * Workload vocabulary: Deployments and their ReplicaSets (revisions, sizes, images),
 * changing a pod template and rolling back as kubectl does, creating and scaling Deployments
 * and StatefulSets, time counted from the moment a rule counts from (./revisions.steps: a
 * StatefulSet's pods by ordinal).
 */

const REVISION = 'deployment.kubernetes.io/revision';

interface Workload extends KubeObject {
  spec: {
    template: { metadata?: { labels?: Record<string, string> }; spec: { containers: { image?: string }[] } };
    replicas?: number;
  };
  status?: { replicas?: number; readyReplicas?: number; availableReplicas?: number };
}

async function deployment(world: KubeWorld, name: string, ns: string): Promise<Workload> {
  const cluster = await world.cluster();
  return cluster.client.get<Workload>({ resource: 'deployments.apps', namespace: ns }, name);
}

/** The ReplicaSets a Deployment controls, lowest revision first. */
async function replicaSetsOf(world: KubeWorld, name: string, ns: string): Promise<Workload[]> {
  const cluster = await world.cluster();
  const d = await deployment(world, name, ns);
  const list = await cluster.client.list<Workload>({ resource: 'replicasets.apps', namespace: ns });
  return controlledBy(d, list.items);
}

/** Of some ReplicaSets, those the Deployment controls, lowest revision first. */
function controlledBy(d: KubeObject, sets: Workload[]): Workload[] {
  const rev = (rs: Workload) => Number(rs.metadata.annotations?.[REVISION] ?? 0);
  return sets
    .filter((rs) => rs.metadata.ownerReferences?.some((r) => r.controller && r.uid === d.metadata.uid))
    .sort((a, b) => rev(a) - rev(b));
}

/** Active pods whose controller is one of the Deployment's ReplicaSets. */
async function podsOf(world: KubeWorld, name: string, ns: string): Promise<Pod[]> {
  return activePodsOf(world, await replicaSetsOf(world, name, ns), ns);
}

/** The active pods (not deleted, not finished) whose controller is one of `sets`. */
async function activePodsOf(world: KubeWorld, sets: Workload[], ns: string): Promise<Pod[]> {
  const cluster = await world.cluster();
  const uids = new Set(sets.map((rs) => rs.metadata.uid));
  const pods = await cluster.client.list<Pod>({ resource: 'pods', namespace: ns });
  return pods.items
    .filter((p) => p.metadata.ownerReferences?.some((r) => r.controller && uids.has(r.uid)))
    .filter((p) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
}

/** When a pod became Ready (its Ready condition's lastTransitionTime), NaN while it is not. */
function readySince(pod: Pod): number {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
  return ready?.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : Number.NaN;
}

/**
 * When the last of a Deployment's pods became Ready (ms since the epoch), as the controllers
 * read it: the Ready condition's lastTransitionTime, which the API keeps to the whole second.
 * The pods meant are the ones its ReplicaSets asked for when the step before ended (on a
 * virtual clock: now). On a real clock they may not be made or Ready yet (the ReplicaSet
 * controller behind at load 44, fourteenth full run): each ReplicaSet's are waited for. Nor
 * may the rollout have stood still meanwhile: a pod its next step added since (a ReplicaSet
 * asking for more) is not one of them — counting it put the wait 10 s late, the rollout a step
 * further than the scenario reads (deployment.feature:104, twenty-second and twenty-third full
 * runs). What they asked for then is the API server's record where the target keeps it
 * (objectStates), else what they ask for at the step's first read. A ReplicaSet that asks for
 * fewer now needs only what it keeps.
 */
async function lastReadyAt(world: KubeWorld, name: string, ns: string): Promise<number> {
  let askedThen = await askedWhenJudged(world, name, ns);
  return latestOnceAllKnown(world, `every active pod of deployment ${name} Ready`, async () => {
    const sets = await replicaSetsOf(world, name, ns);
    const pods = await activePodsOf(world, sets, ns);
    askedThen ??= new Map(sets.map((rs) => [rs.metadata.uid, rs.spec.replicas ?? 0]));
    const times: number[] = [];
    for (const rs of sets) {
      const asked = rs.spec.replicas ?? 0;
      const meant = Math.min(asked, askedThen.get(rs.metadata.uid) ?? asked);
      const ready = pods
        .filter((p) => p.metadata.ownerReferences?.some((r) => r.controller && r.uid === rs.metadata.uid))
        .map(readySince)
        .filter((t) => !Number.isNaN(t))
        .sort((a, b) => a - b);
      if (ready.length < meant) return undefined;
      if (meant > 0) times.push(ready[meant - 1]);
    }
    return times;
  });
}

/** How many pods each of a Deployment's ReplicaSets asked for when the step before ended, from the target's record (undefined where it keeps none). */
async function askedWhenJudged(
  world: KubeWorld,
  name: string,
  ns: string,
): Promise<Map<string | undefined, number> | undefined> {
  const cluster = await world.cluster();
  const since = world.judgedFrom;
  if (cluster.capabilities.virtualTime || !cluster.objectStates || since === undefined) return undefined;
  const first = (await cluster.objectStates({ resource: 'replicasets.apps', namespace: ns }, since))?.[0];
  if (!first || first.at > since) return undefined;
  const sets = controlledBy(await deployment(world, name, ns), first.objects as Workload[]);
  return new Map(sets.map((rs) => [rs.metadata.uid, rs.spec.replicas ?? 0]));
}

// Anchored to the moment the rule counts from (IsPodAvailable: the pods' Ready time;
// DeploymentTimedOut: the Progressing condition's lastUpdateTime), not to the end of the
// preceding steps, which on a real clock end some seconds later.
When(
  '{duration} pass(es) after the pods of deployment {string}{in-namespace} became ready',
  step(async function (this: KubeWorld, ms: number, name: string, ns: string) {
    const since = await lastReadyAt(this, name, ns);
    await advanceUntil(this, since, ms, `the pods of deployment ${name} became ready`);
  }),
);

// The namespace controller counts from the deletion (its first pass 5 s after it,
// namespaceDeletionGracePeriod): on a real clock the steps between the deletion and the wait
// take their own time, so the wait ends that long after the deletionTimestamp instead (whole
// seconds: up to 1 s early, which the outcome's retry covers).
When(
  '{duration} pass(es) after the namespace {string} was deleted',
  step(async function (this: KubeWorld, ms: number, name: string) {
    const cluster = await this.cluster();
    const ns = await cluster.client.get<KubeObject>({ resource: 'namespaces' }, name);
    const deleted = ns.metadata.deletionTimestamp;
    if (!deleted) throw new Error(`namespace ${name} is not being deleted`);
    await advanceUntil(this, Date.parse(deleted), ms, `namespace ${name} was deleted`);
  }),
);

When(
  '{duration} pass(es) after the deployment {string}{in-namespace} condition {word} was last updated',
  step(async function (this: KubeWorld, ms: number, name: string, ns: string, type: string) {
    const d = (await deployment(this, name, ns)) as Workload & {
      status?: { conditions?: { type: string; lastUpdateTime?: string }[] };
    };
    const updated = d.status?.conditions?.find((c) => c.type === type)?.lastUpdateTime;
    if (!updated) throw new Error(`deployment ${name} has no condition ${type} with a lastUpdateTime`);
    await advanceUntil(this, Date.parse(updated), ms, `deployment ${name}'s ${type} condition was last updated`);
  }),
);

/** A ReplicaSet row as the tables of the features name its columns. */
function column(rs: Workload, col: string): string {
  switch (col) {
    case 'revision':
      return rs.metadata.annotations?.[REVISION] ?? '<none>';
    case 'replicas':
      return String(rs.spec.replicas ?? 0);
    case 'current':
      return String(rs.status?.replicas ?? 0);
    case 'ready':
      return String(rs.status?.readyReplicas ?? 0);
    case 'available':
      return String(rs.status?.availableReplicas ?? 0);
    case 'revision-history':
      return rs.metadata.annotations?.['deployment.kubernetes.io/revision-history'] ?? '<none>';
    case 'image':
      return rs.spec.template.spec.containers.map((c) => c.image).join(',');
    default:
      return showField(fieldAt(rs, col));
  }
}

Then(
  'the ReplicaSets of deployment {string}{in-namespace} are:',
  step(async function (this: KubeWorld, name: string, ns: string, table: DataTable) {
    const [header, ...rows] = table.raw();
    const cluster = await this.cluster();
    const d = await deployment(this, name, ns);
    const ref = { resource: 'replicasets.apps', namespace: ns };
    await expectHeld(
      this,
      ref,
      async () => (await cluster.client.list<Workload>(ref)).items,
      (sets) => {
        const actual = controlledBy(d, sets as Workload[]).map((rs) => header.map((c) => column(rs, c)));
        expect(actual, `ReplicaSets of deployment ${name} (${header.join(', ')})`).to.deep.equal(rows);
      },
    );
  }),
);

async function expectActivePods(
  world: KubeWorld,
  name: string,
  ns: string,
  count: number,
  withImage?: number,
  image?: string,
): Promise<void> {
  const pods = await podsOf(world, name, ns);
  expect(
    pods.map((p) => p.metadata.name),
    `active pods of deployment ${name}`,
  ).to.have.length(count);
  if (image !== undefined)
    expect(
      pods.filter((p) => p.spec.containers[0]?.image === image).length,
      `pods of ${name} running ${image}`,
    ).to.equal(withImage);
}

Then(
  'deployment {string}{in-namespace} has {int} active pod(s)',
  step(async function (this: KubeWorld, name: string, ns: string, count: number) {
    await expectActivePods(this, name, ns, count);
  }),
);

Then(
  'deployment {string}{in-namespace} has {int} active pod(s), {int} running {string}',
  step(async function (this: KubeWorld, name: string, ns: string, count: number, withImage: number, image: string) {
    await expectActivePods(this, name, ns, count, withImage, image);
  }),
);

Then(
  'every pod of deployment {string}{in-namespace} carries the pod-template-hash of its ReplicaSet, which is named after it',
  step(async function (this: KubeWorld, name: string, ns: string) {
    const sets = await replicaSetsOf(this, name, ns);
    const pods = await podsOf(this, name, ns);
    expect(pods, `pods of deployment ${name}`).to.not.be.empty;
    for (const rs of sets) {
      const hash = rs.metadata.labels?.['pod-template-hash'];
      expect(hash, `ReplicaSet ${rs.metadata.name} label pod-template-hash`).to.match(
        /^[bcdfghjklmnpqrstvwxz2456789]+$/,
      );
      expect(rs.metadata.name).to.equal(`${name}-${hash}`);
      expect(fieldAt(rs, 'spec.selector.matchLabels.pod-template-hash'), `${rs.metadata.name} selector`).to.equal(hash);
      expect(rs.spec.template.metadata?.labels?.['pod-template-hash'], `${rs.metadata.name} template`).to.equal(hash);
    }
    for (const pod of pods) {
      const owner = sets.find((rs) => pod.metadata.ownerReferences?.some((r) => r.uid === rs.metadata.uid))!;
      expect(pod.metadata.labels?.['pod-template-hash'], `pod ${pod.metadata.name}`).to.equal(
        owner.metadata.labels?.['pod-template-hash'],
      );
    }
  }),
);

When(
  'I set the image of deployment {string}{in-namespace} to {string}',
  step(async function (this: KubeWorld, name: string, ns: string, image: string) {
    const cluster = await this.cluster();
    await cluster.client.patch({ resource: 'deployments.apps', namespace: ns }, name, 'json', [
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: image },
    ]);
  }),
);

/**
 * What `kubectl rollout undo` does against apps/v1 (kubectl's DeploymentRollbacker): take
 * the pod template of the ReplicaSet with the previous (or the named) revision, drop its
 * pod-template-hash label, and write it into the Deployment.
 */
async function rollBack(world: KubeWorld, name: string, ns: string, revision?: number): Promise<void> {
  const cluster = await world.cluster();
  const d = await deployment(world, name, ns);
  const current = Number(d.metadata.annotations?.[REVISION] ?? 0);
  const sets = await replicaSetsOf(world, name, ns);
  const rev = (rs: Workload) => Number(rs.metadata.annotations?.[REVISION] ?? 0);
  const target =
    revision !== undefined ? sets.find((rs) => rev(rs) === revision) : sets.filter((rs) => rev(rs) < current).pop();
  if (!target)
    throw new Error(
      `deployment ${name} has no ${revision !== undefined ? `revision ${revision}` : 'previous revision'}`,
    );
  const template = JSON.parse(JSON.stringify(target.spec.template)) as Workload['spec']['template'];
  delete template.metadata?.labels?.['pod-template-hash'];
  await cluster.client.patch({ resource: 'deployments.apps', namespace: ns }, name, 'json', [
    { op: 'replace', path: '/spec/template', value: template },
  ]);
}

When(
  'I roll back deployment {string}{in-namespace}',
  step(async function (this: KubeWorld, name: string, ns: string) {
    await rollBack(this, name, ns);
  }),
);

When(
  'I roll back deployment {string}{in-namespace} to revision {int}',
  step(async function (this: KubeWorld, name: string, ns: string, revision: number) {
    await rollBack(this, name, ns, revision);
  }),
);

/** Sets a dotted path ("strategy.rollingUpdate.maxSurge") in an object, creating maps on the way. */
function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = obj;
  for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
  cur[parts[parts.length - 1]] = value;
}

/** A table cell as YAML would read it: integers and booleans typed, the rest strings ("25%"). */
function scalar(v: string): unknown {
  if (/^-?\d+$/.test(v)) return Number(v);
  if (v === 'true' || v === 'false') return v === 'true';
  return v;
}

async function createWorkload(
  world: KubeWorld,
  kind: string,
  name: string,
  ns: string,
  replicas: number,
  image: string,
  table?: DataTable,
): Promise<void> {
  const cluster = await world.cluster();
  const spec: Record<string, unknown> = {
    replicas: Number(replicas),
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } },
  };
  if (kind === 'statefulset') spec.serviceName = name;
  for (const [path, value] of table?.raw() ?? []) setPath(spec, path, scalar(value));
  const obj = {
    apiVersion: 'apps/v1',
    kind: kind === 'deployment' ? 'Deployment' : 'StatefulSet',
    metadata: { name, namespace: ns },
    spec,
  };
  await cluster.client.create(
    { resource: kind === 'deployment' ? 'deployments.apps' : 'statefulsets.apps', namespace: ns },
    obj as unknown as KubeObject,
  );
}

for (const kind of ['deployment', 'statefulset']) {
  Given(
    `a ${kind} {string}{in-namespace} of {int} replica(s) running {string}`,
    step(async function (this: KubeWorld, name: string, ns: string, replicas: number, image: string) {
      await createWorkload(this, kind, name, ns, replicas, image);
    }),
  );
  Given(
    `a ${kind} {string}{in-namespace} of {int} replica(s) running {string} with:`,
    step(async function (this: KubeWorld, name: string, ns: string, replicas: number, image: string, table: DataTable) {
      await createWorkload(this, kind, name, ns, replicas, image, table);
    }),
  );
}

/** A Deployment's events, oldest first; "{revision N}" in a message stands for that revision's ReplicaSet name. */
for (const kind of ['deployment', 'statefulset']) {
  Then(
    `the events of ${kind} {string}{in-namespace} are, in order:`,
    step(async function (this: KubeWorld, name: string, ns: string, table: DataTable) {
      const cluster = await this.cluster();
      const sets = kind === 'deployment' ? await replicaSetsOf(this, name, ns) : [];
      const byRevision = new Map(sets.map((rs) => [rs.metadata.annotations?.[REVISION] ?? '', rs.metadata.name!]));
      const expected = table
        .hashes()
        .map((r) => [
          r.reason,
          r.message.replace(/\{revision (\d+)\}/g, (_m, n: string) => byRevision.get(n) ?? `<no revision ${n}>`),
        ]);
      const events = (await cluster.events({ involvedName: name, namespace: ns })).filter(
        (e) => e.involvedObject.kind?.toLowerCase() === kind,
      );
      expect(
        events.map((e) => [e.reason, e.message]),
        `events of ${kind} ${name}`,
      ).to.deep.equal(expected);
    }),
  );
}

When(
  'I set the image of deployment {string}{in-namespace} to each of {names}, {duration} apart',
  step(async function (this: KubeWorld, name: string, ns: string, images: string[], apart: number) {
    const cluster = await this.cluster();
    for (const [i, image] of images.entries()) {
      if (i > 0) await cluster.advance(apart);
      await cluster.client.patch({ resource: 'deployments.apps', namespace: ns }, name, 'json', [
        { op: 'replace', path: '/spec/template/spec/containers/0/image', value: image },
      ]);
    }
  }),
);

Then(
  'the ReplicaSets of deployment {string}{in-namespace} have revisions {int} to {int}',
  step(async function (this: KubeWorld, name: string, ns: string, from: number, to: number) {
    const revisions = (await replicaSetsOf(this, name, ns)).map((rs) => Number(rs.metadata.annotations?.[REVISION]));
    const want = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    expect(revisions, `revisions of deployment ${name}`).to.deep.equal(want);
  }),
);

for (const kind of ['deployment', 'statefulset']) {
  When(
    `I scale ${kind} {string}{in-namespace} to {int} replica(s)`,
    step(async function (this: KubeWorld, name: string, ns: string, replicas: number) {
      const cluster = await this.cluster();
      await cluster.client.patch({ resource: `${kind}s.apps`, namespace: ns }, name, 'merge', { spec: { replicas } });
    }),
  );
}

import { DataTable, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { DaemonSet, Pod } from '../src/api/core';
import { KubeObject } from '../src/api/meta';
import { KubeWorld } from './world';
import { step } from './support';
import { fieldAt, showField } from './objects';

/**
 * DaemonSet vocabulary: changing its pod template and reading its pods node by node, each
 * pod's revision named against the DaemonSet's ControllerRevisions ("new" = the highest
 * revision, the one its current template matches; "old" otherwise).
 */

interface Revision extends KubeObject {
  revision: number;
}

/** A DaemonSet, the hash of its newest ControllerRevision, and the pods it controls. */
async function daemonPods(
  world: KubeWorld,
  name: string,
  namespace: string,
): Promise<{ ds: DaemonSet; newest: string | undefined; pods: Pod[] }> {
  const cluster = await world.cluster();
  const ds = await cluster.client.get<DaemonSet>({ resource: 'daemonsets.apps', namespace }, name);
  const owned = (o: { metadata: { ownerReferences?: { controller?: boolean; uid: string }[] } }) =>
    o.metadata.ownerReferences?.some((r) => r.controller && r.uid === ds.metadata.uid) ?? false;
  const revisions = (await cluster.client.list<Revision>({ resource: 'controllerrevisions.apps', namespace })).items
    .filter(owned)
    .sort((a, b) => b.revision - a.revision);
  const newest = revisions[0]?.metadata.labels?.['controller-revision-hash'];
  const pods = (await cluster.client.list<Pod>({ resource: 'pods', namespace })).items.filter(owned);
  return { ds, newest, pods };
}

When(
  'I set the image of daemonset {string}{in-namespace} to {string}',
  step(async function (this: KubeWorld, name: string, ns: string, image: string) {
    const cluster = await this.cluster();
    await cluster.client.patch({ resource: 'daemonsets.apps', namespace: ns }, name, 'json', [
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: image },
    ]);
  }),
);

Then(
  'the pods of daemonset {string}{in-namespace} are:',
  step(async function (this: KubeWorld, name: string, ns: string, table: DataTable) {
    const { newest, pods } = await daemonPods(this, name, ns);
    const [header, ...rows] = table.raw();
    const cell = (p: Pod, col: string): string => {
      switch (col) {
        case 'node':
          return p.spec.nodeName ?? '<none>';
        case 'phase':
          return p.metadata.deletionTimestamp ? 'Terminating' : (p.status?.phase ?? 'Pending');
        case 'image':
          return p.spec.containers.map((c) => c.image).join(',');
        case 'revision':
          return p.metadata.labels?.['controller-revision-hash'] === newest ? 'new' : 'old';
        default:
          return showField(fieldAt(p, col));
      }
    };
    const got = pods.map((p) => header.map((c) => cell(p, c))).sort((a, b) => (a.join('|') < b.join('|') ? -1 : 1));
    const want = [...rows].sort((a, b) => (a.join('|') < b.join('|') ? -1 : 1));
    expect(got, `pods of daemonset ${name} (${header.join(', ')})`).to.deep.equal(want);
  }),
);

Then(
  'every pod of daemonset {string}{in-namespace} carries the hash of its ControllerRevision, which is named after it',
  step(async function (this: KubeWorld, name: string, namespace: string) {
    const cluster = await this.cluster();
    const ds = await cluster.client.get<DaemonSet>({ resource: 'daemonsets.apps', namespace }, name);
    const revisions = (
      await cluster.client.list<Revision>({ resource: 'controllerrevisions.apps', namespace })
    ).items.filter((r) => r.metadata.ownerReferences?.some((o) => o.controller && o.uid === ds.metadata.uid));
    const pods = (await cluster.client.list<Pod>({ resource: 'pods', namespace })).items.filter((p) =>
      p.metadata.ownerReferences?.some((r) => r.controller && r.uid === ds.metadata.uid),
    );
    expect(pods.length, 'pods of the daemonset').to.be.greaterThan(0);
    for (const p of pods) {
      const hash = p.metadata.labels?.['controller-revision-hash'];
      expect(hash, `pod ${p.metadata.name} has no controller-revision-hash label`).to.match(
        /^[bcdfghjklmnpqrstvwxz2456789]+$/,
      );
      const rev = revisions.find((r) => r.metadata.labels?.['controller-revision-hash'] === hash);
      expect(rev?.metadata.name, `ControllerRevision of pod ${p.metadata.name}`).to.equal(`${name}-${hash}`);
      expect(p.metadata.labels?.['pod-template-generation'], `pod-template-generation of ${p.metadata.name}`).to.equal(
        ds.metadata.annotations?.['deprecated.daemonset.template.generation'],
      );
    }
  }),
);

/** Counts the DaemonSet's pods that are not being deleted, by revision as in "the pods of daemonset … are". */
Then(
  'daemonset {string}{in-namespace} runs {int} new and {int} old pod(s)',
  step(async function (this: KubeWorld, name: string, ns: string, fresh: number, old: number) {
    const { newest, pods: all } = await daemonPods(this, name, ns);
    const pods = all.filter((p) => !p.metadata.deletionTimestamp);
    const isNew = pods.filter((p) => p.metadata.labels?.['controller-revision-hash'] === newest).length;
    expect(
      [isNew, pods.length - isNew],
      `new and old pods of daemonset ${name}: ${pods.map((p) => `${p.metadata.name}@${p.spec.nodeName}`).join(', ')}`,
    ).to.deep.equal([fresh, old]);
  }),
);

When(
  'I delete the pod of daemonset {string}{in-namespace} on node {node}',
  step(async function (this: KubeWorld, name: string, namespace: string, node: string) {
    const cluster = await this.cluster();
    const ds = await cluster.client.get<DaemonSet>({ resource: 'daemonsets.apps', namespace }, name);
    const pods = (await cluster.client.list<Pod>({ resource: 'pods', namespace })).items.filter(
      (p) =>
        p.metadata.ownerReferences?.some((r) => r.controller && r.uid === ds.metadata.uid) &&
        p.spec.nodeName === node &&
        !p.metadata.deletionTimestamp,
    );
    if (pods.length !== 1) throw new Error(`daemonset ${name} has ${pods.length} pods on node ${node}, not 1`);
    await cluster.client.delete({ resource: 'pods', namespace }, pods[0].metadata.name!);
  }),
);

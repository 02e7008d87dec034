import { DataTable, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import { Pod } from '../src/api/core';
import { KubeObject } from '../src/api/meta';
import { KubeWorld } from './world';
import { step } from './support';
import { fieldAt, showField } from './objects';

/**
 * Revision vocabulary: a StatefulSet's pods by ordinal (phase, image, identity labels, which
 * revision made them) and the ControllerRevisions a StatefulSet or DaemonSet keeps.
 */

/**
 * The pods of a StatefulSet by name: phase (Terminating while being deleted), image, and
 * revision — "current" or "update" as the set's status names the pod's controller-revision-hash.
 */
Then(
  'the pods of statefulset {string}{in-namespace} are:',
  step(async function (this: KubeWorld, name: string, ns: string, table: DataTable) {
    const cluster = await this.cluster();
    const set = await cluster.client.get<
      KubeObject & { status?: { currentRevision?: string; updateRevision?: string } }
    >({ resource: 'statefulsets.apps', namespace: ns }, name);
    const pods = (await cluster.client.list<Pod>({ resource: 'pods', namespace: ns })).items
      .filter((p) => p.metadata.ownerReferences?.some((r) => r.controller && r.uid === set.metadata.uid))
      .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    const [header, ...rows] = table.raw();
    const cell = (p: Pod, col: string): string => {
      switch (col) {
        case 'name':
          return p.metadata.name!;
        case 'phase':
          return p.metadata.deletionTimestamp ? 'Terminating' : (p.status?.phase ?? 'Pending');
        case 'image':
          return p.spec.containers.map((c) => c.image).join(',');
        case 'pod-name label':
          return p.metadata.labels?.['statefulset.kubernetes.io/pod-name'] ?? '<none>';
        case 'pod-index label':
          return p.metadata.labels?.['apps.kubernetes.io/pod-index'] ?? '<none>';
        case 'revision': {
          const hash = p.metadata.labels?.['controller-revision-hash'];
          const names = [
            hash === set.status?.currentRevision ? 'current' : '',
            hash === set.status?.updateRevision ? 'update' : '',
          ].filter(Boolean);
          return names.join('+') || `unknown (${hash})`;
        }
        default:
          return showField(fieldAt(p, col));
      }
    };
    expect(
      pods.map((p) => header.map((c) => cell(p, c))),
      `pods of statefulset ${name} (${header.join(', ')})`,
    ).to.deep.equal(rows);
  }),
);

for (const kind of ['statefulset', 'daemonset']) {
  Then(
    `${kind} {string}{in-namespace} has {int} ControllerRevision(s)`,
    step(async function (this: KubeWorld, name: string, ns: string, count: number) {
      const cluster = await this.cluster();
      const owner = await cluster.client.get({ resource: `${kind}s.apps`, namespace: ns }, name);
      const revisions = (
        await cluster.client.list({ resource: 'controllerrevisions.apps', namespace: ns })
      ).items.filter((r) => r.metadata.ownerReferences?.some((o) => o.controller && o.uid === owner.metadata.uid));
      expect(
        revisions.map((r) => r.metadata.name),
        `ControllerRevisions of ${kind} ${name}`,
      ).to.have.length(Number(count));
    }),
  );
}

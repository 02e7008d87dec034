import { Clock, Quiescence } from '../../clock';
import { DaemonSet, Node, Pod } from '../../api/core';
import { clone, objectKey } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { Client } from '../../client/client';
import { EventRecorder } from '../../client/events';
import { Informer, InformerFactory } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { daemonPodTolerations, shouldRunOn } from './tolerations';

/**
 * A minimal DaemonSet controller (pkg/controller/daemon): one pod per eligible node, bound
 * directly to it (as the seed's release did, bypassing the scheduler), with the daemon
 * tolerations; pods on nodes that are no longer eligible or gone are deleted. No rolling
 * updates yet.
 */
export class DaemonSetController {
  private readonly daemonSets: Informer<DaemonSet>;
  private readonly nodes: Informer<Node>;
  private readonly pods: Informer<Pod>;
  private readonly queue: WorkQueue;
  private readonly events: EventRecorder;

  constructor(informers: InformerFactory, private readonly client: Client, clock: Clock, quiescence: Quiescence) {
    this.daemonSets = informers.informer<DaemonSet>({ resource: 'daemonsets' });
    this.nodes = informers.informer<Node>({ resource: 'nodes' });
    this.pods = informers.informer<Pod>({ resource: 'pods' });
    this.pods.addIndexer('daemonset-owner', (p) => {
      const o = (p.metadata.ownerReferences ?? []).find((r) => r.kind === 'DaemonSet' && r.controller);
      return o ? [`${p.metadata.namespace}/${o.name}`] : [];
    });
    this.queue = new WorkQueue(clock, quiescence, (key) => this.sync(key), { name: 'daemonset', workers: 2 });
    this.events = new EventRecorder(client, clock, { component: 'daemonset-controller' });
  }

  run(): void {
    const all = () => { for (const ds of this.daemonSets.list()) this.queue.add(objectKey(ds)); };
    this.daemonSets.addEventHandler({ onAdd: (ds) => this.queue.add(objectKey(ds)), onUpdate: (_o, ds) => this.queue.add(objectKey(ds)) });
    this.nodes.addEventHandler({
      onAdd: all,
      onUpdate: (o, n) => { if (JSON.stringify([o.metadata.labels, o.spec?.taints]) !== JSON.stringify([n.metadata.labels, n.spec?.taints])) all(); },
      onDelete: all,
    });
    const owner = (p: Pod) => {
      const o = (p.metadata.ownerReferences ?? []).find((r) => r.kind === 'DaemonSet' && r.controller);
      if (o) this.queue.add(`${p.metadata.namespace}/${o.name}`);
    };
    this.pods.addEventHandler({ onDelete: owner, onUpdate: (_o, p) => owner(p) });
  }

  stop(): void {
    this.queue.shutdown();
  }

  async sync(key: string): Promise<void> {
    const ds = this.daemonSets.get(key);
    if (!ds) return;
    const ns = ds.metadata.namespace!;
    const owned = this.pods.byIndex('daemonset-owner', key).filter((p) => p.metadata.ownerReferences?.some((o) => o.uid === ds.metadata.uid));
    const byNode = new Map<string, Pod[]>();
    for (const p of owned) {
      if (p.metadata.deletionTimestamp) continue;
      const list = byNode.get(p.spec.nodeName ?? '') ?? [];
      list.push(p);
      byNode.set(p.spec.nodeName ?? '', list);
    }
    let desired = 0;
    for (const node of this.nodes.list()) {
      const name = node.metadata.name!;
      const { shouldRun, shouldContinueRunning } = shouldRunOn(node, ds.spec.template.spec);
      const existing = byNode.get(name) ?? [];
      byNode.delete(name);
      if (shouldRun) desired++;
      if (shouldRun && existing.length === 0) await this.createPod(ds, name);
      if (!shouldContinueRunning) for (const p of existing) await this.deletePod(ds, p);
      else for (const p of existing.slice(1)) await this.deletePod(ds, p);
    }
    for (const pods of byNode.values()) for (const p of pods) await this.deletePod(ds, p); // nodes that are gone
    const mine = this.pods.byIndex('daemonset-owner', key).filter((p) => !p.metadata.deletionTimestamp);
    const status = {
      ...ds.status,
      desiredNumberScheduled: desired,
      currentNumberScheduled: mine.length,
      numberMisscheduled: 0,
      numberReady: mine.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length,
      observedGeneration: ds.metadata.generation,
    };
    if (JSON.stringify(status) !== JSON.stringify(ds.status)) {
      const next = clone(ds);
      next.status = status;
      try { await this.client.update<DaemonSet>({ resource: 'daemonsets', namespace: ns }, next, { subresource: 'status' }); } catch (e) { if (!isStatusError(e, 'Conflict') && !isStatusError(e, 'NotFound')) throw e; }
    }
  }

  private async createPod(ds: DaemonSet, nodeName: string): Promise<void> {
    const spec = clone(ds.spec.template.spec);
    spec.tolerations = daemonPodTolerations(spec);
    spec.nodeName = nodeName;
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${ds.metadata.name}-`,
        namespace: ds.metadata.namespace,
        labels: { ...ds.spec.template.metadata?.labels },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.metadata.name!, uid: ds.metadata.uid!, controller: true, blockOwnerDeletion: true }],
      },
      spec,
    };
    const created = await this.client.create<Pod>({ resource: 'pods', namespace: ds.metadata.namespace }, pod);
    this.events.normal(ds, 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
  }

  private async deletePod(ds: DaemonSet, pod: Pod): Promise<void> {
    try {
      await this.client.delete({ resource: 'pods', namespace: pod.metadata.namespace }, pod.metadata.name!);
      this.events.normal(ds, 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
    }
  }
}

import { Clock, Quiescence } from '../../clock';
import { Namespace } from '../../api/core';
import { clone, KubeObject } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { coreRegistry } from '../../api/resources';
import { Client } from '../../client/client';
import { EventRecorder } from '../../client/events';
import { Informer, InformerFactory } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { finalizersWithout, KUBERNETES_FINALIZER, remainingEstimate } from './content';

/**
 * The namespace controller (pkg/controller/namespace, namespacedResourcesDeleter): for a
 * namespace marked for deletion it deletes every namespaced object in it (list + delete
 * per resource, background propagation), waits while content remains (requeued after the
 * estimate), then removes the `kubernetes` finalizer through namespaces/finalize and
 * deletes the namespace.
 */
export class NamespaceController {
  private readonly namespaces: Informer<Namespace>;
  private readonly queue: WorkQueue;
  private readonly resources = coreRegistry().all().filter((r) => r.namespaced).map((r) => (r.group ? `${r.resource}.${r.group}` : r.resource));
  readonly events: EventRecorder;

  constructor(informers: InformerFactory, private readonly client: Client, private readonly clock: Clock, quiescence: Quiescence) {
    this.namespaces = informers.informer<Namespace>({ resource: 'namespaces' });
    this.events = new EventRecorder(client, clock, { component: 'namespace-controller' });
    this.queue = new WorkQueue(clock, quiescence, (key) => this.sync(key), { name: 'namespace', workers: 10 });
  }

  run(): void {
    const enqueue = (ns: Namespace) => { if (ns.metadata.deletionTimestamp) this.queue.add(ns.metadata.name!); };
    this.namespaces.addEventHandler({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n) });
  }

  stop(): void {
    this.queue.shutdown();
  }

  async sync(name: string): Promise<void> {
    const ns = this.namespaces.getByName(name);
    if (!ns || !ns.metadata.deletionTimestamp) return;
    const current = ns.status?.phase === 'Terminating' ? ns : await this.markTerminating(ns);
    if (!current) return;
    if ((current.spec?.finalizers ?? []).includes(KUBERNETES_FINALIZER)) {
      const remaining = await this.deleteAllContent(name);
      if (remaining.length > 0) {
        this.queue.addAfter(name, remainingEstimate(remaining, this.clock.now()) * 1000);
        return;
      }
      const next = clone(current);
      next.spec = { ...next.spec, finalizers: finalizersWithout(current.spec?.finalizers) };
      const finalized = await this.client.update<Namespace>({ resource: 'namespaces' }, next, { subresource: 'finalize' });
      if ((finalized.spec?.finalizers ?? []).length > 0) return;
    } else if ((current.spec?.finalizers ?? []).length > 0) {
      return; // another finalizer's owner still works on it
    }
    try {
      await this.client.delete({ resource: 'namespaces' }, name, { preconditions: { uid: current.metadata.uid } });
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
    }
  }

  private async markTerminating(ns: Namespace): Promise<Namespace | undefined> {
    const next = clone(ns);
    next.status = { ...next.status, phase: 'Terminating' };
    try {
      return await this.client.update<Namespace>({ resource: 'namespaces' }, next, { subresource: 'status' });
    } catch (e) {
      if (isStatusError(e, 'NotFound')) return undefined;
      throw e;
    }
  }

  /** Deletes what is left in the namespace; returns what still exists afterwards. */
  private async deleteAllContent(namespace: string): Promise<KubeObject[]> {
    const remaining: KubeObject[] = [];
    for (const resource of this.resources) {
      const ref = { resource, namespace };
      const list = await this.client.list(ref);
      await Promise.all(list.items.map(async (obj) => {
        if (obj.metadata.deletionTimestamp) return;
        try {
          await this.client.delete(ref, obj.metadata.name!, { propagationPolicy: 'Background' });
        } catch (e) {
          if (!isStatusError(e, 'NotFound')) throw e;
        }
      }));
      const after = list.items.length > 0 ? await this.client.list(ref) : list;
      remaining.push(...after.items);
    }
    return remaining;
  }
}

import { Namespace } from '../../api/core';
import { clone, KubeObject } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { coreRegistry } from '../../api/resources';
import { ResourceRegistry } from '../../api/registry';
import { EventRecorder } from '../../client/events';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { parseTime } from '../../clock';
import {
  finalizersWithout,
  KUBERNETES_FINALIZER,
  NAMESPACE_DELETION_GRACE_MS,
  recheckAfterMs,
  remainingEstimate,
} from './content';
import { deletionConditions, withConditions } from './conditions';
import { ControllerBase } from '../controller-base';

/**
 * The namespace controller (pkg/controller/namespace, namespacedResourcesDeleter): for a
 * namespace marked for deletion it deletes every namespaced object in it (a DeleteCollection
 * per resource, else list + delete each, background propagation), waits while content remains, then removes the
 * `kubernetes` finalizer through namespaces/finalize and deletes the namespace. Timing as
 * upstream's (v1.12 and v1.32): a namespace event is processed 5 s later
 * (namespaceDeletionGracePeriod); content left is re-checked after estimate/2 + 1 s
 * (NamespaceController.worker). Since v1.16 each pass also writes the deletion conditions
 * to the namespace's status, and that update is itself an event (found on upstream v1.32.13,
 * where the namespace went ~10 s after its deletion, not after the pods' 30 s).
 */
export class NamespaceController extends ControllerBase {
  private readonly namespaces: Informer<Namespace>;
  private readonly queue: WorkQueue;
  private readonly resources: string[];
  readonly events: EventRecorder;

  constructor(
    ctx: ControllerContext,
    private readonly options: { deletionConditions: boolean } = { deletionConditions: true },
    /** The resources the API server serves (its release's: EndpointSlices only from v1.21). */
    registry: ResourceRegistry = coreRegistry(),
  ) {
    super(ctx);
    this.resources = registry
      .all()
      .filter((r) => r.namespaced)
      .map((r) => (r.group ? `${r.resource}.${r.group}` : r.resource));
    this.namespaces = ctx.informer<Namespace>({ resource: 'namespaces' });
    this.events = ctx.events({ component: 'namespace-controller' });
    this.queue = ctx.workQueue((key) => this.sync(key), { name: 'namespace', workers: 10 });
  }

  run(): void {
    const enqueue = (ns: Namespace) => {
      if (ns.metadata.deletionTimestamp) this.queue.addAfter(ns.metadata.name!, NAMESPACE_DELETION_GRACE_MS);
    };
    this.ctx.handle(this.namespaces, { onAdd: enqueue, onUpdate: (_o, n) => enqueue(n) });
  }

  async sync(name: string): Promise<void> {
    const ns = this.namespaces.getByName(name);
    if (!ns?.metadata.deletionTimestamp) return;
    let current = ns.status?.phase === 'Terminating' ? ns : await this.markTerminating(ns);
    if (!current) return;
    if ((current.spec?.finalizers ?? []).includes(KUBERNETES_FINALIZER)) {
      const { podsBefore, remaining } = await this.deleteAllContent(name);
      // The finalize below starts from the namespace as written here (upstream retries a
      // conflicting finalize at once on the latest object: retryOnConflictError).
      if (this.options.deletionConditions) current = await this.writeConditions(current, remaining);
      if (remaining.length > 0) {
        const estimate = remainingEstimate(
          podsBefore,
          remaining.map((r) => r.object),
          parseTime(current.metadata.deletionTimestamp) ?? this.clock.now(),
          this.clock.now(),
        );
        // Content left without an estimate is unexpected upstream: an error, retried with backoff.
        if (estimate === 0) throw new Error(`unexpected items still remain in namespace: ${name}`);
        this.queue.addAfter(name, recheckAfterMs(estimate));
        return;
      }
      const next = clone(current);
      next.spec = { ...next.spec, finalizers: finalizersWithout(current.spec?.finalizers) };
      const finalized = await this.client.update<Namespace>({ resource: 'namespaces' }, next, {
        subresource: 'finalize',
      });
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

  /** The deletion conditions of this pass on the namespace's status, written when they changed. */
  private async writeConditions(
    ns: Namespace,
    remaining: { resource: string; object: KubeObject }[],
  ): Promise<Namespace> {
    const conditions = withConditions(
      ns.status?.conditions ?? [],
      deletionConditions(remaining),
      new Date(this.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
    );
    if (!conditions) return ns;
    const next = clone(ns);
    next.status = { ...next.status, conditions };
    try {
      return await this.client.update<Namespace>({ resource: 'namespaces' }, next, { subresource: 'status' });
    } catch (e) {
      // upstream logs it (HandleError) and goes on
      if (!isStatusError(e, 'Conflict') && !isStatusError(e, 'NotFound')) throw e;
      return ns;
    }
  }

  /**
   * Upstream deleteCollection (namespaced_resources_deleter.go, v1.12 and v1.32): one DELETE
   * on the resource's collection in the namespace, background propagation; false when the
   * client or the server does not offer the verb (MethodNotSupported, or NotFound for a
   * resource with no top-level verb), and the caller lists and deletes each item instead.
   */
  private async deleteCollection(resource: string, namespace: string): Promise<boolean> {
    if (!this.client.deleteCollection) return false;
    try {
      await this.client.deleteCollection({ resource, namespace }, { propagationPolicy: 'Background' });
      return true;
    } catch (e) {
      if (isStatusError(e, 'MethodNotAllowed') || isStatusError(e, 'NotFound')) return false;
      throw e;
    }
  }

  /** Deletes what is left in the namespace; returns the pods it found first and what still exists afterwards. */
  private async deleteAllContent(
    namespace: string,
  ): Promise<{ podsBefore: KubeObject[]; remaining: { resource: string; object: KubeObject }[] }> {
    const remaining: { resource: string; object: KubeObject }[] = [];
    let podsBefore: KubeObject[] = [];
    for (const resource of this.resources) {
      const ref = { resource, namespace };
      const list = await this.client.list(ref);
      if (resource === 'pods') podsBefore = list.items;
      if (list.items.length > 0 && !(await this.deleteCollection(resource, namespace)))
        await Promise.all(
          list.items.map(async (obj) => {
            if (obj.metadata.deletionTimestamp) return;
            try {
              await this.client.delete(ref, obj.metadata.name!, { propagationPolicy: 'Background' });
            } catch (e) {
              if (!isStatusError(e, 'NotFound')) throw e;
            }
          }),
        );
      const after = list.items.length > 0 ? await this.client.list(ref) : list;
      remaining.push(...after.items.map((object) => ({ resource, object })));
    }
    return { podsBefore, remaining };
  }
}

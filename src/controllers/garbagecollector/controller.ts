import { clone, jsonEqual, KubeObject, OwnerReference } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { coreRegistry } from '../../api/resources';
import { ResourceRegistry, ResourceType } from '../../api/registry';
import { DeleteOptions } from '../../api/request';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { keyOf } from '../ownership';
import { dependentVerdict, FOREGROUND, ORPHAN, ownerAction, OwnerState } from './owners';
import { ControllerBase } from '../controller-base';

/** Resources the collector does not follow (upstream ignores events). */
const IGNORED = new Set(['events']);

interface Item {
  rt: ResourceType;
  namespace?: string;
  name: string;
}

/**
 * The garbage collector (pkg/controller/garbagecollector), smaller: it follows every
 * resource through informers, indexes objects by the uids they name as owners, and
 * - deletes a dependent once none of its owners exists (background propagation),
 * - for an owner deleted with the `orphan` finalizer, strips its uid from every dependent's
 *   ownerReferences, then removes the finalizer,
 * - for an owner deleted with `foregroundDeletion`, deletes its dependents and removes the
 *   finalizer once no dependent with blockOwnerDeletion remains.
 */
export class GarbageCollector extends ControllerBase {
  private readonly informers = new Map<string, { rt: ResourceType; informer: Informer }>();
  private readonly queue: WorkQueue;

  constructor(
    ctx: ControllerContext,
    /** The resources the API server serves (its release's: EndpointSlices only from v1.21). */
    registry: ResourceRegistry = coreRegistry(),
  ) {
    super(ctx);
    for (const rt of registry.all()) {
      if (IGNORED.has(rt.resource)) continue;
      const ref = rt.group ? `${rt.resource}.${rt.group}` : rt.resource;
      const informer = ctx.informer({ resource: ref });
      informer.addIndexer('owner-uid', (o) => (o.metadata.ownerReferences ?? []).map((r) => r.uid));
      this.informers.set(rt.resource, { rt, informer });
    }
    this.queue = ctx.workQueue((key) => this.sync(key), { name: 'garbagecollector', workers: 10 });
  }

  run(): void {
    for (const { rt, informer } of this.informers.values()) {
      this.ctx.handle(informer, {
        onAdd: (o) => this.observe(rt, o),
        // Upstream's graph builder acts on an update only when it changes the owner
        // references or the deletion state; a status write (a node's Lease renewed every
        // 10 s) queues nothing.
        onUpdate: (old, o) => {
          if (ownershipChanged(old, o)) this.observe(rt, o);
        },
        onDelete: (o) => this.removed(o),
      });
    }
  }

  private enqueue(rt: ResourceType, obj: KubeObject): void {
    this.queue.add(`${rt.resource}|${keyOf(obj.metadata.namespace, obj.metadata.name!)}`);
  }

  private observe(rt: ResourceType, obj: KubeObject): void {
    if (ownerAction(obj) || (obj.metadata.ownerReferences ?? []).length > 0) this.enqueue(rt, obj);
  }

  /** An object left: its dependents may now be garbage, and owners waiting on it may finish. */
  private removed(obj: KubeObject): void {
    for (const d of this.dependentsOf(obj.metadata.uid!)) this.enqueue(d.rt, d.obj);
    for (const ref of obj.metadata.ownerReferences ?? []) {
      const owner = this.cached(ref, obj.metadata.namespace);
      if (owner) this.enqueue(owner.rt, owner.obj);
    }
  }

  private dependentsOf(uid: string): { rt: ResourceType; obj: KubeObject }[] {
    const out: { rt: ResourceType; obj: KubeObject }[] = [];
    for (const { rt, informer } of this.informers.values())
      for (const obj of informer.byIndex('owner-uid', uid)) out.push({ rt, obj });
    return out;
  }

  private resourceOf(ref: OwnerReference): ResourceType | undefined {
    const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '';
    return [...this.informers.values()].find((i) => i.rt.kind === ref.kind && i.rt.group === group)?.rt;
  }

  private cached(
    ref: OwnerReference,
    namespace: string | undefined,
  ): { rt: ResourceType; obj: KubeObject } | undefined {
    const rt = this.resourceOf(ref);
    if (!rt) return undefined;
    const obj = this.informers.get(rt.resource)!.informer.getByName(ref.name, rt.namespaced ? namespace : undefined);
    return obj && obj.metadata.uid === ref.uid ? { rt, obj } : undefined;
  }

  private refFor(rt: ResourceType, namespace?: string) {
    return {
      resource: rt.group ? `${rt.resource}.${rt.group}` : rt.resource,
      namespace: rt.namespaced ? namespace : undefined,
    };
  }

  /** The owner's state, confirmed with a live GET when the cache says it is gone (upstream's isDangling). */
  private async ownerState(ref: OwnerReference, namespace: string | undefined): Promise<OwnerState> {
    const rt = this.resourceOf(ref);
    if (!rt) return 'absent';
    let owner = this.cached(ref, namespace)?.obj;
    if (!owner) {
      try {
        owner = await this.client.get(this.refFor(rt, namespace), ref.name);
      } catch (e) {
        if (isStatusError(e, 'NotFound')) return 'absent';
        throw e;
      }
      if (owner.metadata.uid !== ref.uid) return 'absent';
    }
    return ownerAction(owner) === 'foreground' ? 'deleting-foreground' : 'present';
  }

  async sync(key: string): Promise<void> {
    const [resource, rest] = key.split('|');
    const entry = this.informers.get(resource);
    if (!entry) return;
    const [a, b] = rest.split('/');
    const item: Item = b === undefined ? { rt: entry.rt, name: a } : { rt: entry.rt, namespace: a, name: b };
    const obj = entry.informer.getByName(item.name, item.namespace);
    if (!obj) return;
    const action = ownerAction(obj);
    if (action === 'orphan') return this.orphanDependents(item, obj);
    if (action === 'foreground') return this.deleteDependentsInForeground(item, obj);
    if (obj.metadata.deletionTimestamp || (obj.metadata.ownerReferences ?? []).length === 0) return;
    await this.attemptToDelete(item, obj);
  }

  private async attemptToDelete(item: Item, obj: KubeObject): Promise<void> {
    const refs = obj.metadata.ownerReferences ?? [];
    const states = new Map<string, OwnerState>();
    for (const r of refs) states.set(r.uid, await this.ownerState(r, obj.metadata.namespace));
    const verdict = dependentVerdict(refs, (r) => states.get(r.uid)!);
    const ref = this.refFor(item.rt, item.namespace);
    try {
      if (verdict.action === 'keep') {
        if (verdict.dangling.length === 0) return;
        const gone = new Set(verdict.dangling.map((r) => r.uid));
        await this.client.patch(ref, item.name, 'merge', {
          metadata: { ownerReferences: refs.filter((r) => !gone.has(r.uid)), uid: obj.metadata.uid },
        });
        return;
      }
      const own = obj.metadata.finalizers ?? [];
      const policy: DeleteOptions['propagationPolicy'] = own.includes(ORPHAN)
        ? 'Orphan'
        : own.includes(FOREGROUND)
          ? 'Foreground'
          : verdict.policy;
      await this.client.delete(ref, item.name, { propagationPolicy: policy, preconditions: { uid: obj.metadata.uid } });
    } catch (e) {
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
    }
  }

  private async orphanDependents(item: Item, owner: KubeObject): Promise<void> {
    const uid = owner.metadata.uid!;
    for (const d of this.dependentsOf(uid)) {
      const refs = (d.obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
      try {
        await this.client.patch(this.refFor(d.rt, d.obj.metadata.namespace), d.obj.metadata.name!, 'merge', {
          metadata: { ownerReferences: refs.length ? refs : null },
        });
      } catch (e) {
        if (!isStatusError(e, 'NotFound')) throw e;
      }
    }
    await this.removeFinalizer(item, ORPHAN);
  }

  private async deleteDependentsInForeground(item: Item, owner: KubeObject): Promise<void> {
    const dependents = this.dependentsOf(owner.metadata.uid!);
    for (const d of dependents) {
      if (d.obj.metadata.deletionTimestamp) continue;
      const blocking = (d.obj.metadata.ownerReferences ?? []).some(
        (r) => r.uid === owner.metadata.uid && r.blockOwnerDeletion,
      );
      try {
        await this.client.delete(this.refFor(d.rt, d.obj.metadata.namespace), d.obj.metadata.name!, {
          propagationPolicy: blocking ? 'Foreground' : 'Background',
          preconditions: { uid: d.obj.metadata.uid },
        });
      } catch (e) {
        if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
      }
    }
    const blockers = this.dependentsOf(owner.metadata.uid!).filter((d) =>
      (d.obj.metadata.ownerReferences ?? []).some((r) => r.uid === owner.metadata.uid && r.blockOwnerDeletion),
    );
    if (blockers.length === 0) await this.removeFinalizer(item, FOREGROUND);
  }

  private async removeFinalizer(item: Item, finalizer: string): Promise<void> {
    const ref = this.refFor(item.rt, item.namespace);
    for (let attempt = 0; attempt < 5; attempt++) {
      let current: KubeObject;
      try {
        current = await this.client.get(ref, item.name);
      } catch (e) {
        if (isStatusError(e, 'NotFound')) return;
        throw e;
      }
      if (!(current.metadata.finalizers ?? []).includes(finalizer)) return;
      const next = clone(current);
      const rest = (current.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      if (rest.length > 0) next.metadata.finalizers = rest;
      else delete next.metadata.finalizers;
      try {
        await this.client.update(ref, next);
        return;
      } catch (e) {
        if (isStatusError(e, 'NotFound')) return;
        if (!isStatusError(e, 'Conflict')) throw e;
      }
    }
    throw new Error(`could not remove finalizer ${finalizer} from ${item.rt.resource} ${item.name}`);
  }
}

/** Whether an update touches what the collector decides on: owner references, deletion, finalizers. */
function ownershipChanged(old: KubeObject, obj: KubeObject): boolean {
  const a = old.metadata;
  const b = obj.metadata;
  return (
    a.deletionTimestamp !== b.deletionTimestamp ||
    !jsonEqual(a.ownerReferences, b.ownerReferences) ||
    !jsonEqual(a.finalizers, b.finalizers)
  );
}

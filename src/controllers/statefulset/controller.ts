import { Pod } from '../../api/core';
import { clone, jsonEqual } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { selectorFromLabelSelector } from '../../api/labels/selector';
import { ControllerRevision } from '../../api/resources/controllerrevision';
import { StatefulSet } from '../../api/resources/statefulset';
import { EventRecorder } from '../../client/events';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { controllerOf, controllerRef, keyOf } from '../ownership';
import {
  completeRollingUpdate,
  planStatefulSet,
  POD_INDEX_LABEL,
  POD_NAME_LABEL,
  REVISION_LABEL,
  revisionOf,
} from './plan';
import { equalData, nextRevision } from '../history';
import { hashRevision, revisionData, revisionsToTruncate, templateOf } from './revisions';
import { ControllerBase } from '../controller-base';

export interface StatefulSetOptions {
  /** v1.28+ labels each pod with its ordinal (apps.kubernetes.io/pod-index). */
  podIndexLabel: boolean;
}

const SETS = 'statefulsets.apps';
const REVISIONS = 'controllerrevisions.apps';

/**
 * The StatefulSet controller (pkg/controller/statefulset): pods with stable names
 * <set>-<ordinal>, hostname and subdomain; created, deleted and updated in the order
 * planStatefulSet gives; every template is a ControllerRevision whose name labels the pods
 * made from it (controller-revision-hash); status counts current and updated pods.
 */
export class StatefulSetController extends ControllerBase {
  private readonly sets: Informer<StatefulSet>;
  private readonly pods: Informer<Pod>;
  private readonly revisions: Informer<ControllerRevision>;
  private readonly queue: WorkQueue;
  readonly events: EventRecorder;

  constructor(
    ctx: ControllerContext,
    private readonly options: StatefulSetOptions = { podIndexLabel: true },
  ) {
    super(ctx);
    this.sets = ctx.informer<StatefulSet>({ resource: SETS });
    this.pods = ctx.informer<Pod>({ resource: 'pods' });
    this.revisions = ctx.informer<ControllerRevision>({ resource: REVISIONS });
    this.pods.addIndexer('namespace', (p) => [p.metadata.namespace ?? '']);
    this.revisions.addIndexer('namespace', (r) => [r.metadata.namespace ?? '']);
    this.events = ctx.events({ component: 'statefulset-controller' });
    this.queue = ctx.workQueue((key) => this.sync(key), { name: 'statefulset', workers: 5 });
  }

  run(): void {
    const enqueue = (s: StatefulSet) => this.queue.add(keyOf(s.metadata.namespace, s.metadata.name!));
    this.ctx.handle(this.sets, { onAdd: enqueue, onUpdate: (_o, s) => enqueue(s), onDelete: enqueue });
    const owner = (p: Pod) => {
      const ref = controllerOf(p);
      if (ref?.kind === 'StatefulSet') this.queue.add(keyOf(p.metadata.namespace, ref.name));
      else if (!ref)
        for (const s of this.sets.list())
          if (
            s.metadata.namespace === p.metadata.namespace &&
            selectorFromLabelSelector(s.spec.selector).matches(p.metadata.labels ?? {})
          )
            enqueue(s);
    };
    this.ctx.handle(this.pods, { onAdd: owner, onUpdate: (_o, p) => owner(p), onDelete: owner });
  }

  async sync(key: string): Promise<void> {
    const found = this.sets.get(key);
    if (!found) return;
    const set = clone(found);
    const ns = set.metadata.namespace!;
    const selector = selectorFromLabelSelector(set.spec.selector);
    // Upstream getPodsForStatefulSet claims by selector and by name (<set>-<n>); adoption of orphans is left out.
    const pods = this.pods
      .byIndex('namespace', ns)
      .filter((p) => controllerOf(p)?.uid === set.metadata.uid && selector.matches(p.metadata.labels ?? {}));
    const revisions = this.revisions
      .byIndex('namespace', ns)
      .filter((r) => controllerOf(r)?.uid === set.metadata.uid)
      .sort((a, b) => a.revision - b.revision);
    const { current, update, collisionCount } = await this.statefulSetRevisions(set, revisions);
    const plan = planStatefulSet(set, pods, current.metadata.name!, update.metadata.name!);
    for (const action of plan.actions) {
      if (action.type === 'create')
        await this.createPod(set, action.ordinal, action.revision === 'current' ? current : update);
      else {
        if (action.reason === 'failed')
          this.events.warning(
            set,
            'RecreatingFailedPod',
            `StatefulSet ${ns}/${set.metadata.name} is recreating failed Pod ${action.pod.metadata.name}`,
          );
        await this.deletePod(set, action.pod);
      }
    }
    const status: NonNullable<StatefulSet['status']> = {
      observedGeneration: set.metadata.generation,
      ...plan.status,
      currentRevision: current.metadata.name,
      updateRevision: update.metadata.name,
      ...(collisionCount ? { collisionCount } : {}),
    };
    completeRollingUpdate(set, status as Parameters<typeof completeRollingUpdate>[1]);
    for (const k of ['readyReplicas', 'currentReplicas', 'updatedReplicas'] as const) if (!status[k]) delete status[k];
    await this.writeStatus(set, status);
    // Upstream truncateHistory: after the status names the current and update revisions.
    const live = new Set(pods.map(revisionOf).filter((r): r is string => !!r));
    for (const r of revisionsToTruncate(
      set,
      await this.ownRevisions(set),
      live,
      status.currentRevision!,
      status.updateRevision!,
    )) {
      try {
        await this.client.delete({ resource: REVISIONS, namespace: ns }, r.metadata.name!);
      } catch (e) {
        if (!isStatusError(e, 'NotFound')) throw e;
      }
    }
  }

  private async ownRevisions(set: StatefulSet): Promise<ControllerRevision[]> {
    const list = await this.client.list<ControllerRevision>({ resource: REVISIONS, namespace: set.metadata.namespace });
    return list.items.filter((r) => controllerOf(r)?.uid === set.metadata.uid);
  }

  /**
   * Upstream getStatefulSetRevisions: the update revision is the set's template — the last
   * revision when equal, an older equal one renumbered to the next revision (a rollback), or
   * a new ControllerRevision; the current one is status.currentRevision, else the update one.
   */
  private async statefulSetRevisions(
    set: StatefulSet,
    revisions: ControllerRevision[],
  ): Promise<{ current: ControllerRevision; update: ControllerRevision; collisionCount: number }> {
    let collisionCount = set.status?.collisionCount ?? 0;
    const data = revisionData(set);
    const ref = { resource: REVISIONS, namespace: set.metadata.namespace };
    const equal = revisions.filter((r) => equalData(r.data, data));
    const next = nextRevision(revisions);
    let update: ControllerRevision;
    if (equal.length > 0 && equal[equal.length - 1] === revisions[revisions.length - 1]) {
      update = revisions[revisions.length - 1];
    } else if (equal.length > 0) {
      const copy = clone(equal[equal.length - 1]);
      copy.revision = next;
      update = await this.client.update<ControllerRevision>(ref, copy);
    } else {
      for (;;) {
        const hash = hashRevision(data, collisionCount);
        const revision: ControllerRevision = {
          apiVersion: 'apps/v1',
          kind: 'ControllerRevision',
          metadata: {
            name: `${set.metadata.name}-${hash}`,
            namespace: set.metadata.namespace,
            labels: { ...set.spec.template.metadata?.labels, [REVISION_LABEL]: hash },
            ownerReferences: [controllerRef(set)],
          },
          data,
          revision: next,
        };
        try {
          update = await this.client.create<ControllerRevision>(ref, revision);
          break;
        } catch (e) {
          if (!isStatusError(e, 'AlreadyExists')) throw e;
          const existing = await this.client.get<ControllerRevision>(ref, revision.metadata.name!);
          if (equalData(existing.data, data)) {
            update = existing;
            break;
          }
          collisionCount++; // upstream CreateControllerRevision: a hash collision, try the next hash
        }
      }
    }
    const current = revisions.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
    return { current, update, collisionCount };
  }

  /** Upstream newStatefulSetPod + updateIdentity + setPodRevision. */
  private async createPod(set: StatefulSet, ordinal: number, revision: ControllerRevision): Promise<void> {
    const template = templateOf(revision);
    const name = `${set.metadata.name}-${ordinal}`;
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: set.metadata.namespace,
        labels: {
          ...template.metadata?.labels,
          [POD_NAME_LABEL]: name,
          ...(this.options.podIndexLabel ? { [POD_INDEX_LABEL]: String(ordinal) } : {}),
          [REVISION_LABEL]: revision.metadata.name!,
        },
        ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
        ownerReferences: [controllerRef(set)],
      },
      // hostname and subdomain give the pod its stable DNS name <pod>.<serviceName>.
      spec: {
        ...clone(template.spec),
        hostname: name,
        ...(set.spec.serviceName ? { subdomain: set.spec.serviceName } : {}),
      } as Pod['spec'],
    };
    try {
      await this.client.create<Pod>({ resource: 'pods', namespace: set.metadata.namespace }, pod);
      this.events.normal(set, 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} successful`);
    } catch (e) {
      if (isStatusError(e, 'AlreadyExists')) return; // the cache lags: it is there
      this.events.warning(
        set,
        'FailedCreate',
        `create Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${(e as Error).message}`,
      );
      throw e;
    }
  }

  private async deletePod(set: StatefulSet, pod: Pod): Promise<void> {
    try {
      await this.client.delete({ resource: 'pods', namespace: pod.metadata.namespace }, pod.metadata.name!, {
        preconditions: { uid: pod.metadata.uid },
      });
      this.events.normal(
        set,
        'SuccessfulDelete',
        `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`,
      );
    } catch (e) {
      if (isStatusError(e, 'NotFound') || isStatusError(e, 'Conflict')) return;
      this.events.warning(
        set,
        'FailedDelete',
        `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${(e as Error).message}`,
      );
      throw e;
    }
  }

  private async writeStatus(set: StatefulSet, status: NonNullable<StatefulSet['status']>): Promise<void> {
    if (jsonEqual(set.status, status)) return;
    const next = clone(set);
    next.status = status;
    try {
      await this.client.update<StatefulSet>({ resource: SETS, namespace: set.metadata.namespace }, next, {
        subresource: 'status',
      });
    } catch (e) {
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
    }
  }
}

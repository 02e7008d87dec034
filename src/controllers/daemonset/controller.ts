import { availabilityRecheckMs } from '../pod-availability';
import { DaemonSet, Node, Pod } from '../../api/core';
import { clone, objectKey } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { ControllerRevision } from '../../api/resources/controllerrevision';
import { EventRecorder } from '../../client/events';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { computeHash } from '../hash';
import { Expectations } from '../expectations';
import { equalData, nextRevision } from '../history';
import { daemonPodTolerations, shouldRunOn } from './tolerations';
import { nodeNameAffinity, targetNodeName } from './affinity';
import {
  managePlan,
  NodeView,
  Plan,
  REVISION_HASH_LABEL,
  rollingUpdatePlanV112,
  rollingUpdatePlanV132,
  statusCounts,
  TEMPLATE_GENERATION_LABEL,
  templateGeneration,
} from './update';
import { ControllerBase } from '../controller-base';

export interface DaemonSetOptions {
  /** v1.22+: rollingUpdate.maxSurge and the surge rules (the v1.12 controller knows only maxUnavailable). */
  maxSurge: boolean;
}

const REVISIONS = 'controllerrevisions.apps';

/** What a DaemonSet revision records (upstream getPatch): its pod template, replacing the whole template on apply. */
function revisionData(ds: DaemonSet): unknown {
  return { spec: { template: { ...ds.spec.template, $patch: 'replace' } } };
}

/**
 * The DaemonSet controller (pkg/controller/daemon): one pod per eligible node, made for it
 * by a required node affinity on its name and bound by the scheduler (ScheduleDaemonSetPods,
 * on by default since v1.12, the seed's release), with the daemon tolerations. Every pod template is a ControllerRevision named <ds>-<hash> whose hash
 * labels the pods made from it (controller-revision-hash, plus pod-template-generation);
 * with updateStrategy RollingUpdate old pods are replaced within maxUnavailable (and, from
 * v1.22, maxSurge); with OnDelete only pods the user deletes come back new.
 * Each sync: history → manage → (when manage wrote nothing: upstream's expectations) the
 * rolling update → history clean-up → status.
 */
export class DaemonSetController extends ControllerBase {
  private readonly daemonSets: Informer<DaemonSet>;
  private readonly nodes: Informer<Node>;
  private readonly pods: Informer<Pod>;
  private readonly revisions: Informer<ControllerRevision>;
  private readonly queue: WorkQueue;
  private readonly events: EventRecorder;
  /** Creations and deletions asked for and not yet seen in the cache (upstream's expectations). */
  private readonly expectations: Expectations;

  constructor(
    ctx: ControllerContext,
    private readonly options: DaemonSetOptions = { maxSurge: true },
  ) {
    super(ctx);
    const { clock } = ctx;
    this.daemonSets = ctx.informer<DaemonSet>({ resource: 'daemonsets' });
    this.nodes = ctx.informer<Node>({ resource: 'nodes' });
    this.pods = ctx.informer<Pod>({ resource: 'pods' });
    this.revisions = ctx.informer<ControllerRevision>({ resource: REVISIONS });
    this.pods.addIndexer('daemonset-owner', (p) => {
      const o = (p.metadata.ownerReferences ?? []).find((r) => r.kind === 'DaemonSet' && r.controller);
      return o ? [`${p.metadata.namespace}/${o.name}`] : [];
    });
    this.revisions.addIndexer('daemonset-owner', (r) => {
      const o = (r.metadata.ownerReferences ?? []).find((x) => x.kind === 'DaemonSet' && x.controller);
      return o ? [`${r.metadata.namespace}/${o.name}`] : [];
    });
    this.queue = ctx.workQueue((key) => this.sync(key), { name: 'daemonset', workers: 2 });
    this.events = ctx.events({ component: 'daemonset-controller' });
    this.expectations = new Expectations(() => clock.now());
  }

  run(): void {
    const all = () => {
      for (const ds of this.daemonSets.list()) this.queue.add(objectKey(ds));
    };
    this.ctx.handle(this.daemonSets, {
      onAdd: (ds) => this.queue.add(objectKey(ds)),
      onUpdate: (_o, ds) => this.queue.add(objectKey(ds)),
    });
    this.ctx.handle(this.nodes, {
      onAdd: all,
      onUpdate: (o, n) => {
        if (JSON.stringify([o.metadata.labels, o.spec?.taints]) !== JSON.stringify([n.metadata.labels, n.spec?.taints]))
          all();
      },
      onDelete: all,
    });
    const owner = (p: Pod): string | undefined => {
      const o = (p.metadata.ownerReferences ?? []).find((r) => r.kind === 'DaemonSet' && r.controller);
      return o ? `${p.metadata.namespace}/${o.name}` : undefined;
    };
    // A pod marked for deletion counts as deleted once (when marked, or when gone unmarked).
    this.ctx.handle(this.pods, {
      onAdd: (p) => {
        const key = owner(p);
        if (!key) return;
        if (p.metadata.deletionTimestamp) this.expectations.deletionObserved(key);
        else this.expectations.creationObserved(key);
        this.queue.add(key);
      },
      onUpdate: (o, p) => {
        const key = owner(p);
        if (!key) return;
        if (p.metadata.deletionTimestamp && !o.metadata.deletionTimestamp) this.expectations.deletionObserved(key);
        this.queue.add(key);
      },
      onDelete: (p) => {
        const key = owner(p);
        if (!key) return;
        if (!p.metadata.deletionTimestamp) this.expectations.deletionObserved(key);
        this.queue.add(key);
      },
    });
  }

  async sync(key: string): Promise<void> {
    const ds = this.daemonSets.get(key);
    if (!ds) {
      this.expectations.delete(key);
      return;
    }
    if (ds.metadata.deletionTimestamp) return;
    const current = await this.constructHistory(key, ds);
    if (!current) return; // a hash collision was recorded in status: the update brings us back
    const hash = current.metadata.labels?.[REVISION_HASH_LABEL] ?? '';
    const now = this.clock.now();
    const nodes: NodeView[] = this.nodes
      .list()
      .map((n) => ({ name: n.metadata.name!, ...shouldRunOn(n, ds.spec.template.spec) }));
    const podsByNode = this.podsByNode(key, ds);
    // The cache lags behind the controller's own writes: until it has seen them, acting on
    // it again would create a second pod for the same gap (upstream's expectations).
    if (!this.expectations.satisfied(key)) return this.updateStatus(ds, nodes, podsByNode, hash, now);
    await this.apply(key, ds, managePlan(ds, nodes, podsByNode, hash, now, this.options.maxSurge), hash);
    // The rolling update runs once manage's writes are seen: their events bring the DaemonSet back.
    if (this.expectations.satisfied(key) && ds.spec.updateStrategy?.type === 'RollingUpdate') {
      const plan = this.options.maxSurge
        ? rollingUpdatePlanV132(ds, nodes, podsByNode, hash, now)
        : rollingUpdatePlanV112(ds, nodes, podsByNode, hash, now);
      await this.apply(key, ds, plan, hash);
    }
    await this.cleanupHistory(key, ds, current);
    await this.updateStatus(ds, nodes, this.podsByNode(key, ds), hash, now);
  }

  private podsByNode(key: string, ds: DaemonSet): Map<string, Pod[]> {
    const byNode = new Map<string, Pod[]>();
    for (const p of this.pods.byIndex('daemonset-owner', key)) {
      if (!p.metadata.ownerReferences?.some((o) => o.uid === ds.metadata.uid)) continue;
      // Unbound pods count for the node they were made for (upstream getNodesToDaemonPods).
      const node = targetNodeName(p) ?? '';
      byNode.set(node, [...(byNode.get(node) ?? []), p]);
    }
    return byNode;
  }

  /** Upstream syncNodes: expects the writes, deletes, then creates; a write that fails is no longer expected. */
  private async apply(key: string, ds: DaemonSet, plan: Plan, hash: string): Promise<void> {
    if (plan.delete.length + plan.create.length === 0) return;
    const ns = ds.metadata.namespace!;
    this.expectations.expect(key, plan.create.length, plan.delete.length);
    for (const name of plan.delete) {
      let deleted = false;
      try {
        deleted = await this.deletePod(ds, ns, name);
      } finally {
        if (!deleted) this.expectations.lowerExpectations(key, 0, 1);
      }
    }
    for (const node of plan.create) {
      try {
        await this.createPod(ds, node, hash);
      } catch (e) {
        this.expectations.lowerExpectations(key, 1, 0);
        throw e;
      }
    }
  }

  /**
   * Upstream constructHistory: the revision whose data matches the current template is the
   * current one (its revision number raised above every other), else a new snapshot
   * <ds>-<hash(template, collisionCount)>; a name taken by another template bumps
   * status.collisionCount.
   */
  private async constructHistory(key: string, ds: DaemonSet): Promise<ControllerRevision | undefined> {
    const ns = ds.metadata.namespace!;
    const mine = this.revisions
      .byIndex('daemonset-owner', key)
      .filter((r) => r.metadata.ownerReferences?.some((o) => o.uid === ds.metadata.uid));
    const data = revisionData(ds);
    const matching = mine.filter((r) => equalData(r.data, data)).sort((a, b) => b.revision - a.revision);
    const old = mine.filter((r) => !matching.includes(r));
    const want = nextRevision(old);
    let cur = matching[0];
    for (const dup of matching.slice(1)) await this.deleteRevision(ns, dup.metadata.name!);
    if (cur) {
      if (cur.revision < want) {
        const next = clone(cur);
        next.revision = want;
        cur = await this.client.update<ControllerRevision>({ resource: REVISIONS, namespace: ns }, next);
      }
      return cur;
    }
    const hash = computeHash(ds.spec.template, ds.status?.collisionCount);
    const revision: ControllerRevision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `${ds.metadata.name}-${hash}`,
        namespace: ns,
        labels: { ...ds.spec.template.metadata?.labels, [REVISION_HASH_LABEL]: hash },
        ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'DaemonSet',
            name: ds.metadata.name!,
            uid: ds.metadata.uid!,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      data,
      revision: want,
    };
    try {
      return await this.client.create<ControllerRevision>({ resource: REVISIONS, namespace: ns }, revision);
    } catch (e) {
      if (!isStatusError(e, 'AlreadyExists')) throw e;
      const existing = await this.client.get<ControllerRevision>(
        { resource: REVISIONS, namespace: ns },
        revision.metadata.name!,
      );
      if (equalData(existing.data, data)) return existing;
      const fresh = clone(
        await this.client.get<DaemonSet>({ resource: 'daemonsets', namespace: ns }, ds.metadata.name!),
      );
      fresh.status = { ...fresh.status!, collisionCount: (fresh.status?.collisionCount ?? 0) + 1 };
      await this.client.update<DaemonSet>({ resource: 'daemonsets', namespace: ns }, fresh, { subresource: 'status' });
      return undefined;
    }
  }

  /** Upstream cleanupHistory: beyond revisionHistoryLimit, delete the oldest old revisions no live pod uses. */
  private async cleanupHistory(key: string, ds: DaemonSet, current: ControllerRevision): Promise<void> {
    const old = this.revisions
      .byIndex('daemonset-owner', key)
      .filter(
        (r) =>
          r.metadata.ownerReferences?.some((o) => o.uid === ds.metadata.uid) &&
          r.metadata.name !== current.metadata.name,
      )
      .sort((a, b) => a.revision - b.revision);
    let toKill = old.length - (ds.spec.revisionHistoryLimit ?? 10);
    if (toKill <= 0) return;
    const live = new Set(
      this.pods
        .byIndex('daemonset-owner', key)
        .map((p) => p.metadata.labels?.[REVISION_HASH_LABEL])
        .filter(Boolean),
    );
    for (const r of old) {
      if (toKill <= 0) break;
      if (live.has(r.metadata.labels?.[REVISION_HASH_LABEL])) continue;
      await this.deleteRevision(ds.metadata.namespace!, r.metadata.name!);
      toKill--;
    }
  }

  private async deleteRevision(ns: string, name: string): Promise<void> {
    try {
      await this.client.delete({ resource: REVISIONS, namespace: ns }, name);
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
    }
  }

  /**
   * Upstream updateDaemonSetStatus; with minReadySeconds, while some ready pod is not yet
   * available, the DaemonSet is looked at again minReadySeconds later.
   */
  private async updateStatus(
    ds: DaemonSet,
    nodes: NodeView[],
    podsByNode: Map<string, Pod[]>,
    hash: string,
    now: number,
  ): Promise<void> {
    const c = statusCounts(ds, nodes, podsByNode, hash, now);
    const status: NonNullable<DaemonSet['status']> = {
      currentNumberScheduled: c.currentNumberScheduled,
      numberMisscheduled: c.numberMisscheduled,
      desiredNumberScheduled: c.desiredNumberScheduled,
      numberReady: c.numberReady,
      observedGeneration: ds.metadata.generation,
      // omitempty, as upstream's DaemonSetStatus serialises them
      ...(c.updatedNumberScheduled ? { updatedNumberScheduled: c.updatedNumberScheduled } : {}),
      ...(c.numberAvailable ? { numberAvailable: c.numberAvailable } : {}),
      ...(c.numberUnavailable ? { numberUnavailable: c.numberUnavailable } : {}),
      ...(ds.status?.collisionCount !== undefined ? { collisionCount: ds.status.collisionCount } : {}),
    };
    if (JSON.stringify(status) !== JSON.stringify(ds.status)) {
      const next = clone(ds);
      next.status = status;
      try {
        await this.client.update<DaemonSet>({ resource: 'daemonsets', namespace: ds.metadata.namespace }, next, {
          subresource: 'status',
        });
      } catch (e) {
        if (!isStatusError(e, 'Conflict') && !isStatusError(e, 'NotFound')) throw e;
      }
    }
    const minReady = ds.spec.minReadySeconds ?? 0;
    if (minReady > 0 && c.numberReady !== c.numberAvailable)
      this.queue.addAfter(objectKey(ds), availabilityRecheckMs(minReady));
  }

  private async createPod(ds: DaemonSet, nodeName: string, hash: string): Promise<void> {
    const spec = clone(ds.spec.template.spec);
    spec.tolerations = daemonPodTolerations(spec);
    // Through the scheduler (ScheduleDaemonSetPods: beta and on in v1.12, GA v1.17), not bound here.
    spec.affinity = nodeNameAffinity(spec.affinity, nodeName);
    const generation = templateGeneration(ds);
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${ds.metadata.name}-`,
        namespace: ds.metadata.namespace,
        labels: {
          ...ds.spec.template.metadata?.labels,
          ...(generation !== undefined ? { [TEMPLATE_GENERATION_LABEL]: generation } : {}),
          ...(hash ? { [REVISION_HASH_LABEL]: hash } : {}),
        },
        ...(ds.spec.template.metadata?.annotations
          ? { annotations: { ...ds.spec.template.metadata.annotations } }
          : {}),
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'DaemonSet',
            name: ds.metadata.name!,
            uid: ds.metadata.uid!,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec,
    };
    const created = await this.client.create<Pod>({ resource: 'pods', namespace: ds.metadata.namespace }, pod);
    this.events.normal(ds, 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
  }

  /** False when the pod was already gone (no deletion will be observed). */
  private async deletePod(ds: DaemonSet, ns: string, name: string): Promise<boolean> {
    try {
      await this.client.delete({ resource: 'pods', namespace: ns }, name);
      this.events.normal(ds, 'SuccessfulDelete', `Deleted pod: ${name}`);
      return true;
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
      return false;
    }
  }
}

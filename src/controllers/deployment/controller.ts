import { computeHash } from '../hash';
import { Pod } from '../../api/core';
import { clone, jsonEqual } from '../../api/meta';
import { isStatusError } from '../../api/errors';
import { selectorFromLabelSelector } from '../../api/labels/selector';
import { Deployment } from '../../api/resources/deployment';
import { ReplicaSet } from '../../api/resources/replicaset';
import { EventRecorder } from '../../client/events';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { controllerOf, controllerRef, keyOf } from '../ownership';
import { maxSurge } from './fenceposts';
import {
  activeReplicaSets,
  actualReplicaCount,
  findNewReplicaSet,
  findOldReplicaSets,
  hasProgressDeadline,
  maxRevision,
  POD_TEMPLATE_HASH,
  replicasAnnotationsNeedUpdate,
  REVISION,
  replicaSetsToClean,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  specReplicas,
} from './revisions';
import {
  isScalingEvent,
  newRSNewReplicas,
  proportionalScale,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
} from './rolling';
import {
  calculateStatus,
  condition,
  deploymentComplete,
  FAILED_RS_CREATE,
  FOUND_NEW_RS,
  getCondition,
  NEW_RS_CREATED,
  PAUSED,
  RESUMED,
  rolloutStatus,
  setCondition,
  stuckRecheckIn,
  TIMED_OUT,
} from './status';
import { ControllerBase } from '../controller-base';

export interface DeploymentOptions {
  /** --concurrent-deployment-syncs */
  workers: number;
  /** v1.29+: "Scaled up replica set x from 1 to 3"; before: "Scaled up replica set x to 3". */
  scaleEventFrom: boolean;
  /** Which old ReplicaSets cleanup removes first: lowest revision (newer releases) or oldest (v1.12). */
  cleanupOrder: 'revision' | 'creation';
}

export const DEFAULT_DEPLOYMENT_OPTIONS: DeploymentOptions = {
  workers: 5,
  scaleEventFrom: true,
  cleanupOrder: 'revision',
};

const DEPLOYMENTS = 'deployments.apps';
const REPLICASETS = 'replicasets.apps';

/** One sync's view of the Deployment, refreshed after each write to it. */
interface Ctx {
  d: Deployment;
}

/**
 * The Deployment controller (pkg/controller/deployment): owns ReplicaSets, one per pod
 * template (named <deployment>-<pod-template-hash>), and moves pods from the old ones to
 * the new one — RollingUpdate within maxSurge / maxUnavailable, or Recreate — records
 * revisions, keeps revisionHistoryLimit old ReplicaSets, resizes proportionally on a
 * scaling event, and reports status with the Available and Progressing conditions.
 * The rules are pure functions in rolling.ts, revisions.ts and status.ts; what stays here is
 * the one sync loop (upstream's sync.go, rolling.go and recreate.go driving them), kept whole.
 */
export class DeploymentController extends ControllerBase {
  private readonly deployments: Informer<Deployment>;
  private readonly sets: Informer<ReplicaSet>;
  private readonly pods: Informer<Pod>;
  private readonly queue: WorkQueue;
  readonly events: EventRecorder;

  constructor(
    ctx: ControllerContext,
    private readonly options = DEFAULT_DEPLOYMENT_OPTIONS,
  ) {
    super(ctx);
    this.deployments = ctx.informer<Deployment>({ resource: DEPLOYMENTS });
    this.sets = ctx.informer<ReplicaSet>({ resource: REPLICASETS });
    this.pods = ctx.informer<Pod>({ resource: 'pods' });
    this.sets.addIndexer('namespace', (rs) => [rs.metadata.namespace ?? '']);
    this.pods.addIndexer('namespace', (p) => [p.metadata.namespace ?? '']);
    this.events = ctx.events({ component: 'deployment-controller' });
    this.queue = ctx.workQueue((key) => this.sync(key), {
      name: 'deployment',
      workers: options.workers,
    });
  }

  run(): void {
    const enqueue = (d: Deployment) => this.queue.add(keyOf(d.metadata.namespace, d.metadata.name!));
    this.ctx.handle(this.deployments, { onAdd: enqueue, onUpdate: (_o, d) => enqueue(d), onDelete: enqueue });
    const forSet = (rs: ReplicaSet) => {
      const ref = controllerOf(rs);
      if (ref) {
        if (ref.kind === 'Deployment') this.queue.add(keyOf(rs.metadata.namespace, ref.name));
        return;
      }
      for (const d of this.deployments.list()) {
        if (
          d.metadata.namespace === rs.metadata.namespace &&
          selectorFromLabelSelector(d.spec.selector).matches(rs.metadata.labels ?? {})
        )
          enqueue(d);
      }
    };
    this.ctx.handle(this.sets, {
      onAdd: forSet,
      onUpdate: (o, n) => {
        forSet(n);
        if (controllerOf(o)?.uid !== controllerOf(n)?.uid) forSet(o);
      },
      onDelete: forSet,
    });
    // Recreate waits for the old pods to be gone: their deletion wakes the Deployment.
    this.ctx.handle(this.pods, {
      onDelete: (pod) => {
        const ref = controllerOf(pod);
        if (ref?.kind !== 'ReplicaSet') return;
        const rs = this.sets.getByName(ref.name, pod.metadata.namespace);
        const owner = rs && controllerOf(rs);
        if (owner?.kind === 'Deployment') this.queue.add(keyOf(pod.metadata.namespace, owner.name));
      },
    });
  }

  async sync(key: string): Promise<void> {
    const found = this.deployments.get(key);
    if (!found) return;
    const ctx: Ctx = { d: clone(found) };
    const sets = await this.claimReplicaSets(ctx.d);
    if (ctx.d.metadata.deletionTimestamp) return this.syncStatusOnly(ctx, sets);
    await this.checkPausedConditions(ctx);
    if (ctx.d.spec.paused) return this.syncScale(ctx, sets);
    const { newRS, oldSets } = await this.allReplicaSetsAndSyncRevision(ctx, sets, false);
    if (isScalingEvent(ctx.d, [...oldSets, newRS])) return this.syncScale(ctx, sets);
    if (ctx.d.spec.strategy?.type === 'Recreate') return this.rolloutRecreate(ctx, sets);
    return this.rolloutRolling(ctx, sets);
  }

  // ── ReplicaSets of a Deployment ─────────────────────────────────────────────────────────

  /** Upstream getReplicaSetsForDeployment / ClaimReplicaSets: owned and matching, adopting orphans, releasing strays. */
  private async claimReplicaSets(d: Deployment): Promise<ReplicaSet[]> {
    const selector = selectorFromLabelSelector(d.spec.selector);
    const ref = { resource: REPLICASETS, namespace: d.metadata.namespace };
    const out: ReplicaSet[] = [];
    for (const rs of this.sets.byIndex('namespace', d.metadata.namespace ?? '')) {
      const owner = controllerOf(rs);
      const matches = selector.matches(rs.metadata.labels ?? {});
      if (owner) {
        if (owner.uid !== d.metadata.uid) continue;
        if (matches) out.push(rs);
        else if (!d.metadata.deletionTimestamp) {
          const refs = (rs.metadata.ownerReferences ?? []).filter((r) => r.uid !== d.metadata.uid);
          await this.ignoreGone(
            this.client.patch(ref, rs.metadata.name!, 'merge', {
              metadata: { ownerReferences: refs.length ? refs : null, uid: rs.metadata.uid },
            }),
          );
        }
        continue;
      }
      if (!matches || d.metadata.deletionTimestamp || rs.metadata.deletionTimestamp) continue;
      const refs = [...(rs.metadata.ownerReferences ?? []), controllerRef(d)];
      const adopted = await this.ignoreGone(
        this.client.patch<ReplicaSet>(ref, rs.metadata.name!, 'merge', {
          metadata: { ownerReferences: refs, uid: rs.metadata.uid },
        }),
      );
      if (adopted) out.push(adopted);
    }
    return out;
  }

  private async ignoreGone<T>(p: Promise<T>): Promise<T | undefined> {
    try {
      return await p;
    } catch (e) {
      if (isStatusError(e, 'NotFound') || isStatusError(e, 'Conflict') || isStatusError(e, 'Invalid')) return undefined;
      throw e;
    }
  }

  /**
   * Upstream getAllReplicaSetsAndSyncRevision / getNewReplicaSet: the new ReplicaSet (found
   * by template, its revision raised to max(old)+1 and annotations refreshed; or created
   * when asked) and the old ones; the Deployment's revision annotation follows the new one.
   */
  private async allReplicaSetsAndSyncRevision(
    ctx: Ctx,
    sets: ReplicaSet[],
    create: boolean,
  ): Promise<{ newRS?: ReplicaSet; oldSets: ReplicaSet[] }> {
    const d = ctx.d;
    const { all: oldSets } = findOldReplicaSets(d, sets);
    const newRevision = maxRevision(oldSets) + 1;
    const existing = findNewReplicaSet(d, sets);
    const ref = { resource: REPLICASETS, namespace: d.metadata.namespace };
    if (existing) {
      let rs = existing;
      const copy = clone(existing);
      const annotationsChanged = setNewReplicaSetAnnotations(d, copy, newRevision, true);
      const minReadyChanged = (copy.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0);
      if (annotationsChanged || minReadyChanged) {
        copy.spec.minReadySeconds = d.spec.minReadySeconds ?? 0;
        rs = await this.client.update<ReplicaSet>(ref, copy);
        sets[sets.indexOf(existing)] = rs; // later steps of this sync see the written object
      }
      let needsUpdate = await this.setDeploymentRevision(ctx, rs.metadata.annotations?.[REVISION] ?? '');
      if (hasProgressDeadline(d) && !getCondition(ctx.d.status, 'Progressing')) {
        ctx.d.status ??= {};
        setCondition(
          ctx.d.status,
          condition(
            'Progressing',
            'True',
            FOUND_NEW_RS,
            `Found new replica set "${rs.metadata.name}"`,
            this.clock.now(),
          ),
        );
        needsUpdate = true;
      }
      if (needsUpdate) await this.writeStatus(ctx, ctx.d.status!);
      return { newRS: rs, oldSets };
    }
    if (!create) return { oldSets };
    const collisionCount = d.status?.collisionCount;
    const hash = computeHash(d.spec.template, collisionCount);
    const template = clone(d.spec.template);
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [POD_TEMPLATE_HASH]: hash } };
    const selector = clone(d.spec.selector);
    selector.matchLabels = { ...selector.matchLabels, [POD_TEMPLATE_HASH]: hash };
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        labels: template.metadata.labels,
        ownerReferences: [controllerRef(d)],
      },
      spec: { replicas: 0, minReadySeconds: d.spec.minReadySeconds ?? 0, selector, template },
    };
    rs.spec.replicas = newRSNewReplicas(d, [...oldSets, rs], rs);
    setNewReplicaSetAnnotations(d, rs, newRevision, false);
    let created: ReplicaSet;
    try {
      created = await this.client.create<ReplicaSet>(ref, rs);
    } catch (e) {
      if (isStatusError(e, 'AlreadyExists')) {
        // Upstream: the same name with another template is a hash collision; count it so the
        // next hash differs. Our own ReplicaSet with this template would have been found above.
        const other = await this.client.get<ReplicaSet>(ref, rs.metadata.name!);
        if (controllerOf(other)?.uid === d.metadata.uid && jsonEqual(other.spec.template, template)) {
          sets.push(other);
          return { newRS: other, oldSets };
        }
        const status = { ...clone(ctx.d.status ?? {}), collisionCount: (collisionCount ?? 0) + 1 };
        await this.writeStatus(ctx, status);
        throw e;
      }
      if (hasProgressDeadline(d)) {
        const status = clone(ctx.d.status ?? {});
        setCondition(
          status,
          condition(
            'Progressing',
            'False',
            FAILED_RS_CREATE,
            `Failed to create new replica set "${rs.metadata.name}": ${(e as Error).message}`,
            this.clock.now(),
          ),
        );
        await this.writeStatus(ctx, status);
      }
      throw e;
    }
    sets.push(created);
    if (specReplicas(created) > 0)
      this.events.normal(
        d,
        'ScalingReplicaSet',
        this.scaleMessage('up', created.metadata.name!, 0, specReplicas(created)),
      );
    let needsUpdate = await this.setDeploymentRevision(ctx, String(newRevision));
    if (hasProgressDeadline(d)) {
      ctx.d.status ??= {};
      setCondition(
        ctx.d.status,
        condition(
          'Progressing',
          'True',
          NEW_RS_CREATED,
          `Created new replica set "${created.metadata.name}"`,
          this.clock.now(),
        ),
      );
      needsUpdate = true;
    }
    if (needsUpdate) await this.writeStatus(ctx, ctx.d.status!);
    return { newRS: created, oldSets };
  }

  /** Upstream SetDeploymentRevision, written at once (upstream rides on the next status update). */
  private async setDeploymentRevision(ctx: Ctx, revision: string): Promise<boolean> {
    if (ctx.d.metadata.annotations?.[REVISION] === revision) return false;
    const status = ctx.d.status;
    const patched = await this.client.patch<Deployment>(
      { resource: DEPLOYMENTS, namespace: ctx.d.metadata.namespace },
      ctx.d.metadata.name!,
      'merge',
      { metadata: { annotations: { [REVISION]: revision } } },
    );
    // Keep the conditions set in this sync. The client's answer is frozen: assigning to it
    // threw, and the sync failed and was retried unseen until its queue reported failures.
    ctx.d = status ? { ...patched, status } : patched;
    return false;
  }

  private scaleMessage(op: 'up' | 'down', name: string, from: number, to: number): string {
    return this.options.scaleEventFrom
      ? `Scaled ${op} replica set ${name} from ${from} to ${to}`
      : `Scaled ${op} replica set ${name} to ${to}`;
  }

  /** Upstream scaleReplicaSet: size and the replicas annotations in one write; an event when the size changed. */
  private async scaleReplicaSet(
    rs: ReplicaSet,
    replicas: number,
    d: Deployment,
    op?: 'up' | 'down',
  ): Promise<ReplicaSet> {
    const max = (d.spec.replicas ?? 1) + maxSurge(d);
    const sizeChanged = specReplicas(rs) !== replicas;
    if (!sizeChanged && !replicasAnnotationsNeedUpdate(rs, d.spec.replicas ?? 1, max)) return rs;
    const copy = clone(rs);
    copy.spec.replicas = replicas;
    setReplicasAnnotations(copy, d.spec.replicas ?? 1, max);
    const updated = await this.client.update<ReplicaSet>(
      { resource: REPLICASETS, namespace: rs.metadata.namespace },
      copy,
    );
    if (sizeChanged)
      this.events.normal(
        d,
        'ScalingReplicaSet',
        this.scaleMessage(
          op ?? (replicas > specReplicas(rs) ? 'up' : 'down'),
          rs.metadata.name!,
          specReplicas(rs),
          replicas,
        ),
      );
    return updated;
  }

  // ── Strategies ──────────────────────────────────────────────────────────────────────────

  /** Upstream rolloutRolling: grow the new ReplicaSet, else shrink old ones, else clean up; then status. */
  private async rolloutRolling(ctx: Ctx, sets: ReplicaSet[]): Promise<void> {
    let { newRS, oldSets } = await this.allReplicaSetsAndSyncRevision(ctx, sets, true);
    const d = ctx.d;
    const next = reconcileNewReplicaSet([...oldSets, newRS!], newRS!, d);
    if (next !== undefined) {
      newRS = await this.scaleReplicaSet(newRS!, next, d);
      return this.syncRolloutStatus(ctx, [...oldSets, newRS], newRS);
    }
    const resizes = reconcileOldReplicaSets([...oldSets, newRS!], activeReplicaSets(oldSets), newRS, d);
    if (resizes.length > 0) {
      for (const r of resizes) {
        const updated = await this.scaleReplicaSet(r.rs, r.replicas, d, 'down');
        oldSets = oldSets.map((rs) => (rs.metadata.uid === updated.metadata.uid ? updated : rs));
      }
      return this.syncRolloutStatus(ctx, [...oldSets, newRS!], newRS);
    }
    if (deploymentComplete(d, d.status ?? {})) await this.cleanup(d, oldSets);
    return this.syncRolloutStatus(ctx, [...oldSets, newRS!], newRS);
  }

  /** Upstream rolloutRecreate: old ReplicaSets to 0, wait until none of their pods runs, then the new one at full size. */
  private async rolloutRecreate(ctx: Ctx, sets: ReplicaSet[]): Promise<void> {
    let { newRS, oldSets } = await this.allReplicaSetsAndSyncRevision(ctx, sets, false);
    let scaledDown = false;
    for (const rs of activeReplicaSets(oldSets)) {
      const updated = await this.scaleReplicaSet(rs, 0, ctx.d, 'down');
      oldSets = oldSets.map((x) => (x.metadata.uid === updated.metadata.uid ? updated : x));
      scaledDown = true;
    }
    if (scaledDown || this.oldPodsRunning(newRS, oldSets))
      return this.syncRolloutStatus(ctx, [...oldSets, newRS], newRS);
    if (!newRS) ({ newRS, oldSets } = await this.allReplicaSetsAndSyncRevision(ctx, sets, true));
    newRS = await this.scaleReplicaSet(newRS!, ctx.d.spec.replicas ?? 1, ctx.d, 'up');
    if (deploymentComplete(ctx.d, ctx.d.status ?? {})) await this.cleanup(ctx.d, oldSets);
    return this.syncRolloutStatus(ctx, [...oldSets, newRS], newRS);
  }

  /** Upstream oldPodsRunning: old ReplicaSets still report pods, or any of their pods has not ended. */
  private oldPodsRunning(newRS: ReplicaSet | undefined, oldSets: ReplicaSet[]): boolean {
    if (actualReplicaCount(oldSets) > 0) return true;
    const oldUids = new Set(oldSets.map((rs) => rs.metadata.uid));
    return this.pods
      .byIndex('namespace', oldSets[0]?.metadata.namespace ?? newRS?.metadata.namespace ?? '')
      .some((p) => {
        const ref = controllerOf(p);
        if (!ref || !oldUids.has(ref.uid)) return false;
        return p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded';
      });
  }

  /** Upstream sync: a scaling event or a paused Deployment — resize, clean up when paused, status. */
  private async syncScale(ctx: Ctx, sets: ReplicaSet[]): Promise<void> {
    let { newRS, oldSets } = await this.allReplicaSetsAndSyncRevision(ctx, sets, false);
    const { resizes, operation } = proportionalScale(ctx.d, newRS, oldSets);
    for (const r of resizes) {
      const updated = await this.scaleReplicaSet(r.rs, r.replicas, ctx.d, operation);
      if (newRS?.metadata.uid === updated.metadata.uid) newRS = updated;
      oldSets = oldSets.map((x) => (x.metadata.uid === updated.metadata.uid ? updated : x));
    }
    if (ctx.d.spec.paused) await this.cleanup(ctx.d, oldSets);
    const status = calculateStatus([...oldSets, newRS], newRS, ctx.d, this.clock.now());
    await this.writeStatus(ctx, status);
  }

  private async syncStatusOnly(ctx: Ctx, sets: ReplicaSet[]): Promise<void> {
    const { newRS, oldSets } = await this.allReplicaSetsAndSyncRevision(ctx, sets, false);
    await this.writeStatus(ctx, calculateStatus([...oldSets, newRS], newRS, ctx.d, this.clock.now()));
  }

  /** Upstream checkPausedConditions: Progressing Unknown DeploymentPaused / DeploymentResumed (unless timed out). */
  private async checkPausedConditions(ctx: Ctx): Promise<void> {
    const d = ctx.d;
    if (!hasProgressDeadline(d)) return;
    const c = getCondition(d.status, 'Progressing');
    if (c?.reason === TIMED_OUT) return;
    const pausedCond = c?.reason === PAUSED;
    const status = clone(d.status ?? {});
    if (d.spec.paused && !pausedCond)
      setCondition(status, condition('Progressing', 'Unknown', PAUSED, 'Deployment is paused', this.clock.now()));
    else if (!d.spec.paused && pausedCond)
      setCondition(status, condition('Progressing', 'Unknown', RESUMED, 'Deployment is resumed', this.clock.now()));
    else return;
    await this.writeStatus(ctx, status);
  }

  /** Upstream cleanupDeployment: delete the old ReplicaSets beyond revisionHistoryLimit. */
  private async cleanup(d: Deployment, oldSets: ReplicaSet[]): Promise<void> {
    for (const rs of replicaSetsToClean(d, oldSets, this.options.cleanupOrder)) {
      try {
        await this.client.delete({ resource: REPLICASETS, namespace: rs.metadata.namespace }, rs.metadata.name!);
      } catch (e) {
        if (!isStatusError(e, 'NotFound')) throw e;
      }
    }
  }

  /** Upstream syncRolloutStatus: write the new status, or (unchanged) look again when the progress deadline falls due. */
  private async syncRolloutStatus(
    ctx: Ctx,
    allSets: (ReplicaSet | undefined)[],
    newRS: ReplicaSet | undefined,
  ): Promise<void> {
    const now = this.clock.now();
    const status = rolloutStatus(allSets, newRS, ctx.d, now);
    if (jsonEqual(status, ctx.d.status ?? {})) {
      const due = stuckRecheckIn(ctx.d, status, now);
      const key = keyOf(ctx.d.metadata.namespace, ctx.d.metadata.name!);
      if (due !== undefined) {
        if (due < 1000) this.queue.addRateLimited(key);
        else this.queue.addAfter(key, due);
      }
      return;
    }
    await this.writeStatus(ctx, status);
  }

  private async writeStatus(ctx: Ctx, status: NonNullable<Deployment['status']>): Promise<void> {
    const next = clone(ctx.d);
    next.status = status;
    try {
      ctx.d = await this.client.update<Deployment>(
        { resource: DEPLOYMENTS, namespace: ctx.d.metadata.namespace },
        next,
        { subresource: 'status' },
      );
    } catch (e) {
      // A conflict: a newer Deployment is on its way through the informer, which syncs it again.
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
    }
  }
}

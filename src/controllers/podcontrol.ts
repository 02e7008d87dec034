import { Pod } from '../api/core';
import { clone, KubeObject } from '../api/meta';
import { isStatusError } from '../api/errors';
import { PodTemplateSpec } from '../api/resources/replicationcontroller';
import { Client } from '../client/client';
import { EventRecorder } from '../client/events';
import { controllerRef } from './ownership';
import { Expectations, slowStartBatch } from './expectations';

/**
 * Upstream RealPodControl: creates pods from a controller's template, linked to it by a
 * controllerRef, and deletes them, recording SuccessfulCreate / SuccessfulDelete (or the
 * Failed… warnings) on the controller.
 */
export class PodControl {
  constructor(
    private readonly client: Client,
    private readonly events: EventRecorder,
  ) {}

  /** Upstream GetPodFromTemplate: the template's labels, annotations and spec; name from the controller's. */
  static podFromTemplate(template: PodTemplateSpec, owner: KubeObject): Pod {
    const t = clone(template);
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${owner.metadata.name}-`,
        namespace: owner.metadata.namespace,
        ...(t.metadata?.labels ? { labels: t.metadata.labels } : {}),
        ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
        ...(t.metadata?.finalizers ? { finalizers: t.metadata.finalizers } : {}),
        ownerReferences: [controllerRef(owner)],
      },
      spec: t.spec,
    };
  }

  async createPod(template: PodTemplateSpec, owner: KubeObject): Promise<void> {
    try {
      const pod = await this.client.create<Pod>(
        { resource: 'pods', namespace: owner.metadata.namespace },
        PodControl.podFromTemplate(template, owner),
      );
      this.events.normal(owner, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
    } catch (e) {
      this.events.warning(owner, 'FailedCreate', `Error creating: ${(e as Error).message}`);
      throw e;
    }
  }

  /** Deletes a pod; one already gone counts as deleted. */
  async deletePod(pod: Pod, owner: KubeObject): Promise<void> {
    try {
      await this.client.delete({ resource: 'pods', namespace: pod.metadata.namespace }, pod.metadata.name!);
      this.events.normal(owner, 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
    } catch (e) {
      if (isStatusError(e, 'NotFound')) return;
      this.events.warning(owner, 'FailedDelete', `Error deleting: ${(e as Error).message}`);
      throw e;
    }
  }

  /** Adopts an orphan (upstream AdoptPod: patch in the controllerRef, guarded by the pod's uid). */
  async adopt(pod: Pod, owner: KubeObject): Promise<void> {
    const refs = [...(pod.metadata.ownerReferences ?? []), controllerRef(owner)];
    await this.client.patch({ resource: 'pods', namespace: pod.metadata.namespace }, pod.metadata.name!, 'merge', {
      metadata: { ownerReferences: refs, uid: pod.metadata.uid },
    });
  }

  /** Releases a pod that no longer matches (upstream ReleasePod: patch out the owner's reference). */
  async release(pod: Pod, owner: KubeObject): Promise<void> {
    const refs = (pod.metadata.ownerReferences ?? []).filter((r) => r.uid !== owner.metadata.uid);
    try {
      await this.client.patch({ resource: 'pods', namespace: pod.metadata.namespace }, pod.metadata.name!, 'merge', {
        metadata: { ownerReferences: refs.length ? refs : null, uid: pod.metadata.uid },
      });
    } catch (e) {
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Invalid')) throw e;
    }
  }
}

/**
 * Upstream ClaimPods (controller_ref_manager.go) over a controller's namespace: keeps the
 * pods it owns that still match, adopts matching orphans (unless it is being deleted),
 * releases owned pods that stopped matching; pods of another controller are never touched.
 */
export async function claimPods(
  pods: readonly Pod[],
  owner: KubeObject,
  matches: (pod: Pod) => boolean,
  control: PodControl,
): Promise<Pod[]> {
  const claimed: Pod[] = [];
  const deleting = owner.metadata.deletionTimestamp !== undefined;
  for (const pod of pods) {
    const ref = pod.metadata.ownerReferences?.find((r) => r.controller === true);
    if (ref) {
      if (ref.uid !== owner.metadata.uid) continue;
      if (matches(pod)) claimed.push(pod);
      else if (!deleting) await control.release(pod, owner);
      continue;
    }
    if (deleting || pod.metadata.deletionTimestamp || !matches(pod)) continue;
    try {
      await control.adopt(pod, owner);
      claimed.push(pod);
    } catch (e) {
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Invalid') && !isStatusError(e, 'Conflict')) throw e;
    }
  }
  return claimed;
}

/**
 * Creates n pods from the template in slow-start batches, expecting them first so a
 * lagging cache never creates twice (upstream manageReplicas / manageJob); creations that
 * failed are no longer expected. Returns how many were made; throws the first error.
 */
export async function createExpectedPods(
  control: PodControl,
  expectations: Expectations,
  key: string,
  n: number,
  template: PodTemplateSpec,
  owner: KubeObject,
): Promise<number> {
  expectations.expect(key, n, 0);
  const { successes, error } = await slowStartBatch(n, 1, () => control.createPod(template, owner));
  if (successes < n) expectations.lowerExpectations(key, n - successes, 0);
  if (error) throw error;
  return successes;
}

import { isoTime } from '../clock';
import { Node, Pod, PodCondition, Taint } from '../api/core';
import { clone } from '../api/meta';
import { isStatusError } from '../api/errors';
import { swapTaints } from '../api/taints';
import { Client } from '../client/client';

const NODES = { resource: 'nodes' };

/**
 * Upstream SwapNodeControllerTaint: adds and removes taints on a node, re-reading it on
 * conflicts (NodeHealthUpdateRetry = 5 tries). True on success or when nothing had to
 * change; false when the node is gone. Writes that kept conflicting are an error, as
 * upstream returns one for its callers to log: it carries the last conflict as its cause.
 */
export async function swapNodeTaints(
  client: Client,
  name: string,
  add: Taint[],
  remove: Pick<Taint, 'key' | 'effect'>[],
  now: number,
  cached?: Node,
): Promise<boolean> {
  let node = cached;
  let conflict: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      if (!node || attempt > 0) node = await client.get<Node>(NODES, name);
      const taints = swapTaints(node.spec?.taints ?? [], add, remove, isoTime(now));
      if (!taints) return true;
      const next = clone(node);
      next.spec = { ...next.spec, taints };
      if (taints.length === 0) delete next.spec.taints;
      await client.update<Node>(NODES, next);
      return true;
    } catch (e) {
      if (isStatusError(e, 'NotFound')) return false;
      if (!isStatusError(e, 'Conflict')) throw e;
      conflict = e;
    }
  }
  throw new Error(`failed to swap the taints of node ${JSON.stringify(name)} after 5 conflicting writes`, {
    cause: conflict,
  });
}

/** Sets a pod condition's status (upstream UpdatePodCondition): false when nothing changes. */
export function withPodCondition(pod: Pod, condition: PodCondition, now: number): Pod | undefined {
  const conditions = pod.status?.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === condition.type);
  const old = i >= 0 ? conditions[i] : undefined;
  if (old && old.status === condition.status && old.reason === condition.reason && old.message === condition.message)
    return undefined;
  const next = clone(pod);
  const merged: PodCondition = {
    ...old,
    ...condition,
    lastTransitionTime: old && old.status === condition.status ? old.lastTransitionTime : isoTime(now),
  };
  const list = [...conditions];
  if (i >= 0) list[i] = merged;
  else list.push(merged);
  next.status = { ...next.status, conditions: list };
  return next;
}

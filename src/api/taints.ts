import { Node, Taint, TaintEffect, Toleration } from './core';

/** Well-known taint keys (staging/src/k8s.io/api/core/v1/well_known_taints.go). */
export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
/** A --cloud-provider=external kubelet's node until the cloud node controller initializes it (cloudproviderapi.TaintExternalCloudProvider). */
export const TAINT_CLOUD_UNINITIALIZED = 'node.cloudprovider.kubernetes.io/uninitialized';
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';

export function sameTaint(a: Taint, b: Pick<Taint, 'key' | 'effect'>): boolean {
  return a.key === b.key && a.effect === b.effect;
}

export function hasTaint(node: Node | undefined, key: string, effect: TaintEffect): boolean {
  return (node?.spec?.taints ?? []).some((t) => t.key === key && t.effect === effect);
}

/**
 * Upstream SwapNodeControllerTaint's pure part: the node's taints with `remove` dropped
 * and `add` added (matched by key and effect; added taints get timeAdded). Undefined
 * when nothing changes.
 */
export function swapTaints(
  current: readonly Taint[],
  add: readonly Taint[],
  remove: readonly Pick<Taint, 'key' | 'effect'>[],
  timeAdded: string,
): Taint[] | undefined {
  let changed = false;
  const out = current.filter((t) => {
    const drop = remove.some((r) => sameTaint(t, r)) && !add.some((a) => sameTaint(t, a));
    if (drop) changed = true;
    return !drop;
  });
  for (const a of add) {
    if (out.some((t) => sameTaint(t, a))) continue;
    out.push({ ...a, timeAdded });
    changed = true;
  }
  return changed ? out : undefined;
}

/** Upstream Toleration.ToleratesTaint. */
export function toleratesTaint(tol: Toleration, taint: Taint): boolean {
  if (tol.effect && tol.effect !== taint.effect) return false;
  if (tol.key && tol.key !== taint.key) return false;
  switch (tol.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
      return (tol.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

/** Parses --register-with-taints syntax: key=value:Effect,key2:Effect (upstream pkg/util/taints ParseTaints). */
export function parseTaints(spec: string): Taint[] {
  if (!spec.trim()) return [];
  return spec.split(',').map((item) => {
    const m = /^([^=:]+)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/.exec(item.trim());
    if (!m) throw new Error(`invalid taint spec: ${item} (want key=value:Effect)`);
    return m[2] !== undefined
      ? { key: m[1], value: m[2], effect: m[3] as Taint['effect'] }
      : { key: m[1], effect: m[3] as Taint['effect'] };
  });
}

import { Node, PodSpec, Taint, Toleration } from '../../api/core';
import {
  TAINT_DISK_PRESSURE,
  TAINT_MEMORY_PRESSURE,
  TAINT_NETWORK_UNAVAILABLE,
  TAINT_NOT_READY,
  TAINT_PID_PRESSURE,
  TAINT_UNREACHABLE,
  TAINT_UNSCHEDULABLE,
  toleratesTaint,
} from '../../api/taints';

/**
 * Upstream AddOrUpdateDaemonPodTolerations (pkg/controller/daemon/util): NoExecute for
 * not-ready and unreachable with no tolerationSeconds (never evicted), NoSchedule for the
 * pressure taints and unschedulable (cordon), and network-unavailable for hostNetwork pods.
 */
export function daemonPodTolerations(spec: PodSpec): Toleration[] {
  const wanted: Toleration[] = [
    { key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_DISK_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_MEMORY_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_PID_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_UNSCHEDULABLE, operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (spec.hostNetwork) wanted.push({ key: TAINT_NETWORK_UNAVAILABLE, operator: 'Exists', effect: 'NoSchedule' });
  const out = [...(spec.tolerations ?? [])];
  for (const w of wanted) {
    const i = out.findIndex((t) => t.key === w.key && t.effect === w.effect);
    if (i >= 0) out[i] = w;
    else out.push(w);
  }
  return out;
}

/**
 * Upstream NodeShouldRunDaemonPod: a daemon pod should run on the node when the node
 * selector matches and every NoSchedule/NoExecute taint is tolerated; one already there
 * may continue running while every NoExecute taint is tolerated. spec.unschedulable itself
 * is not looked at: daemon pods bypass the scheduler's cordon check, and the unschedulable
 * taint is tolerated.
 */
export function shouldRunOn(node: Node, spec: PodSpec): { shouldRun: boolean; shouldContinueRunning: boolean } {
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) {
    if (node.metadata.labels?.[k] !== v) return { shouldRun: false, shouldContinueRunning: false };
  }
  const tolerations = daemonPodTolerations(spec);
  const tolerated = (t: Taint) => tolerations.some((tol) => toleratesTaint(tol, t));
  const taints = node.spec?.taints ?? [];
  return {
    shouldRun: taints.every((t) => (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') || tolerated(t)),
    shouldContinueRunning: taints.every((t) => t.effect !== 'NoExecute' || tolerated(t)),
  };
}

import { NodeCondition } from '../api/core';

/** The healthy condition each kubelet reports, with upstream's reasons and messages. */
const HEALTHY: Record<string, Omit<NodeCondition, 'type' | 'lastHeartbeatTime' | 'lastTransitionTime'>> = {
  OutOfDisk: {
    status: 'False',
    reason: 'KubeletHasSufficientDisk',
    message: 'kubelet has sufficient disk space available',
  },
  MemoryPressure: {
    status: 'False',
    reason: 'KubeletHasSufficientMemory',
    message: 'kubelet has sufficient memory available',
  },
  DiskPressure: { status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
  PIDPressure: { status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
  Ready: { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
};

/** Node events the kubelet records when a condition takes its healthy value. */
export const HEALTHY_EVENT: Record<string, string> = {
  OutOfDisk: 'NodeHasSufficientDisk',
  MemoryPressure: 'NodeHasSufficientMemory',
  DiskPressure: 'NodeHasNoDiskPressure',
  PIDPressure: 'NodeHasSufficientPID',
  Ready: 'NodeReady',
};

/**
 * The kubelet's view of its conditions at `now`: heartbeat always now, transition time
 * kept while the status is unchanged (upstream setNodeReadyCondition and friends).
 */
export function kubeletConditions(
  types: string[],
  previous: NodeCondition[] | undefined,
  now: string,
  overrides: Record<string, Partial<NodeCondition>> = {},
): NodeCondition[] {
  const out: NodeCondition[] = [];
  for (const type of types) {
    const want = { ...HEALTHY[type], ...overrides[type] };
    if (!want.status) throw new Error(`no healthy value known for condition ${type}`);
    const prev = previous?.find((c) => c.type === type);
    out.push({
      type,
      status: want.status,
      lastHeartbeatTime: now,
      lastTransitionTime: prev && prev.status === want.status ? prev.lastTransitionTime : now,
      reason: want.reason,
      message: want.message,
    });
  }
  // Conditions the kubelet does not own (NetworkUnavailable) are left as others set them.
  for (const c of previous ?? []) if (!types.includes(c.type)) out.push(c);
  return out;
}

import { Node, Taint } from '../../api/core';
import {
  TAINT_DISK_PRESSURE,
  TAINT_MEMORY_PRESSURE,
  TAINT_NETWORK_UNAVAILABLE,
  TAINT_NOT_READY,
  TAINT_PID_PRESSURE,
  TAINT_UNREACHABLE,
  TAINT_UNSCHEDULABLE,
} from '../../api/taints';

/** The seed's release (v1.12) still had the OutOfDisk condition, and a taint for it. */
export const TAINT_OUT_OF_DISK = 'node.kubernetes.io/out-of-disk';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { swapNodeTaints } from '../node-writes';
import { ControllerBase } from '../controller-base';

/** Condition (type, status) → NoSchedule taint key (upstream nodeConditionToTaintKeyStatusMap). */
const CONDITION_TAINTS: { type: string; status: string; key: string }[] = [
  { type: 'Ready', status: 'False', key: TAINT_NOT_READY },
  { type: 'Ready', status: 'Unknown', key: TAINT_UNREACHABLE },
  { type: 'MemoryPressure', status: 'True', key: TAINT_MEMORY_PRESSURE },
  { type: 'DiskPressure', status: 'True', key: TAINT_DISK_PRESSURE },
  { type: 'NetworkUnavailable', status: 'True', key: TAINT_NETWORK_UNAVAILABLE },
  { type: 'PIDPressure', status: 'True', key: TAINT_PID_PRESSURE },
];
/** v1.12's map also had OutOfDisk True → out-of-disk (dropped with the condition in v1.13). */
const LEGACY_CONDITION_TAINTS = [...CONDITION_TAINTS, { type: 'OutOfDisk', status: 'True', key: TAINT_OUT_OF_DISK }];
const MANAGED_KEYS = new Set([...LEGACY_CONDITION_TAINTS.map((c) => c.key), TAINT_UNSCHEDULABLE]);

/**
 * doNoScheduleTaintingPass's rule: the NoSchedule taints a node should carry for its
 * conditions and spec.unschedulable, and the difference from what it carries. Only
 * NoSchedule taints with the managed keys are compared; every other taint is left alone.
 */
export function noScheduleTaintChanges(node: Node, outOfDisk = false): { add: Taint[]; remove: Taint[] } {
  const want: Taint[] = [];
  const map = outOfDisk ? LEGACY_CONDITION_TAINTS : CONDITION_TAINTS;
  for (const c of node.status?.conditions ?? []) {
    for (const m of map)
      if (m.type === c.type && m.status === c.status) want.push({ key: m.key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) want.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
  const have = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' && MANAGED_KEYS.has(t.key));
  return {
    add: want.filter((w) => !have.some((h) => h.key === w.key)),
    remove: have.filter((h) => !want.some((w) => w.key === h.key)),
  };
}

/**
 * TaintNodesByCondition in the node lifecycle controller: every node add or update is
 * queued and its NoSchedule taints reconciled at once, with no rate limit.
 */
export class NoScheduleTaintController extends ControllerBase {
  private readonly nodes: Informer<Node>;
  private readonly queue: WorkQueue;

  constructor(
    ctx: ControllerContext,
    private readonly options: { outOfDisk?: boolean } = {},
  ) {
    super(ctx);
    this.nodes = ctx.informer<Node>({ resource: 'nodes' });
    this.queue = ctx.workQueue((key) => this.sync(key), {
      name: 'node-noschedule-taints',
      workers: 8,
    });
  }

  run(): void {
    this.ctx.handle(this.nodes, {
      onAdd: (n) => this.queue.add(n.metadata.name!),
      onUpdate: (_o, n) => this.queue.add(n.metadata.name!),
    });
  }

  async sync(name: string): Promise<void> {
    const node = this.nodes.getByName(name);
    if (!node) return;
    const { add, remove } = noScheduleTaintChanges(node, this.options.outOfDisk ?? false);
    if (add.length === 0 && remove.length === 0) return;
    if (!(await swapNodeTaints(this.client, name, add, remove, this.clock.now(), node)) && this.nodes.getByName(name)) {
      throw new Error(`failed to swap taints of node ${name}`);
    }
  }
}

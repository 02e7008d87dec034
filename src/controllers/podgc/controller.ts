import { Node, Pod } from '../../api/core';
import { isStatusError } from '../../api/errors';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { withPodCondition } from '../node-writes';
import { POD_NODE_INDEX, podsByNode } from '../pod-index';
import { ControllerBase } from '../controller-base';

/** Upstream gcCheckPeriod. */
export const GC_CHECK_PERIOD_MS = 20_000;
/** Upstream quarantineTime: how long a missing node must stay missing before its pods go. */
export const QUARANTINE_MS = 40_000;

export interface PodGCOptions {
  /** Wait QUARANTINE_MS and ask the API server before deleting (v1.19+); v1.12 deleted at once. */
  quarantine: boolean;
}

/**
 * The pod garbage collector's gcOrphaned (pkg/controller/podgc): pods bound to a node
 * that no longer exists are force-deleted (grace 0), after marking them Failed with a
 * DisruptionTarget condition. This is how `kubectl delete node` removes the pods of an
 * unreachable node that are stuck Terminating (NODE-PARTITION).
 */
export class PodGCController extends ControllerBase {
  private readonly nodes: Informer<Node>;
  private readonly pods: Informer<Pod>;
  /** Missing node → when its quarantine ends. */
  private readonly quarantine = new Map<string, number>();

  constructor(
    ctx: ControllerContext,
    private readonly options: PodGCOptions,
  ) {
    super(ctx);
    this.nodes = ctx.informer<Node>({ resource: 'nodes' });
    this.pods = ctx.informer<Pod>({ resource: 'pods' });
    this.pods.addIndexer(POD_NODE_INDEX, podsByNode);
  }

  /** Whether some pod is bound to a node the cache does not know (one look per node, not per pod). */
  private anyOrphan(): boolean {
    for (const node of this.pods.indexValues(POD_NODE_INDEX)) if (!this.nodes.getByName(node)) return true;
    return false;
  }

  run(): void {
    this.ctx.run(() => this.gc());
    this.ctx.every(GC_CHECK_PERIOD_MS, () => this.gc());
  }

  async gc(): Promise<void> {
    const now = this.clock.now();
    const orphans = !this.anyOrphan()
      ? []
      : this.pods.list().filter((p) => p.spec.nodeName && !this.nodes.getByName(p.spec.nodeName));
    if (orphans.length === 0) {
      this.quarantine.clear();
      return;
    }
    const gone = new Set<string>();
    for (const pod of orphans) {
      const node = pod.spec.nodeName!;
      if (!this.options.quarantine) {
        gone.add(node);
        continue;
      }
      if (!this.quarantine.has(node)) this.quarantine.set(node, now + QUARANTINE_MS);
    }
    for (const [node, until] of [...this.quarantine]) {
      if (until > now) continue;
      this.quarantine.delete(node);
      if (this.nodes.getByName(node)) continue;
      try {
        await this.client.get<Node>({ resource: 'nodes' }, node);
      } catch (e) {
        if (isStatusError(e, 'NotFound')) gone.add(node);
      }
    }
    for (const pod of orphans) if (gone.has(pod.spec.nodeName!)) await this.deleteOrphan(pod);
  }

  private async deleteOrphan(pod: Pod): Promise<void> {
    const ref = { resource: 'pods', namespace: pod.metadata.namespace };
    try {
      if (pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed') {
        const marked = withPodCondition(
          pod,
          {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'DeletionByPodGC',
            message: 'PodGC: node no longer exists',
          },
          this.clock.now(),
        );
        const next = marked ?? { ...pod };
        next.status = { ...next.status, phase: 'Failed' };
        await this.client.update<Pod>(ref, next, { subresource: 'status' });
      }
      await this.client.delete(ref, pod.metadata.name!, { gracePeriodSeconds: 0 });
    } catch (e) {
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
    }
  }
}

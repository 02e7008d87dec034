import { jsonEqual } from '../../api/meta';
import { TimerHandle } from '../../clock';
import { Node, Pod, Taint } from '../../api/core';
import { isStatusError } from '../../api/errors';
import { EventRecorder } from '../../client/events';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { POD_NODE_INDEX, podsByNode } from '../pod-index';
import { withPodCondition } from '../node-writes';
import { matchingTolerations, minTolerationTime } from './tolerations';
import { ControllerBase } from '../controller-base';

interface Work {
  createdAt: number;
  fireAt: number;
  timer?: TimerHandle;
}

const podKey = (p: Pod) => `${p.metadata.namespace}/${p.metadata.name}`;

/**
 * The taint eviction controller (pkg/controller/tainteviction; the node lifecycle
 * controller's taint manager before SeparateTaintEvictionController): deletes pods from
 * nodes with NoExecute taints they do not tolerate — at once, or after the smallest
 * tolerationSeconds of the tolerations used, counted from when it sees the taint.
 */
export class TaintEvictionController extends ControllerBase {
  private readonly nodes: Informer<Node>;
  private readonly pods: Informer<Pod>;
  private readonly taintedNodes = new Map<string, Taint[]>();
  private readonly work = new Map<string, Work>();
  private readonly events: EventRecorder;

  constructor(ctx: ControllerContext) {
    super(ctx);
    this.nodes = ctx.informer<Node>({ resource: 'nodes' });
    this.pods = ctx.informer<Pod>({ resource: 'pods' });
    this.pods.addIndexer(POD_NODE_INDEX, podsByNode);
    this.events = ctx.events({ component: 'taint-eviction-controller' });
  }

  run(): void {
    this.ctx.handle(this.nodes, {
      onAdd: (n) => this.handleNodeUpdate(n),
      onUpdate: (_o, n) => this.handleNodeUpdate(n),
      onDelete: (n) => this.handleNodeUpdate(n, true),
    });
    this.ctx.handle(this.pods, {
      onAdd: (p) => this.handlePodUpdate(p),
      onUpdate: (o, p) => {
        if (o.spec.nodeName !== p.spec.nodeName || !jsonEqual(o.spec.tolerations, p.spec.tolerations))
          this.handlePodUpdate(p);
      },
      onDelete: (p) => this.cancelWork(podKey(p), false),
    });
  }

  override stop(): Promise<void> {
    this.work.clear();
    return super.stop();
  }

  /** Pods whose deletion is scheduled, with the time it fires (for diagnostics). */
  scheduled(): Map<string, number> {
    return new Map([...this.work].map(([k, w]) => [k, w.fireAt]));
  }

  private handleNodeUpdate(node: Node, deleted = false): void {
    const name = node.metadata.name!;
    const taints = deleted ? [] : (node.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
    const before = this.taintedNodes.get(name) ?? [];
    if (taints.length === 0) this.taintedNodes.delete(name);
    else this.taintedNodes.set(name, taints);
    if (
      jsonEqual(
        before.map((t) => [t.key, t.value, t.effect]),
        taints.map((t) => [t.key, t.value, t.effect]),
      )
    )
      return;
    const pods = this.pods.byIndex(POD_NODE_INDEX, name);
    if (taints.length === 0) {
      for (const p of pods) this.cancelWork(podKey(p), true, p);
      return;
    }
    const now = this.clock.now();
    for (const p of pods) this.processPodOnNode(p, taints, now);
  }

  private handlePodUpdate(pod: Pod): void {
    const node = pod.spec.nodeName;
    if (!node) return;
    const taints = this.taintedNodes.get(node);
    if (!taints) {
      this.cancelWork(podKey(pod), true, pod);
      return;
    }
    this.processPodOnNode(pod, taints, this.clock.now());
  }

  /** Upstream processPodOnNode. */
  private processPodOnNode(pod: Pod, taints: Taint[], now: number): void {
    const key = podKey(pod);
    const { all, used } = matchingTolerations(taints, pod.spec.tolerations ?? []);
    if (!all) {
      this.cancelWork(key, false);
      this.addWork(pod, now, now);
      return;
    }
    const min = minTolerationTime(used);
    if (min < 0) {
      this.cancelWork(key, true, pod);
      return;
    }
    const trigger = now + min;
    const existing = this.work.get(key);
    if (existing && existing.createdAt + min < trigger) return; // already scheduled earlier: keep it
    this.cancelWork(key, false);
    this.addWork(pod, now, trigger);
  }

  private addWork(pod: Pod, createdAt: number, fireAt: number): void {
    const key = podKey(pod);
    if (this.work.has(key)) return;
    const w: Work = { createdAt, fireAt };
    this.work.set(key, w);
    const fire = () => {
      if (this.work.get(key) !== w) return;
      this.work.delete(key);
      this.ctx.go(this.deletePod(pod));
    };
    if (fireAt - createdAt <= 0) fire();
    else w.timer = this.ctx.after(fireAt - createdAt, fire);
  }

  private cancelWork(key: string, announce: boolean, pod?: Pod): void {
    const w = this.work.get(key);
    if (!w) return;
    this.ctx.cancel(w.timer);
    this.work.delete(key);
    if (announce && pod && w.timer)
      this.events.normal(pod, 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
  }

  /** Upstream addConditionAndDeletePod: DisruptionTarget condition, then delete (up to 5 tries). */
  private async deletePod(pod: Pod): Promise<void> {
    const ref = { resource: 'pods', namespace: pod.metadata.namespace };
    this.events.normal(pod, 'TaintManagerEviction', `Marking for deletion Pod ${podKey(pod)}`);
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const current = await this.client.get<Pod>(ref, pod.metadata.name!);
        const next = withPodCondition(
          current,
          {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'DeletionByTaintManager',
            message: 'Taint manager: deleting due to NoExecute taint',
          },
          this.clock.now(),
        );
        if (next) await this.client.update<Pod>(ref, next, { subresource: 'status' });
        await this.client.delete(ref, pod.metadata.name!);
        return;
      } catch (e) {
        if (isStatusError(e, 'NotFound')) return;
        if (!isStatusError(e, 'Conflict')) throw e;
      }
    }
    throw new Error(`pod ${podKey(pod)} was not deleted: 5 conflicting writes`);
  }
}

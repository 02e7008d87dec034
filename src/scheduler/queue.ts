import { Pod } from '../api/core';
import { BinaryHeap } from '../clock/heap';

interface Entry {
  key: string;
  pod: Pod;
  priority: number;
  seq: number;
}

/**
 * The scheduling queue (v1.12 PriorityQueue): activeQ holds pods to try, highest
 * spec.priority first, then first come first served; unschedulableQ holds pods that did
 * not fit, until something changes in the cluster that could make them fit
 * (MoveAllToActiveQueue: a node added or changed, a scheduled pod deleted, a service
 * changed). A move that happens while a pod is being scheduled sends that pod straight
 * back to activeQ if it fails (receivedMoveRequest).
 */
export class SchedulingQueue {
  private readonly heap = new BinaryHeap<Entry>(before);
  private readonly active = new Map<string, Entry>();
  private readonly unschedulable = new Map<string, Pod>();
  private seq = 0;
  private receivedMoveRequest = false;

  get length(): number {
    return this.active.size;
  }

  get unschedulableCount(): number {
    return this.unschedulable.size;
  }

  /** A new or updated pending pod: to activeQ (an updated unschedulable pod gets another try). */
  add(key: string, pod: Pod): void {
    this.unschedulable.delete(key);
    const existing = this.active.get(key);
    if (existing) {
      existing.pod = pod;
      return;
    }
    this.push(key, pod);
  }

  /** An update to a pod already waiting: refresh it where it waits. */
  update(key: string, pod: Pod): void {
    if (this.unschedulable.has(key)) {
      this.unschedulable.delete(key);
      this.push(key, pod);
      return;
    }
    const existing = this.active.get(key);
    if (existing) existing.pod = pod;
    else this.push(key, pod);
  }

  delete(key: string): void {
    this.unschedulable.delete(key);
    const e = this.active.get(key);
    if (e) {
      this.active.delete(key);
      e.key = ''; // left in the heap, skipped on pop
    }
  }

  pop(): { key: string; pod: Pod } | undefined {
    while (this.heap.length > 0) {
      const e = this.heap.pop()!;
      if (!e.key || this.active.get(e.key) !== e) continue;
      this.active.delete(e.key);
      this.receivedMoveRequest = false;
      return { key: e.key, pod: e.pod };
    }
    return undefined;
  }

  /** AddUnschedulableIfNotPresent after a failed attempt. */
  addUnschedulable(key: string, pod: Pod): void {
    if (this.active.has(key) || this.unschedulable.has(key)) return;
    if (this.receivedMoveRequest) this.push(key, pod);
    else this.unschedulable.set(key, pod);
  }

  moveAllToActive(): void {
    for (const [key, pod] of this.unschedulable) this.push(key, pod);
    this.unschedulable.clear();
    this.receivedMoveRequest = true;
  }

  private push(key: string, pod: Pod): void {
    const e: Entry = { key, pod, priority: pod.spec.priority ?? 0, seq: this.seq++ };
    this.active.set(key, e);
    this.heap.push(e);
  }
}

function before(a: Entry, b: Entry): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq);
}

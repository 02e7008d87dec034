/**
 * The order in which the scheduler visits nodes (v1.12 schedulercache NodeTree): nodes
 * grouped by zone in the order zones were first seen, visited round-robin across zones,
 * one node of each in turn, continuing where the previous scheduling cycle stopped; when
 * every zone is exhausted all restart from their first node.
 */
export class NodeTree<T extends { name: string } = { name: string }> {
  private readonly zones: string[] = [];
  private readonly tree = new Map<string, { nodes: T[]; last: number }>();
  private listed?: T[];
  private zoneIndex = 0;
  private count = 0;

  get numNodes(): number {
    return this.count;
  }

  add(node: T, zone: string): void {
    let arr = this.tree.get(zone);
    if (!arr) {
      arr = { nodes: [], last: 0 };
      this.tree.set(zone, arr);
      this.zones.push(zone);
    }
    if (arr.nodes.some((n) => n.name === node.name)) return;
    arr.nodes.push(node);
    this.count++;
    this.listed = undefined;
  }

  remove(name: string, zone: string): void {
    const arr = this.tree.get(zone);
    if (!arr) return;
    const i = arr.nodes.findIndex((n) => n.name === name);
    if (i < 0) return;
    arr.nodes.splice(i, 1);
    this.count--;
    this.listed = undefined;
    if (arr.nodes.length === 0) {
      this.tree.delete(zone);
      const z = this.zones.indexOf(zone);
      this.zones.splice(z, 1);
    }
  }

  next(): T | undefined {
    if (this.zones.length === 0) return undefined;
    let exhausted = 0;
    for (;;) {
      if (this.zoneIndex >= this.zones.length) this.zoneIndex = 0;
      const arr = this.tree.get(this.zones[this.zoneIndex++])!;
      if (arr.last < arr.nodes.length) return arr.nodes[arr.last++];
      if (++exhausted >= this.zones.length) {
        for (const a of this.tree.values()) a.last = 0;
        exhausted = 0;
      }
    }
  }

  /** Every node in one full round-robin pass from the first (the framework's snapshot order). */
  list(): readonly T[] {
    if (this.listed) return this.listed;
    const out: T[] = [];
    const cursors = this.zones.map((z) => ({ nodes: this.tree.get(z)!.nodes, i: 0 }));
    for (let added = true; added; ) {
      added = false;
      for (const c of cursors)
        if (c.i < c.nodes.length) {
          out.push(c.nodes[c.i++]);
          added = true;
        }
    }
    this.listed = out;
    return out;
  }
}

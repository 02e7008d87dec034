/**
 * The order in which the scheduler visits nodes (v1.12 schedulercache NodeTree): nodes
 * grouped by zone in the order zones were first seen, visited round-robin across zones,
 * one node of each in turn, continuing where the previous scheduling cycle stopped; when
 * every zone is exhausted all restart from their first node.
 */
export class NodeTree<T extends { name: string; row?: number } = { name: string }> {
  private readonly zones: string[] = [];
  /** Per zone the nodes and, alongside, their table rows (node-table.ts; −1 without one). */
  private readonly tree = new Map<string, { nodes: T[]; rows: number[]; last: number }>();
  /** tree's entries in the order of zones (next() runs per node visited: no Map lookup there). */
  private readonly zoneArrs: { nodes: T[]; rows: number[]; last: number }[] = [];
  private listed?: T[];
  private listedRows?: number[];
  /**
   * The table row of the node next() returned last: the scheduler reads a node's numbers
   * from its row without touching the node object (a cache miss per node at 5000 nodes).
   */
  row = -1;
  private zoneIndex = 0;
  private count = 0;

  get numNodes(): number {
    return this.count;
  }

  add(node: T, zone: string): void {
    let arr = this.tree.get(zone);
    if (!arr) {
      arr = { nodes: [], rows: [], last: 0 };
      this.tree.set(zone, arr);
      this.zones.push(zone);
      this.zoneArrs.push(arr);
    }
    if (arr.nodes.some((n) => n.name === node.name)) return;
    arr.nodes.push(node);
    arr.rows.push(node.row ?? -1);
    this.count++;
    this.listed = undefined;
    this.listedRows = undefined;
  }

  remove(name: string, zone: string): void {
    const arr = this.tree.get(zone);
    if (!arr) return;
    const i = arr.nodes.findIndex((n) => n.name === name);
    if (i < 0) return;
    arr.nodes.splice(i, 1);
    arr.rows.splice(i, 1);
    this.count--;
    this.listed = undefined;
    this.listedRows = undefined;
    if (arr.nodes.length === 0) {
      this.tree.delete(zone);
      const z = this.zones.indexOf(zone);
      this.zones.splice(z, 1);
      this.zoneArrs.splice(z, 1);
    }
  }

  next(): T | undefined {
    if (this.zones.length === 0) return undefined;
    let exhausted = 0;
    for (;;) {
      if (this.zoneIndex >= this.zones.length) this.zoneIndex = 0;
      const arr = this.zoneArrs[this.zoneIndex++];
      if (arr.last < arr.nodes.length) {
        this.row = arr.rows[arr.last];
        return arr.nodes[arr.last++];
      }
      if (++exhausted >= this.zones.length) {
        for (const a of this.zoneArrs) a.last = 0;
        exhausted = 0;
      }
    }
  }

  /** Every node in one full round-robin pass from the first (the framework's snapshot order). */
  list(): readonly T[] {
    if (this.listed) return this.listed;
    const out: T[] = [];
    const rows: number[] = [];
    const cursors = this.zones.map((z) => ({ ...this.tree.get(z)!, i: 0 }));
    for (let added = true; added; ) {
      added = false;
      for (const c of cursors)
        if (c.i < c.nodes.length) {
          rows.push(c.rows[c.i]);
          out.push(c.nodes[c.i++]);
          added = true;
        }
    }
    this.listed = out;
    this.listedRows = rows;
    return out;
  }

  /** The table rows of list(), in the same order. */
  listRows(): readonly number[] {
    this.list();
    return this.listedRows!;
  }
}

/**
 * The keys of a store in key order, for prefix ranges without re-sorting everything after
 * each write. Keys are grouped by resource ("/registry/<resource>/…"): a write to one
 * resource only unsorts that group, a range over one resource only looks at its group,
 * and a group is re-sorted lazily (an array that is sorted but for a few appended keys
 * sorts in near-linear time) and searched by binary search for the prefix.
 */
export class KeyIndex {
  private readonly groups = new Map<string, Group>();

  add(key: string): void {
    const id = groupOf(key);
    let g = this.groups.get(id);
    if (!g) this.groups.set(id, (g = { keys: [], present: new Set(), sorted: true, removed: 0 }));
    g.present.add(key);
    const last = g.keys[g.keys.length - 1];
    // >= : a key deleted and created again is listed twice until the next sort.
    if (g.sorted && last !== undefined && last >= key) g.sorted = false;
    g.keys.push(key);
  }

  remove(key: string): void {
    const g = this.groups.get(groupOf(key));
    if (!g?.present.delete(key)) return;
    g.removed++;
  }

  /** Every key starting with prefix, in key order. */
  range(prefix: string): string[] {
    const id = groupOf(prefix);
    if (id.length > 0 && prefix.startsWith(id)) {
      const g = this.groups.get(id);
      return g ? inGroup(g, prefix) : [];
    }
    // A prefix shorter than a group (or keys outside /registry/): every group, sorted.
    const out: string[] = [];
    for (const g of this.groups.values()) for (const k of inGroup(g, prefix)) out.push(k);
    return out.sort();
  }

  count(prefix: string): number {
    const id = groupOf(prefix);
    if (id.length > 0 && prefix === id) return this.groups.get(id)?.present.size ?? 0;
    return this.range(prefix).length;
  }
}

interface Group {
  keys: string[];
  present: Set<string>;
  sorted: boolean;
  /** Keys deleted from present but still in keys. */
  removed: number;
}

const PREFIX = '/registry/';

/** "/registry/<resource>/" for keys (and prefixes) that reach that far, else "". */
function groupOf(key: string): string {
  if (!key.startsWith(PREFIX)) return '';
  const end = key.indexOf('/', PREFIX.length);
  return end < 0 ? '' : key.slice(0, end + 1);
}

function tidy(g: Group): void {
  if (g.removed > 0) {
    g.keys = g.keys.filter((k) => g.present.has(k));
    g.removed = 0;
  }
  if (!g.sorted) {
    g.keys.sort();
    let w = 0;
    for (let r = 0; r < g.keys.length; r++) if (r === 0 || g.keys[r] !== g.keys[r - 1]) g.keys[w++] = g.keys[r];
    g.keys.length = w;
    g.sorted = true;
  }
}

function inGroup(g: Group, prefix: string): string[] {
  tidy(g);
  const keys = g.keys;
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < keys.length && keys[i].startsWith(prefix); i++) out.push(keys[i]);
  return out;
}

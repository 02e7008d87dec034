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
    if (!g) {
      const present = new Set<string>();
      this.groups.set(id, (g = { present, keys: new LazySortedKeys((k) => present.has(k)) }));
    }
    g.present.add(key);
    g.keys.added(key);
  }

  remove(key: string): void {
    const g = this.groups.get(groupOf(key));
    if (!g?.present.delete(key)) return;
    g.keys.deleted();
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
  present: Set<string>;
  keys: LazySortedKeys;
}

const PREFIX = '/registry/';

/** "/registry/<resource>/" for keys (and prefixes) that reach that far, else "". */
function groupOf(key: string): string {
  if (!key.startsWith(PREFIX)) return '';
  const end = key.indexOf('/', PREFIX.length);
  return end < 0 ? '' : key.slice(0, end + 1);
}

function inGroup(g: Group, prefix: string): string[] {
  const keys = g.keys.ordered();
  const out: string[] = [];
  for (let i = lowerBound(keys, prefix); i < keys.length && keys[i].startsWith(prefix); i++) out.push(keys[i]);
  return out;
}

/**
 * The keys of a set whose membership its owner keeps, in key order: a new key is appended,
 * and the array is sorted (and rid of keys gone or repeated) only when it is read. An array
 * that is sorted but for a few appended keys sorts in near-linear time; inserting each new
 * key in its place instead moves half the array each time, quadratic over hundreds of
 * thousands of keys. The store's key index and the API server's watch cache both keep one.
 */
export class LazySortedKeys {
  private keys: string[] = [];
  private sorted = true;
  /** Keys gone from the set but still in keys. */
  private removed = 0;

  /** has: whether a key is in the set now (the owner's own record of it). */
  constructor(private readonly has: (key: string) => boolean) {}

  /** A key that joined the set. */
  added(key: string): void {
    const last = this.keys[this.keys.length - 1];
    // >= : a key deleted and created again is listed twice until the next sort.
    if (this.sorted && last !== undefined && last >= key) this.sorted = false;
    this.keys.push(key);
  }

  /** A key that left the set. */
  deleted(): void {
    this.removed++;
  }

  clear(): void {
    this.keys = [];
    this.sorted = true;
    this.removed = 0;
  }

  /** The keys in order (not to be changed by the caller). */
  ordered(): readonly string[] {
    if (this.removed > 0) {
      this.keys = this.keys.filter((k) => this.has(k));
      this.removed = 0;
    }
    if (!this.sorted) {
      const keys = this.keys.sort();
      let w = 0;
      for (let r = 0; r < keys.length; r++) if (r === 0 || keys[r] !== keys[r - 1]) keys[w++] = keys[r];
      keys.length = w;
      this.sorted = true;
    }
    return this.keys;
  }
}

/** The first index of sorted keys whose key is ≥ key. */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Hands out pod IPs from the node's pod CIDR (IPv4), skipping network and gateway (.0, .1). */
export class PodIPAllocator {
  private readonly base: number;
  private readonly size: number;
  private next = 2;
  private readonly byOwner = new Map<string, number>();
  private readonly used = new Set<number>();

  constructor(readonly cidr: string) {
    const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(cidr);
    if (!m) throw new Error(`invalid IPv4 CIDR ${cidr}`);
    const bits = Number(m[5]);
    this.base = ((Number(m[1]) << 24) | (Number(m[2]) << 16) | (Number(m[3]) << 8) | Number(m[4])) >>> 0;
    this.size = 2 ** (32 - bits);
  }

  allocate(owner: string): string | undefined {
    const have = this.byOwner.get(owner);
    if (have !== undefined) return toIP(this.base + have);
    for (let tries = 0; tries < this.size; tries++) {
      const offset = this.next;
      this.next = this.next + 1 >= this.size - 1 ? 2 : this.next + 1;
      if (!this.used.has(offset)) {
        this.used.add(offset);
        this.byOwner.set(owner, offset);
        return toIP(this.base + offset);
      }
    }
    return undefined;
  }

  release(owner: string): void {
    const offset = this.byOwner.get(owner);
    if (offset === undefined) return;
    this.byOwner.delete(owner);
    this.used.delete(offset);
  }
}

function toIP(n: number): string {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

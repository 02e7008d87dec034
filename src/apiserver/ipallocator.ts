import { ipv4ToNumber, numberToIPv4 } from '../api/ipv4';

/**
 * A bitmap over a contiguous range of integers (IPv4 addresses as numbers, or ports), as
 * upstream's allocator.AllocationBitmap: allocate a given value, allocate the next free
 * one, release. Upstream scans from a random offset; this one scans in order from where
 * the last allocation ended, so runs are reproducible (scenarios assert distinctness and
 * range, never which free value comes next).
 */
export class RangeAllocator {
  private readonly used = new Set<number>();
  private next: number;

  constructor(
    readonly first: number,
    readonly size: number,
    dynamicStart = first,
  ) {
    this.next = dynamicStart;
  }

  contains(value: number): boolean {
    return value >= this.first && value < this.first + this.size;
  }

  has(value: number): boolean {
    return this.used.has(value);
  }

  get free(): number {
    return this.size - this.used.size;
  }

  /** Reserves a value; false when it is taken (outside the range is the caller's check). */
  allocate(value: number): boolean {
    if (!this.contains(value) || this.used.has(value)) return false;
    this.used.add(value);
    return true;
  }

  /** The next free value, preferring the dynamic part of the range; undefined when full. */
  allocateNext(): number | undefined {
    const end = this.first + this.size;
    for (let i = 0; i < this.size; i++) {
      const v = this.next;
      this.next = v + 1 >= end ? this.first : v + 1;
      if (!this.used.has(v)) {
        this.used.add(v);
        return v;
      }
    }
    return undefined;
  }

  release(value: number): void {
    this.used.delete(value);
  }
}

/** Parses an IPv4 CIDR: its network address and size. */
export function parseCIDR(cidr: string): { base: number; size: number } {
  const m = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(cidr.trim());
  const ip = m ? ipv4ToNumber(m[1]) : undefined;
  if (!m || ip === undefined || Number(m[2]) > 30)
    throw new Error(`invalid service CIDR "${cidr}" (want an IPv4 network such as 10.96.0.0/12)`);
  const bits = Number(m[2]);
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { base: (ip & mask) >>> 0, size: 2 ** (32 - bits) };
}

/**
 * Service cluster IPs from --service-cluster-ip-range (upstream ipallocator.Range): the
 * network and broadcast addresses are never handed out, so the first address is
 * network+1 (10.96.0.1 in 10.96.0.0/12, the `kubernetes` service's). Dynamic allocation
 * starts above the static band (upstream ServiceIPStaticSubrange: min(max(16, size/16), 256)
 * addresses), which is left to services that ask for a specific address.
 */
export class ServiceIPRange {
  private readonly bitmap: RangeAllocator;

  constructor(readonly cidr: string) {
    const { base, size } = parseCIDR(cidr);
    const usable = size - 2;
    const staticBand = Math.min(Math.max(16, Math.floor(usable / 16)), 256);
    this.bitmap = new RangeAllocator(base + 1, usable, base + 1 + Math.min(staticBand, usable - 1));
  }

  /** The first usable address: the `kubernetes` service's. */
  get firstIP(): string {
    return numberToIPv4(this.bitmap.first);
  }

  allocate(ip: string): 'ok' | 'taken' | 'out-of-range' {
    const n = ipv4ToNumber(ip);
    if (n === undefined || !this.bitmap.contains(n)) return 'out-of-range';
    return this.bitmap.allocate(n) ? 'ok' : 'taken';
  }

  allocateNext(): string | undefined {
    const n = this.bitmap.allocateNext();
    return n === undefined ? undefined : numberToIPv4(n);
  }

  release(ip: string): void {
    const n = ipv4ToNumber(ip);
    if (n !== undefined) this.bitmap.release(n);
  }
}

import { ipv4ToNumber, numberToIPv4 } from '../api/ipv4';
import { KubeObject } from '../api/meta';
import { Store, StoreError } from '../store';
import { retryOnRevisionMismatch } from './storage-retry';

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

  /** The values taken, in no particular order. */
  values(): number[] {
    return [...this.used];
  }

  /**
   * The bitmap as upstream's AllocationBitmap.Snapshot stores it: the bytes of the integer
   * whose bit i says whether first+i is taken, big-endian with no leading zero byte
   * (big.Int.Bytes; nothing taken is no byte at all), here base64 as JSON carries []byte.
   */
  snapshot(): string {
    let top = -1;
    for (const v of this.used) top = Math.max(top, v - this.first);
    const bytes = new Uint8Array(top < 0 ? 0 : (top >> 3) + 1);
    for (const v of this.used) {
      const i = v - this.first;
      bytes[bytes.length - 1 - (i >> 3)] |= 1 << (i & 7);
    }
    return Buffer.from(bytes).toString('base64');
  }

  /** Takes exactly the values a snapshot names (bits beyond the range are dropped); the scan position stays. */
  restore(data: string): void {
    this.used.clear();
    const bytes = Buffer.from(data, 'base64');
    for (let b = 0; b < bytes.length; b++) {
      const byte = bytes[bytes.length - 1 - b];
      for (let bit = 0; bit < 8; bit++) {
        const i = b * 8 + bit;
        if (byte & (1 << bit) && i < this.size) this.used.add(this.first + i);
      }
    }
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
  readonly bitmap: RangeAllocator;

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

/** Upstream's RangeAllocation (the internal core type): a range and its bitmap, kept at /registry/ranges/<name>. */
export interface RangeAllocation extends KubeObject {
  /** The range it covers: the service CIDR, or "first-last" for node ports. */
  range: string;
  /** The bitmap, as RangeAllocator.snapshot gives it. */
  data: string;
}

/**
 * How far the releases of deleted objects' values have gone: the revision of the last
 * deletion whose values were released (see StoredRange.releaseDeleted). An annotation, so
 * the object keeps upstream's shape.
 */
export const RELEASED_THROUGH = 'kubespec.io/released-through-revision';

/** What a change of the bitmap gives back, and whether the bitmap is to be written. */
type Change<R> = { result: R; write: false } | { result: R; write: true; releasedThrough?: number };

/**
 * A RangeAllocator kept in the store, as upstream's allocator/storage.Etcd: every change reads
 * the RangeAllocation, changes the bitmap, and writes it back guarded by the mod revision it
 * read, starting over when another writer (another API server on the same etcd) wrote first.
 * Two servers that pick the same free value at the same instant therefore never both get it:
 * one write lands, the other reads again and takes another. A server's own changes run one
 * at a time (upstream's mutex), so the only conflicts are with other servers. The bitmap read
 * last is kept and restored again only when the stored version moved (upstream's `last`).
 */
export class StoredRange {
  private queue: Promise<void> = Promise.resolve();
  /** The mod revision the local bitmap was restored from or written at; 0: read it again. */
  private last = 0;

  constructor(
    private readonly store: Store,
    readonly key: string,
    readonly spec: string,
    private readonly bits: RangeAllocator,
  ) {}

  /**
   * Makes sure the range object exists and marks every value in `held` (what stored objects
   * hold, as upstream's repair loop finds them). A stored range for another spec (the flag
   * changed) is rebuilt from `held` alone. Values set but not held stay set: another server
   * may have reserved one for a create still in flight (upstream frees such leaks only after
   * seeing them several repair passes in a row).
   */
  async init(held: number[]): Promise<void> {
    await this.serial(async () => {
      const fresh = (): RangeAllocation => {
        this.bits.restore('');
        for (const v of held) this.bits.allocate(v);
        return {
          kind: 'RangeAllocation',
          apiVersion: 'v1',
          metadata: {},
          range: this.spec,
          data: this.bits.snapshot(),
        };
      };
      try {
        this.last = (await this.store.create(this.key, fresh())).modRevision;
        return;
      } catch (e) {
        if (!(e instanceof StoreError && e.code === 'KeyExists')) throw e;
      }
      await retryOnRevisionMismatch(async (guard) => {
        const kv = await this.store.get<RangeAllocation>(this.key);
        if (!kv)
          throw new StoreError('KeyNotFound', this.key, `${this.key} was deleted while it was being initialized`);
        let value: RangeAllocation;
        if (kv.value.range !== this.spec) value = { ...fresh(), metadata: {} };
        else {
          this.bits.restore(kv.value.data);
          const missing = held.filter((v) => this.bits.contains(v) && !this.bits.has(v));
          if (missing.length === 0) {
            this.last = kv.modRevision;
            return;
          }
          for (const v of missing) this.bits.allocate(v);
          value = { ...kv.value, data: this.bits.snapshot() };
        }
        this.last = 0;
        this.last = (await guard(() => this.store.update(this.key, value, kv.modRevision))).modRevision;
      });
    });
  }

  /** Takes the value; false when it is taken or outside the range. */
  allocate(value: number): Promise<boolean> {
    return this.change((bits) => {
      const ok = bits.allocate(value);
      return ok ? { result: true, write: true } : { result: false, write: false };
    });
  }

  /** Takes the next free value; undefined when the range is full. */
  allocateNext(): Promise<number | undefined> {
    return this.change((bits) => {
      const v = bits.allocateNext();
      return v === undefined ? { result: undefined, write: false } : { result: v, write: true };
    });
  }

  /** Whether allocate(value) would take it now, taking nothing (a dry run). */
  isFree(value: number): Promise<boolean> {
    return this.change((bits) => ({ result: bits.contains(value) && !bits.has(value), write: false }));
  }

  /** The value allocateNext would take now, taking nothing (a dry run). */
  peekNext(): Promise<number | undefined> {
    return this.change((bits) => {
      const v = bits.allocateNext();
      if (v !== undefined) bits.release(v);
      return { result: v, write: false };
    });
  }

  /** Gives values back that this server took for a create that then failed. */
  release(values: number[]): Promise<void> {
    return this.change((bits) => {
      const held = values.filter((v) => bits.has(v));
      for (const v of held) bits.release(v);
      return { result: undefined, write: held.length > 0 };
    });
  }

  /**
   * Gives back the values an object deleted at `revision` held. Every API server sees every
   * deletion (its watch) and calls this, in revision order: the first to get here releases
   * and records the revision in RELEASED_THROUGH, the others find it recorded and leave the
   * bitmap alone. Releasing twice would be wrong: by the second time, the value may already
   * belong to a new object another server created.
   */
  releaseDeleted(values: number[], revision: number): Promise<void> {
    return this.change((bits, releasedThrough) => {
      if (releasedThrough >= revision) return { result: undefined, write: false };
      for (const v of values) bits.release(v);
      return { result: undefined, write: true, releasedThrough: revision };
    });
  }

  private change<R>(fn: (bits: RangeAllocator, releasedThrough: number) => Change<R>): Promise<R> {
    return this.serial(() =>
      retryOnRevisionMismatch(async (guard) => {
        const kv = await this.store.get<RangeAllocation>(this.key);
        // Upstream: "cannot allocate resources of type serviceipallocations at this time".
        if (!kv) throw new Error(`cannot allocate from ${this.key} at this time: the range is not initialized`);
        if (kv.value.range !== this.spec)
          throw new Error(
            `${this.key} covers ${kv.value.range}, not ${this.spec}: the range changed under this server`,
          );
        if (kv.modRevision !== this.last) {
          this.bits.restore(kv.value.data);
          this.last = kv.modRevision;
        }
        const released = Number(kv.value.metadata.annotations?.[RELEASED_THROUGH] ?? 0);
        const out = fn(this.bits, released);
        if (!out.write) return out.result;
        this.last = 0; // the local bitmap is ahead of the store until the write lands
        const annotations =
          out.releasedThrough === undefined
            ? kv.value.metadata.annotations
            : { ...kv.value.metadata.annotations, [RELEASED_THROUGH]: String(out.releasedThrough) };
        const value: RangeAllocation = {
          ...kv.value,
          metadata: { ...kv.value.metadata, ...(annotations ? { annotations } : {}) },
          data: this.bits.snapshot(),
        };
        this.last = (await guard(() => this.store.update(this.key, value, kv.modRevision))).modRevision;
        return out.result;
      }),
    );
  }

  /** Runs fn after every change started before it has finished (upstream's mutex). */
  private async serial<R>(fn: () => Promise<R>): Promise<R> {
    const before = this.queue;
    let done!: () => void;
    this.queue = new Promise<void>((resolve) => {
      done = resolve;
    });
    await before;
    try {
      return await fn();
    } finally {
      done();
    }
  }
}

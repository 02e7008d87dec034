import { ipv4ToNumber, numberToIPv4 } from '../../api/ipv4';

/**
 * Upstream CidrSet (pkg/controller/nodeipam/ipam/cidrset/cidr_set.go), IPv4: the cluster
 * CIDR cut into node-sized blocks, handed out round-robin from a cursor.
 *
 * One class serves both profiles: for IPv4, v1.12 and v1.32 agree block for block. v1.12's
 * AllocateNext scans from nextCandidate for a clear bit (no counter; a full scan is
 * exhaustion); v1.32 first compares allocatedCIDRs with maxCIDRs, then scans the same way.
 * Both move the cursor to the block after the one handed out, and neither Release nor Occupy
 * moves it (so a released block comes back only when the cursor wraps round to it). Both
 * take the cluster IP masked (net.ParseCIDR), index a block by XOR with it, and give
 * Occupy/Release every node-sized block a CIDR covers, the whole range for a CIDR that
 * contains the cluster CIDR (getBeginningAndEndIndices: begin 0, end maxCIDRs-1).
 */

export class CIDRSetError extends Error {}

export const ERR_NO_CIDRS_REMAINING =
  'CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range';

function parseIPv4(ip: string): number {
  const n = ipv4ToNumber(ip);
  if (n === undefined) throw new CIDRSetError(`invalid IP address: ${ip}`);
  return n;
}

export function parseCIDR(cidr: string): { ip: number; bits: number } {
  const m = /^([^/]+)\/(\d{1,2})$/.exec(cidr.trim());
  if (!m || Number(m[2]) > 32) throw new CIDRSetError(`invalid CIDR address: ${cidr}`);
  return { ip: parseIPv4(m[1]), bits: Number(m[2]) };
}

const maskOf = (bits: number) => (bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0);

export class CidrSet {
  private readonly clusterIP: number;
  private readonly clusterMask: number;
  readonly maxCIDRs: number;
  private readonly used: Uint8Array;
  private allocatedCount = 0;
  private nextCandidate = 0;

  constructor(
    readonly clusterCIDR: string,
    readonly nodeMaskSize: number,
  ) {
    const { ip, bits } = parseCIDR(clusterCIDR);
    if (nodeMaskSize < bits || nodeMaskSize > 32)
      throw new CIDRSetError(`node mask /${nodeMaskSize} does not fit in cluster CIDR ${clusterCIDR}`);
    // net.ParseCIDR masks the address: 192.168.5.219/28 starts at 192.168.5.208.
    this.clusterIP = (ip & maskOf(bits)) >>> 0;
    this.clusterMask = bits;
    this.maxCIDRs = 2 ** (nodeMaskSize - bits);
    this.used = new Uint8Array(this.maxCIDRs);
  }

  get allocated(): number {
    return this.allocatedCount;
  }

  private block(index: number): string {
    const ip = (this.clusterIP | (index * 2 ** (32 - this.nodeMaskSize))) >>> 0;
    return `${numberToIPv4(ip)}/${this.nodeMaskSize}`;
  }

  /** The next free block, searching from the cursor in a circle (round-robin, not lowest-free). */
  allocateNext(): string {
    if (this.allocatedCount === this.maxCIDRs) throw new CIDRSetError(ERR_NO_CIDRS_REMAINING);
    for (let i = 0; i < this.maxCIDRs; i++) {
      const candidate = (this.nextCandidate + i) % this.maxCIDRs;
      if (!this.used[candidate]) {
        this.used[candidate] = 1;
        this.allocatedCount++;
        this.nextCandidate = (candidate + 1) % this.maxCIDRs;
        return this.block(candidate);
      }
    }
    throw new CIDRSetError(ERR_NO_CIDRS_REMAINING);
  }

  /**
   * The indexes of every node-sized block the CIDR covers (it may be bigger than one block;
   * one at least as big as the cluster CIDR that contains it covers them all).
   */
  private indexRange(cidr: string): [number, number] {
    const { ip, bits } = parseCIDR(cidr);
    const clusterBase = this.clusterIP;
    // Overlap either way round: the cluster contains the CIDR, or the CIDR contains the cluster.
    const inCluster = (ip & maskOf(this.clusterMask)) >>> 0 === clusterBase;
    const containsCluster =
      bits <= this.clusterMask && (clusterBase & maskOf(bits)) >>> 0 === (ip & maskOf(bits)) >>> 0;
    if (!inCluster && !containsCluster)
      throw new CIDRSetError(`cidr ${cidr} is out the range of cluster cidr ${this.clusterCIDR}`);
    if (bits <= this.clusterMask) return [0, this.maxCIDRs - 1];
    const blockSize = 2 ** (32 - this.nodeMaskSize);
    const start = (((ip & maskOf(Math.min(bits, this.nodeMaskSize))) >>> 0) - clusterBase) / blockSize;
    const count = bits >= this.nodeMaskSize ? 1 : 2 ** (this.nodeMaskSize - bits);
    return [Math.floor(start), Math.floor(start) + count - 1];
  }

  /** The indexes of the blocks in use, ascending (upstream's `used` bitmap). */
  usedIndices(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.maxCIDRs; i++) if (this.used[i]) out.push(i);
    return out;
  }

  occupy(cidr: string): void {
    const [from, to] = this.indexRange(cidr);
    for (let i = from; i <= to; i++)
      if (!this.used[i]) {
        this.used[i] = 1;
        this.allocatedCount++;
      }
  }

  release(cidr: string): void {
    const [from, to] = this.indexRange(cidr);
    for (let i = from; i <= to; i++)
      if (this.used[i]) {
        this.used[i] = 0;
        this.allocatedCount--;
      }
  }
}

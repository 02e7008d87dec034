import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CidrSet, ERR_NO_CIDRS_REMAINING } from '../../../src/controllers/nodeipam/cidr-set';

test('a fresh /16 gives /24s in order', () => {
  const s = new CidrSet('172.20.0.0/16', 24);
  assert.equal(s.maxCIDRs, 256);
  assert.deepEqual(
    [s.allocateNext(), s.allocateNext(), s.allocateNext()],
    ['172.20.0.0/24', '172.20.1.0/24', '172.20.2.0/24'],
  );
});

test('allocation is round-robin from the cursor, not lowest-free', () => {
  const s = new CidrSet('10.0.0.0/22', 24);
  assert.equal(s.allocateNext(), '10.0.0.0/24');
  assert.equal(s.allocateNext(), '10.0.1.0/24');
  s.release('10.0.0.0/24');
  assert.equal(s.allocateNext(), '10.0.2.0/24');
  assert.equal(s.allocateNext(), '10.0.3.0/24');
  assert.equal(s.allocateNext(), '10.0.0.0/24'); // wrapped around to the freed block
  assert.throws(() => s.allocateNext(), { message: ERR_NO_CIDRS_REMAINING });
});

test('occupy marks preset blocks (even larger than one block); out-of-range is an error', () => {
  const s = new CidrSet('10.0.0.0/22', 24);
  s.occupy('10.0.0.0/23');
  assert.equal(s.allocated, 2);
  assert.equal(s.allocateNext(), '10.0.2.0/24');
  assert.throws(() => s.occupy('192.168.0.0/24'), /out the range/);
});

test('the cluster CIDR is masked first (upstream TestIndexToCIDRBlock: 192.168.5.219/28, /32, index 5)', () => {
  const s = new CidrSet('192.168.5.219/28', 32);
  assert.equal(s.maxCIDRs, 16);
  const got = Array.from({ length: 6 }, () => s.allocateNext());
  assert.equal(got[5], '192.168.5.213/32');
});

// Upstream's own tables (pkg/controller/nodeipam/ipam/cidrset/cidr_set_test.go, v1.32.13; the
// IPv4 cases). v1.12's CidrSet gives the same blocks for IPv4 (see cidr-set.ts).
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('upstream TestCIDRSetFullyAllocated: a /30 in a /30 is one block; released, it comes back', () => {
  const s = new CidrSet('127.123.234.0/30', 30);
  assert.equal(s.allocateNext(), '127.123.234.0/30');
  assert.throws(() => s.allocateNext(), { message: ERR_NO_CIDRS_REMAINING });
  s.release('127.123.234.0/30');
  assert.equal(s.allocateNext(), '127.123.234.0/30');
  assert.throws(() => s.allocateNext(), { message: ERR_NO_CIDRS_REMAINING });
});

test('upstream TestCIDRSet_RandomishAllocation: 256 blocks, all released, come back in the same order', () => {
  const s = new CidrSet('127.123.234.0/16', 24);
  const first = range(0, 255).map(() => s.allocateNext());
  assert.equal(first[0], '127.123.0.0/24'); // the cluster IP is masked
  assert.throws(() => s.allocateNext(), { message: ERR_NO_CIDRS_REMAINING });
  for (const c of first) s.release(c);
  const again = range(0, 255).map(() => s.allocateNext());
  assert.throws(() => s.allocateNext(), { message: ERR_NO_CIDRS_REMAINING });
  assert.deepEqual(again, first);
});

test('upstream TestCIDRSet_AllocationOccupied: occupied blocks are skipped, occupying twice is harmless', () => {
  const s = new CidrSet('127.123.234.0/16', 24);
  const all = range(0, 255).map(() => s.allocateNext());
  for (const c of all) s.release(c);
  for (const c of all.slice(128)) s.occupy(c);
  s.occupy(all[128]);
  const again = range(0, 127).map(() => s.allocateNext());
  assert.throws(() => s.allocateNext(), { message: ERR_NO_CIDRS_REMAINING });
  assert.deepEqual([...again, ...all.slice(128)], all);
});

test('upstream TestDoubleOccupyRelease: the count changes only when a bit flips', () => {
  const s = new CidrSet('10.42.0.0/16', 24);
  const ops: [string, 'occupy' | 'release', number][] = [
    ['10.42.5.0/24', 'occupy', 1],
    ['10.42.9.0/24', 'occupy', 2],
    ['10.42.8.0/22', 'occupy', 5],
    ['10.42.9.0/24', 'occupy', 5],
    ['10.42.9.0/24', 'release', 4],
    ['10.42.9.0/24', 'release', 4],
    ['10.42.4.0/22', 'release', 3],
  ];
  for (const [cidr, op, occupied] of ops) {
    s[op](cidr);
    assert.equal(s.allocated, occupied, `${op} ${cidr}`);
  }
  for (let i = 0; i < 256 - 3; i++) s.allocateNext();
  assert.throws(() => s.allocateNext(), { message: ERR_NO_CIDRS_REMAINING });
});

test('upstream TestOccupy: the bits a CIDR covers (IPv4 cases)', () => {
  const cases: [cluster: string, mask: number, cidr: string, begin: number, end: number][] = [
    ['127.0.0.0/8', 16, '127.0.0.0/8', 0, 255], // Occupy all Bits
    ['127.0.0.0/8', 16, '127.0.0.0/2', 0, 255], // Occupy every Bit: a CIDR containing the cluster's
    ['127.0.0.0/8', 16, '127.0.0.0/16', 0, 0],
    ['127.0.0.0/8', 32, '127.0.0.0/16', 0, 65535],
    ['127.0.0.0/7', 16, '127.0.0.0/15', 256, 257], // the cluster CIDR is 126.0.0.0/7
    ['127.0.0.0/7', 15, '127.0.0.0/15', 128, 128],
    ['127.0.0.0/7', 18, '127.0.0.0/15', 1024, 1031],
  ];
  for (const [cluster, mask, cidr, begin, end] of cases) {
    const s = new CidrSet(cluster, mask);
    s.occupy(cidr);
    assert.deepEqual(s.usedIndices(), range(begin, end), `${cidr} in ${cluster} /${mask}`);
  }
});

test("upstream TestGetBitforCIDR: a block's index (IPv4 cases); outside the cluster is an error", () => {
  const cases: [cluster: string, mask: number, cidr: string, bit: number][] = [
    ['127.0.0.0/8', 16, '127.0.0.0/16', 0],
    ['127.0.0.0/8', 16, '127.123.0.0/16', 123],
    ['127.0.0.0/8', 16, '127.168.0.0/16', 168],
    ['127.0.0.0/8', 16, '127.224.0.0/16', 224],
    ['192.168.0.0/16', 24, '192.168.12.0/24', 12],
    ['192.168.0.0/16', 24, '192.168.151.0/24', 151],
  ];
  for (const [cluster, mask, cidr, bit] of cases) {
    const s = new CidrSet(cluster, mask);
    s.occupy(cidr);
    assert.deepEqual(s.usedIndices(), [bit], cidr);
  }
  assert.throws(() => new CidrSet('192.168.0.0/16', 24).occupy('127.168.224.0/24'), /out the range of cluster cidr/);
});

test('upstream TestIndexToCIDRBlock (IPv4 cases): index 0 and 15 of 127.123.3.0/16 in /24s', () => {
  const s = new CidrSet('127.123.3.0/16', 24);
  const got = range(0, 15).map(() => s.allocateNext());
  assert.equal(got[0], '127.123.0.0/24');
  assert.equal(got[15], '127.123.15.0/24');
});

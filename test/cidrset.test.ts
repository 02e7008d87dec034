import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CidrSet, ERR_NO_CIDRS_REMAINING } from '../src/controllers/nodeipam/cidr-set';

test('a fresh /16 gives /24s in order', () => {
  const s = new CidrSet('172.20.0.0/16', 24);
  assert.equal(s.maxCIDRs, 256);
  assert.deepEqual([s.allocateNext(), s.allocateNext(), s.allocateNext()], ['172.20.0.0/24', '172.20.1.0/24', '172.20.2.0/24']);
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

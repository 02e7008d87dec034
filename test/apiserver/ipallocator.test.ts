import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RangeAllocator, ServiceIPRange } from '../../src/apiserver/ipallocator';

test('service IPs: the first address is network+1, dynamic ones start above the static band, nothing twice', () => {
  const r = new ServiceIPRange('10.96.0.0/12');
  assert.equal(r.firstIP, '10.96.0.1');
  assert.equal(r.allocate('10.96.0.1'), 'ok');
  assert.equal(r.allocate('10.96.0.1'), 'taken');
  assert.equal(r.allocate('10.112.0.1'), 'out-of-range');
  assert.equal(r.allocateNext(), '10.96.1.1'); // 256 static addresses for a /12
  const small = new ServiceIPRange('10.0.0.0/29'); // 6 usable
  const got = new Set<string>();
  for (let ip = small.allocateNext(); ip; ip = small.allocateNext()) got.add(ip);
  assert.equal(got.size, 6);
  assert.ok(!got.has('10.0.0.0') && !got.has('10.0.0.7'));
  small.release('10.0.0.3');
  assert.equal(small.allocateNext(), '10.0.0.3');
  const ports = new RangeAllocator(30000, 2);
  assert.deepEqual([ports.allocateNext(), ports.allocateNext(), ports.allocateNext()], [30000, 30001, undefined]);
});

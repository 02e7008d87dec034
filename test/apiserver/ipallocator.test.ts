import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, Store, StoreError } from '../../src/store';
import {
  RangeAllocation,
  RangeAllocator,
  RELEASED_THROUGH,
  ServiceIPRange,
  StoredRange,
} from '../../src/apiserver/ipallocator';

// The bitmap's snapshot as upstream stores it (allocator.AllocationBitmap.Snapshot: big.Int.Bytes)
// and restore (TestSnapshotAndRestore, pkg/registry/core/service/allocator/bitmap_test.go).
test('snapshot: the big-endian bytes of the integer whose bit i is offset i; restore takes exactly those', () => {
  const m = new RangeAllocator(100, 1024, 164);
  assert.equal(m.snapshot(), '', 'nothing taken is no byte (big.Int zero)');
  m.allocate(103);
  assert.deepEqual([...Buffer.from(m.snapshot(), 'base64')], [0x08]);
  m.allocate(100);
  m.allocate(109);
  assert.deepEqual([...Buffer.from(m.snapshot(), 'base64')], [0x02, 0x09]);
  const m2 = new RangeAllocator(100, 1024);
  m2.allocate(500);
  m2.restore(m.snapshot());
  assert.deepEqual(m2.values().sort(), [100, 103, 109]);
  assert.equal(m2.free, 1021);
  // Bits beyond a smaller range are dropped, as Restore refuses what does not fit.
  const small = new RangeAllocator(100, 8);
  small.restore(m.snapshot());
  assert.deepEqual(small.values().sort(), [100, 103]);
});

const KEY = '/registry/ranges/test';
/** Two API servers' allocators over one store: each its own bitmap, one range object. */
async function pair(size = 64) {
  const store = new MemoryStore();
  const conflicts = { count: 0 };
  // Counts the guarded writes that lost the race (and so were read again and retried).
  const update: Store['update'] = async (key, value, rev) => {
    try {
      return await store.update(key, value, rev);
    } catch (e) {
      if (e instanceof StoreError && e.code === 'RevisionMismatch') conflicts.count++;
      throw e;
    }
  };
  const counting = new Proxy(store, {
    get: (target, p) => {
      if (p === 'update') return update;
      const v = Reflect.get(target, p);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const a = new StoredRange(counting, KEY, 'r', new RangeAllocator(0, size));
  const b = new StoredRange(counting, KEY, 'r', new RangeAllocator(0, size));
  await a.init([]);
  await b.init([]);
  return { store, a, b, conflicts };
}

test('two allocators on one store never hand out a value twice, however their changes interleave', async () => {
  const { store, a, b, conflicts } = await pair(64);
  // Both scan from the same place: each conflicting write reads again and takes another.
  const got = await Promise.all(Array.from({ length: 32 }, (_, i) => (i % 2 ? a : b).allocateNext()));
  assert.ok(conflicts.count > 0, 'the two allocators never raced: the test proves nothing');
  assert.equal(new Set(got).size, 32, `duplicates in ${got}`);
  assert.ok(got.every((v) => v !== undefined));
  const stored = (await store.get<RangeAllocation>(KEY))!.value;
  const check = new RangeAllocator(0, 64);
  check.restore(stored.data);
  assert.deepEqual(
    check.values().sort((x, y) => x - y),
    (got as number[]).sort((x, y) => x - y),
  );
  // A value one server took is taken for the other; a value it gives back is free for the other.
  assert.equal(await b.allocate(got[0]!), false);
  await a.release([got[0]!]);
  assert.equal(await b.isFree(got[0]!), true);
  assert.equal(await b.allocate(got[0]!), true);
  // Full: the rest, then nothing.
  for (let i = 0; i < 32; i++) assert.notEqual(await (i % 2 ? a : b).allocateNext(), undefined);
  assert.equal(await a.allocateNext(), undefined);
  assert.equal(await a.peekNext(), undefined);
});

test("a deletion's values are released once: a server that sees it late leaves a value re-allocated since alone", async () => {
  const { store, a, b } = await pair(8);
  assert.equal(await a.allocate(3), true);
  // The object holding 3 is deleted at revision 100; A sees it first and releases.
  await a.releaseDeleted([3], 100);
  assert.equal((await store.get<RangeAllocation>(KEY))!.value.metadata.annotations?.[RELEASED_THROUGH], '100');
  // A new object gets 3 again through A…
  assert.equal(await a.allocate(3), true);
  // …then B sees the deletion at 100: releasing now would free the new object's value.
  await b.releaseDeleted([3], 100);
  assert.equal(await b.isFree(3), false, 'the late release freed a value a newer object holds');
  // A later deletion is released by whoever comes first.
  await b.releaseDeleted([3], 120);
  assert.equal(await a.isFree(3), true);
});

test('init marks what stored objects hold and rebuilds a range stored for another spec', async () => {
  const store = new MemoryStore();
  const a = new StoredRange(store, KEY, 'r', new RangeAllocator(0, 16));
  await a.init([1, 2]);
  assert.equal(await a.isFree(1), false);
  const b = new StoredRange(store, KEY, 'r', new RangeAllocator(0, 16));
  await b.init([5]);
  assert.deepEqual(
    [await b.isFree(1), await b.isFree(2), await b.isFree(5), await b.isFree(6)],
    [false, false, false, true],
  );
  const c = new StoredRange(store, KEY, 'other', new RangeAllocator(0, 16));
  await c.init([7]);
  assert.deepEqual([await c.isFree(1), await c.isFree(7)], [true, false]);
  // The server still on the old spec refuses to allocate rather than write over the other's range.
  await assert.rejects(a.allocateNext(), /covers other, not r/);
});

test('an allocator over a range object nobody created refuses, as upstream "cannot allocate … at this time"', async () => {
  const a = new StoredRange(new MemoryStore(), KEY, 'r', new RangeAllocator(0, 4));
  await assert.rejects(a.allocateNext(), /cannot allocate from \/registry\/ranges\/test at this time/);
});

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

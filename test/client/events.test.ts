// The event recorder's memory of what it recorded: repeats fold into count, and the memory is
// a bounded LRU as client-go's event correlator keeps (maxLruCacheEntries = 4096).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_CACHE_ENTRIES, EventRecorder } from '../../src/client/events';
import { Client } from '../../src/client/client';
import { VirtualClock } from '../../src/clock/virtual';

function recorder(entries?: number) {
  const writes: string[] = [];
  const client = {
    create: async (_r: unknown, e: { metadata: { name: string } }) => {
      writes.push(`create ${e.metadata.name.split('.')[0]}`);
      return e;
    },
    patch: async (_r: unknown, name: string, _t: unknown, p: { count: number }) => {
      writes.push(`patch ${name.split('.')[0]} count ${p.count}`);
      return {};
    },
  } as unknown as Client;
  const r = new EventRecorder(client, new VirtualClock(0), { component: 'test' }, entries);
  const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', uid: name } });
  return { r, writes, pod };
}

test('a repeat is a patch of the same Event with the count raised', async () => {
  const { r, writes, pod } = recorder();
  r.normal(pod('a'), 'Started', 'started');
  r.normal(pod('a'), 'Started', 'started');
  await new Promise((res) => setImmediate(res));
  assert.deepEqual(writes, ['create a', 'patch a count 2']);
});

test('the memory is bounded: the least recently recorded is forgotten, its repeat a new Event', async () => {
  assert.equal(EVENT_CACHE_ENTRIES, 4096);
  const { r, writes, pod } = recorder(2);
  r.normal(pod('a'), 'R', 'm');
  r.normal(pod('b'), 'R', 'm');
  r.normal(pod('a'), 'R', 'm'); // a is the most recent again
  r.normal(pod('c'), 'R', 'm'); // b goes
  r.normal(pod('a'), 'R', 'm');
  r.normal(pod('b'), 'R', 'm');
  await new Promise((res) => setImmediate(res));
  assert.deepEqual(writes, ['create a', 'create b', 'patch a count 2', 'create c', 'patch a count 3', 'create b']);
  assert.equal(r.remembered, 2);
});

test('a long-running recorder remembers at most 4096 events', () => {
  const { r, pod } = recorder();
  for (let i = 0; i < 10_000; i++) r.normal(pod(`p${i}`), 'R', 'm');
  assert.equal(r.remembered, 4096);
});

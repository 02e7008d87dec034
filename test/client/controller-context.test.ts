// The controller runtime: what a controller registers through its ControllerContext, and what
// stop() undoes (client-go: RemoveEventHandler, ShutDown, a cancelled context).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ControllerContext } from '../../src/client/controller-context';
import { backgroundErrors, HandledError, onHandledError } from '../../src/client/background';
import { Client, WatchHandlers } from '../../src/client/client';
import { InformerFactory } from '../../src/client/informer';
import { VirtualClock } from '../../src/clock/virtual';
import { KubeObject } from '../../src/api/meta';

/** A client with an empty list and a watch whose handlers the test drives. */
function watchedClient() {
  const watches: WatchHandlers<KubeObject>[] = [];
  const client = {
    list: async () => ({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '1' }, items: [] }),
    watch: async (_r: unknown, _o: unknown, h: WatchHandlers<KubeObject>) => {
      watches.push(h);
      return { stop: () => undefined };
    },
  } as unknown as Client;
  let rv = 1;
  const deliver = (name: string) =>
    watches[0].onEvent({ type: 'ADDED', object: { metadata: { name, resourceVersion: String(++rv) } } });
  return { client, deliver };
}

async function setup() {
  const { client, deliver } = watchedClient();
  const clock = new VirtualClock(0);
  const informers = new InformerFactory(client, clock);
  const reported: string[] = [];
  const ctx = new ControllerContext(
    { informers, client, clock, quiescence: clock.quiescence, reportError: (c, e) => reported.push(`${c}: ${e}`) },
    'test-controller',
  );
  const informer = ctx.informer<KubeObject>({ resource: 'configmaps' });
  return { ctx, informer, informers, clock, deliver, reported };
}

test('stop(): the handlers leave the shared informer, which goes on delivering to others', async () => {
  const { ctx, informer, informers, deliver } = await setup();
  const mine: string[] = [];
  const others: string[] = [];
  ctx.handle(informer, { onAdd: (o) => mine.push(o.metadata.name!) });
  informer.addEventHandler({ onAdd: (o) => others.push(o.metadata.name!) });
  await informers.start();
  deliver('a');
  await ctx.stop();
  deliver('b');
  assert.deepEqual(mine, ['a']);
  assert.deepEqual(others, ['a', 'b']);
  assert.equal(informer.size, 2, 'the informer itself keeps running');
});

test('a handler removed during a delivery hears nothing more of it', async () => {
  const { informer, informers, deliver } = await setup();
  const heard: string[] = [];
  const second = { onAdd: (o: KubeObject) => heard.push(`second ${o.metadata.name}`) };
  let registration: ReturnType<typeof informer.addEventHandler> | undefined;
  informer.addEventHandler({ onAdd: () => informer.removeEventHandler(registration!) });
  registration = informer.addEventHandler(second);
  await informers.start();
  deliver('a');
  assert.deepEqual(heard, []);
  assert.equal(registration.active, false);
});

test('stop(): queues shut down, timers cleared, and it waits for the sync under way', async () => {
  const { ctx, clock } = await setup();
  const synced: string[] = [];
  let release!: () => void;
  const queue = ctx.workQueue(
    async (key) => {
      synced.push(key);
      if (key === 'slow') await new Promise<void>((r) => (release = r));
    },
    { name: 'test' },
  );
  let ticks = 0;
  ctx.every(1000, () => void ticks++);
  let fired = false;
  ctx.after(5000, () => (fired = true));
  queue.add('slow');
  await Promise.resolve();
  let stopped = false;
  const stopping = ctx.stop().then(() => (stopped = true));
  queue.add('later');
  await new Promise((r) => setImmediate(r));
  assert.equal(stopped, false, 'stop() waits for the sync in hand');
  release();
  await stopping;
  await clock.advance(10_000);
  assert.deepEqual(synced, ['slow']);
  assert.equal(ticks, 0);
  assert.equal(fired, false);
  // Registering after stop() starts nothing.
  ctx.every(1000, () => void ticks++);
  ctx.workQueue(async (k) => void synced.push(k), { name: 'late' }).add('x');
  await clock.advance(5000);
  assert.equal(ticks, 0);
  assert.deepEqual(synced, ['slow']);
});

test("a failing sync, timer pass or background work is reported under the controller's name, then retried", async () => {
  const { ctx, clock, reported } = await setup();
  let attempts = 0;
  const queue = ctx.workQueue(
    async () => {
      attempts++;
      throw new Error('conflict');
    },
    { name: 'test', baseRetryDelayMs: 100 },
  );
  queue.add('ns/a');
  await clock.settle();
  ctx.every(1000, async () => {
    throw new Error('pass failed');
  });
  ctx.go(Promise.reject(new Error('write failed')), 'pod p');
  await clock.advance(1000);
  assert.ok(attempts >= 2, 'retried after the failure');
  assert.equal(reported[0], 'test-controller (ns/a): Error: conflict');
  assert.ok(reported.includes('test-controller: Error: pass failed'), reported.join('\n'));
  assert.ok(reported.includes('test-controller (pod p): Error: write failed'), reported.join('\n'));
  await ctx.stop();
});

test('without a sink of its own, a context reports to the one background reporter (HandleError)', async () => {
  const { client } = watchedClient();
  const clock = new VirtualClock(0);
  const ctx = new ControllerContext(
    { informers: new InformerFactory(client, clock), client, clock, quiescence: clock.quiescence },
    'test-controller',
  );
  const seen: HandledError[] = [];
  const stop = onHandledError((e) => seen.push(e));
  const quiet = backgroundErrors.report;
  backgroundErrors.report = () => undefined;
  try {
    ctx
      .workQueue(
        async () => {
          throw new Error('boom');
        },
        { name: 'test' },
      )
      .add('k');
    await clock.settle();
    assert.deepEqual(seen[0], { component: 'test-controller (k)', message: 'boom' });
  } finally {
    stop();
    backgroundErrors.report = quiet;
    await ctx.stop();
  }
});

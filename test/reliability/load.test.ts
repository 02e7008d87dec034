import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import * as https from 'node:https';
import * as tls from 'node:tls';
import { credentialsOf, served, sleep } from '../hostile-harness';
import { Secret } from '../../src/api/resources/secret';
import { watchStats } from '../../src/apiserver/http/watch';

/**
 * Load (issue 13): LOAD_WRITERS writers (default 50) each make LOAD_WRITES optimistic
 * read-modify-write updates (default 8) of one shared counter and of an object of their
 * own, while LOAD_WATCHERS watchers (default 500) follow every change and one watcher never
 * reads. No acknowledged update may be lost (the counter ends at the number of successful
 * increments), every reading watcher sees every acknowledged write exactly once and in
 * order, the slow watcher is dropped, and the heap stays bounded.
 */

const WRITERS = Number(process.env.LOAD_WRITERS ?? 50);
const WRITES = Number(process.env.LOAD_WRITES ?? 8);
const WATCHERS = Number(process.env.LOAD_WATCHERS ?? 500);
const NS = 'load';

// biome-ignore lint/suspicious/noExplicitAny: the parsed answer, read by path in assertions (a wrong path fails them)
type Reply = { code: number; json: any };

test(`load: ${WRITERS} writers × ${WRITES} updates, ${WATCHERS} watchers and one slow watcher — no lost update, no missed event, bounded memory`, {
  timeout: 600_000,
}, async () => {
  const s = await served();
  const url = new URL(s.url);
  const { cert, key } = credentialsOf(s.server.kubeconfigFor(s.url, 'kubernetes-admin', ['system:masters']));
  const agent = new https.Agent({ keepAlive: true, maxSockets: WRITERS + 10, cert, key, rejectUnauthorized: false });
  const request = (method: string, path: string, body?: unknown) =>
    new Promise<Reply>((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const req = https.request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          agent,
          headers: text ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } : {},
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ code: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString() || 'null') }),
          );
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  const SECRETS = `/api/v1/namespaces/${NS}/secrets`;
  const watchAgent = new https.Agent({ keepAlive: false, cert, key, rejectUnauthorized: false, maxSockets: Infinity });
  const streams: http.ClientRequest[] = [];
  let slow: tls.TLSSocket | undefined;
  const t0 = Date.now();
  try {
    assert.equal((await request('POST', '/api/v1/namespaces', { metadata: { name: NS } })).code, 201);
    assert.equal(
      (await request('POST', SECRETS, { metadata: { name: 'counter', annotations: { count: '0' } } })).code,
      201,
    );
    for (let w = 0; w < WRITERS; w++)
      assert.equal(
        (await request('POST', SECRETS, { metadata: { name: `w${w}`, annotations: { n: '0' } } })).code,
        201,
      );
    const from = (await request('GET', SECRETS)).json.metadata.resourceVersion as string;

    // Watchers: each records the resourceVersions it sees.
    const seen: string[][] = [];
    let errors = 0;
    await Promise.all(
      Array.from(
        { length: WATCHERS },
        (_, i) =>
          new Promise<void>((resolve, reject) => {
            const mine: string[] = (seen[i] = []);
            const req = https.request(
              {
                host: url.hostname,
                port: url.port,
                path: `${SECRETS}?watch=true&resourceVersion=${from}`,
                agent: watchAgent,
              },
              (res) => {
                if (res.statusCode !== 200) {
                  errors++;
                  return resolve();
                }
                let buf = '';
                res.on('data', (c: Buffer) => {
                  buf += c.toString();
                  let nl: number;
                  while ((nl = buf.indexOf('\n')) >= 0) {
                    const line = buf.slice(0, nl);
                    buf = buf.slice(nl + 1);
                    if (line)
                      mine.push(
                        (JSON.parse(line) as { object: { metadata: { resourceVersion: string } } }).object.metadata
                          .resourceVersion,
                      );
                  }
                });
                res.on('error', () => undefined);
                resolve();
              },
            );
            req.on('error', (e) => (streams.includes(req) ? undefined : reject(e)));
            streams.push(req);
            req.end();
          }),
      ),
    );
    assert.equal(errors, 0);
    // The slow watcher: asks for the same stream and never reads it.
    slow = tls.connect({ host: url.hostname, port: Number(url.port), cert, key, rejectUnauthorized: false });
    await new Promise((r) => slow!.once('secureConnect', r));
    // It watches secrets in every namespace: the shared stream plus a ballast namespace of
    // large objects, so its backlog outgrows any socket buffer whatever the load's size.
    slow.write(`GET /api/v1/secrets?watch=true&resourceVersion=${from} HTTP/1.1\r\nHost: x\r\n\r\n`);
    slow.pause();
    slow.on('error', () => undefined);
    const dropped0 = watchStats.dropped;
    const heap0 = process.memoryUsage().heapUsed;
    let heapMax = heap0;

    // Writers: read-modify-write with the resourceVersion as precondition, retried on 409.
    const acknowledged: string[] = [];
    let increments = 0;
    let conflicts = 0;
    const blob = Buffer.alloc(1024, 1).toString('base64');
    assert.equal((await request('POST', '/api/v1/namespaces', { metadata: { name: 'ballast' } })).code, 201);
    const ballast = Buffer.alloc(512 * 1024, 2).toString('base64');
    const ballastWriter = (async () => {
      for (let i = 0; i < 40; i++)
        assert.equal(
          (
            await request('POST', '/api/v1/namespaces/ballast/secrets', {
              metadata: { name: `b${i}` },
              data: { ballast },
            })
          ).code,
          201,
        );
    })();
    const update = async (
      name: string,
      change: (o: Secret & { metadata: { annotations: Record<string, string> } }) => void,
    ) => {
      for (;;) {
        const cur = (await request('GET', `${SECRETS}/${name}`)).json;
        change(cur);
        const r = await request('PUT', `${SECRETS}/${name}`, cur);
        if (r.code === 409) {
          conflicts++;
          continue;
        }
        assert.equal(r.code, 200, JSON.stringify(r.json));
        acknowledged.push(r.json.metadata.resourceVersion);
        return;
      }
    };
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < WRITES; i++) {
          await update('counter', (o) => {
            o.metadata.annotations.count = String(Number(o.metadata.annotations.count) + 1);
          });
          increments++;
          await update(`w${w}`, (o) => {
            o.metadata.annotations.n = String(i + 1);
            o.data = { blob, i: Buffer.from(String(i)).toString('base64') };
          });
          heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
        }
      }),
    );
    await ballastWriter;
    const counter = (await request('GET', `${SECRETS}/counter`)).json;
    assert.equal(Number(counter.metadata.annotations.count), increments, 'an acknowledged increment was lost');
    assert.equal(increments, WRITERS * WRITES);
    for (let w = 0; w < WRITERS; w++)
      assert.equal((await request('GET', `${SECRETS}/w${w}`)).json.metadata.annotations.n, String(WRITES));

    // Every reading watcher sees each acknowledged write once, in resourceVersion order.
    const want = acknowledged.length;
    for (let i = 0; i < 600 && seen.some((x) => x.length < want); i++) await sleep(100);
    const ackSet = new Set(acknowledged);
    let missed = 0;
    for (const mine of seen) {
      missed += want - mine.filter((rv) => ackSet.has(rv)).length;
      for (let k = 1; k < mine.length; k++) assert.ok(Number(mine[k]) > Number(mine[k - 1]), 'events out of order');
      assert.equal(mine.length, want);
    }
    assert.equal(missed, 0);
    const dropped = watchStats.dropped - dropped0;
    assert.equal(dropped, 1, 'the watcher that does not read was not dropped');
    const growth = heapMax - heap0;
    console.log(
      `load figures: ${JSON.stringify({ writers: WRITERS, writesEach: WRITES * 2, acknowledged: want, conflictsRetried: conflicts, watchers: WATCHERS, eventsDelivered: want * WATCHERS, missed, lostUpdates: increments - Number(counter.metadata.annotations.count), slowWatchersDropped: dropped, heapGrowthMiB: Math.round(growth / 1048576), seconds: Math.round((Date.now() - t0) / 1000) })}`,
    );
    assert.ok(growth < 512 * 1024 * 1024, `heap grew ${growth} bytes`);
  } finally {
    for (const r of streams) r.destroy();
    slow?.destroy();
    agent.destroy();
    watchAgent.destroy();
    await s.stop();
  }
});

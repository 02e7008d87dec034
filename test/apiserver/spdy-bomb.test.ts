import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tls from 'node:tls';
import * as zlib from 'node:zlib';
import { served, grant, credentialsOf, sleep } from '../hostile-harness';
import { SPDY_DICTIONARY } from '../../src/util/spdy-dictionary';

/**
 * Issue 28: a SPDY header decompression bomb through pods/exec. The API server relays the
 * upgraded connection to the kubelet, whose SPDY session inflates each header block; served,
 * the kubelets run in the API server's process. Three SYN_STREAM frames of ~261 KB, each a
 * header block that inflates to 256 MiB, once took that process from 115 MB to 1.65 GB and
 * held everyone's requests for seconds. Now a block is inflated to at most 1 MiB
 * (MAX_HEADER_BLOCK), past which the session ends with GOAWAY.
 */

const NS = 'team';
const BOMB = 256 << 20;

/** SYN_STREAM frames whose header blocks (one zlib stream with the SPDY dictionary, sync-flushed per block) inflate to BOMB bytes each. */
async function bombFrames(count: number): Promise<Buffer[]> {
  const deflate = zlib.createDeflate({ dictionary: SPDY_DICTIONARY, level: 9 });
  const zeros = Buffer.alloc(1 << 20);
  const frames: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const out: Buffer[] = [];
    const onData = (b: Buffer) => out.push(b);
    deflate.on('data', onData);
    for (let at = 0; at < BOMB; at += zeros.length) {
      if (!deflate.write(zeros)) await new Promise((r) => deflate.once('drain', r));
    }
    await new Promise<void>((r) => deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => r()));
    await new Promise((r) => setImmediate(r));
    deflate.off('data', onData);
    const block = Buffer.concat(out);
    const head = Buffer.alloc(18);
    head.writeUInt16BE(0x8003, 0); // control, version 3
    head.writeUInt16BE(1, 2); // SYN_STREAM
    head.writeUIntBE(10 + block.length, 5, 3);
    head.writeUInt32BE(2 * i + 1, 8); // stream id
    frames.push(Buffer.concat([head, block]));
  }
  deflate.close();
  return frames;
}

test('hostile: a SPDY header decompression bomb through pods/exec is refused with GOAWAY; memory and other users unaffected', {
  timeout: 300_000,
}, async () => {
  const frames = await bombFrames(3);
  for (const f of frames) assert.ok(f.length < 300_000, `a bomb frame is ${f.length} bytes`);
  const s = await served();
  const sockets: tls.TLSSocket[] = [];
  try {
    await grant(s, NS, 'eve', [{ apiGroups: [''], resources: ['pods', 'pods/exec'], verbs: ['get', 'create'] }]);
    await grant(s, NS, 'bob', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }], 'bob-role');
    await s.cluster.addKubelet({ name: 'n1' });
    const pod = {
      metadata: { name: 'p' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] },
    };
    assert.equal((await s.admin('POST', `/api/v1/namespaces/${NS}/pods`, JSON.stringify(pod))).code, 201);
    await s.cluster.advance(5_000);
    const url = new URL(s.url);
    const { cert, key } = credentialsOf(s.server.kubeconfigFor(s.url, 'eve', []));
    const k = tls.connect({ host: url.hostname, port: Number(url.port), cert, key, rejectUnauthorized: false });
    sockets.push(k);
    const received: Buffer[] = [];
    let closed = false;
    k.on('data', (d: Buffer) => received.push(d));
    k.on('close', () => (closed = true));
    k.on('error', () => {});
    await new Promise((r) => k.once('secureConnect', r));
    k.write(
      `POST /api/v1/namespaces/${NS}/pods/p/exec?command=sh&stdout=true&stderr=true HTTP/1.1\r\nHost: x\r\n` +
        'Connection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n',
    );
    for (let waited = 0; waited < 10_000 && !Buffer.concat(received).includes('\r\n\r\n'); waited += 50)
      await sleep(50);
    const head = Buffer.concat(received).toString('latin1');
    assert.match(head, /^HTTP\/1\.1 101/, head.slice(0, 300));
    received.length = 0;

    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
    // bob's reads while the bomb goes off: none waits more than a second
    const bob = s.as('bob');
    const latencies: number[] = [];
    let bombing = true;
    const codes = new Set<number>();
    const reads = (async () => {
      while (bombing) {
        const t0 = performance.now();
        codes.add((await bob('GET', `/api/v1/namespaces/${NS}/pods`)).code);
        latencies.push(performance.now() - t0);
      }
    })();
    for (const f of frames) k.write(f);
    for (let waited = 0; waited < 20_000 && !closed; waited += 50) await sleep(50);
    await sleep(200);
    bombing = false;
    await reads;
    clearInterval(sampler);
    const grown = (peakRss - before.rss) / 2 ** 20;
    const slowest = Math.max(...latencies);
    console.log(
      `# SPDY bomb: rss ${(before.rss / 2 ** 20).toFixed(0)} MiB before, peak +${grown.toFixed(0)} MiB; ` +
        `bob's ${latencies.length} reads, slowest ${slowest.toFixed(0)} ms`,
    );
    assert.ok(closed, 'the kubelet ends the session');
    // GOAWAY (type 7) with PROTOCOL_ERROR (1) is the last frame the session sent
    const tail = Buffer.concat(received);
    const goaway = tail.subarray(tail.length - 16);
    assert.equal(goaway.readUInt16BE(0), 0x8003);
    assert.equal(goaway.readUInt16BE(2), 7);
    assert.equal(goaway.readUInt32BE(12), 1);
    assert.ok(grown < 64, `the process grew ${grown.toFixed(0)} MiB`);
    assert.deepEqual([...codes], [200]);
    assert.ok(latencies.length > 0 && slowest < 1000, `bob waited ${slowest.toFixed(0)} ms`);
    // the kubelet still serves exec to others afterwards
    const again = await s.admin('GET', `/api/v1/namespaces/${NS}/pods/p`);
    assert.equal(again.code, 200);
  } finally {
    for (const k of sockets) k.destroy();
    await s.stop();
  }
});

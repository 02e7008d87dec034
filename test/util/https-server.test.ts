import { strict as assert } from 'node:assert';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import * as tls from 'node:tls';
import { CertificateAuthority } from '../../src/apiserver/auth/pki';
import { createHttpsServer } from '../../src/util/https-server';

const BIG = Buffer.alloc(8 << 20, 120);

/**
 * A request in several TLS records, sent while the server is still writing the previous
 * answer (the client has not read it): Node's server pauses its parser after the first record.
 * With Node's plain https.createServer the later records reach the paused parser and the
 * request is refused (HPE_PAUSED, the connection closed); createHttpsServer serves it.
 */
test('a request of several TLS records arriving during backpressure is served, not refused as HPE_PAUSED', async () => {
  const { certPem, keyPem } = CertificateAuthority.create('https-server-test').keyPair;
  const refused: string[] = [];
  let bigWritten!: () => void;
  const written = new Promise<void>((resolve) => {
    bigWritten = resolve;
  });
  const server = createHttpsServer({ cert: certPem, key: keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET') {
        res.setHeader('content-length', BIG.length);
        res.end(BIG);
        bigWritten();
      } else {
        const answer = `got ${Buffer.concat(chunks).length}`;
        res.setHeader('content-length', answer.length);
        res.end(answer);
      }
    });
  });
  server.on('clientError', (e: NodeJS.ErrnoException, socket) => {
    refused.push(e.code ?? e.message);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false });
  try {
    await new Promise<void>((resolve, reject) => {
      client.once('secureConnect', resolve);
      client.once('error', reject);
    });
    // Not reading: the 8 MiB answer stays in the server's write buffer (needDrain).
    client.pause();
    client.write('GET /big HTTP/1.1\r\nHost: x\r\n\r\n');
    await written;
    // 40 kB: three TLS records, written together.
    const body = 'b'.repeat(40_000);
    client.cork();
    client.write(`POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`);
    client.write(body);
    client.uncork();
    const received = await new Promise<string>((resolve, reject) => {
      let all = Buffer.alloc(0);
      const timer = setTimeout(() => reject(new Error('no answer to the POST within 10 s')), 10_000);
      const done = () => {
        clearTimeout(timer);
        resolve(all.toString('latin1'));
      };
      client.on('data', (d: Buffer) => {
        all = Buffer.concat([all, d]);
        if (all.toString('latin1').endsWith('got 40000')) done();
      });
      client.on('close', done);
      client.resume();
    });
    assert.deepEqual(refused, []);
    assert.ok(received.endsWith('got 40000'), `the POST's answer, after the 8 MiB GET's: ${received.slice(-120)}`);
  } finally {
    client.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

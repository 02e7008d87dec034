import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeconfigClient } from '../../src/client/kubeconfig';
import { coreRegistry } from '../../src/api/resources';
import { kubeconfigYaml } from '../../src/cluster/serving';

/**
 * A server that closes a kept connection as the next request arrives on it: client-go (Go's
 * net/http, persistConn.shouldRetryRequest) sends a GET again on a new connection; a POST, or
 * a request on a fresh connection, fails as it came.
 */
test('a replayable request on a kept connection the server closed is sent again on a new one; others fail', async () => {
  const requestsOn = new Map<object, number>();
  let hangUpFresh = false;
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const n = (requestsOn.get(req.socket) ?? 0) + 1;
    requestsOn.set(req.socket, n);
    // the second request on a connection, or every request when hangUpFresh: no answer at all
    if (n === 2 || hangUpFresh) return req.socket.destroy();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ kind: 'Status', status: 'Success', metadata: {} }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-retry-'));
  try {
    const file = path.join(dir, 'kubeconfig');
    fs.writeFileSync(file, kubeconfigYaml(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'u', {}));
    const client = KubeconfigClient.fromFile(file, coreRegistry());
    await client.request('GET', '/api/v1/namespaces');
    await client.request('GET', '/api/v1/namespaces');
    assert.equal(requestsOn.size, 2, 'the GET went out again on a second connection');
    await assert.rejects(client.request('POST', '/api/v1/namespaces', { body: {} }), { code: 'ECONNRESET' });
    assert.equal(requestsOn.size, 2, 'the POST (the second request on the second connection) was not sent again');
    hangUpFresh = true;
    await assert.rejects(client.request('GET', '/api/v1/namespaces'), { code: 'ECONNRESET' });
  } finally {
    server.closeAllConnections();
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * A hollow kubelet's client opens at most maxConnections connections: 20 requests at once
 * wait for one of 3, where without the bound each opened its own (a TLS handshake each on
 * upstream: 400 at once dropped by kube-apiserver at load 46).
 */
test('maxConnections bounds the connections a client opens; requests beyond wait for one', async () => {
  const sockets = new Set<object>();
  let open = 0;
  let most = 0;
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    sockets.add(req.socket);
    open++;
    most = Math.max(most, open);
    // Answered a moment later, so that requests overlap.
    setTimeout(() => {
      open--;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ kind: 'Status', status: 'Success', metadata: {} }));
    }, 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-bound-'));
  try {
    const file = path.join(dir, 'kubeconfig');
    fs.writeFileSync(file, kubeconfigYaml(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'u', {}));
    const burst = (client: KubeconfigClient) =>
      Promise.all(Array.from({ length: 20 }, () => client.request('GET', '/api/v1/namespaces')));
    await burst(KubeconfigClient.fromFile(file, coreRegistry(), undefined, { maxConnections: 3 }));
    assert.equal(sockets.size, 3, 'connections opened with the bound');
    assert.equal(most, 3, 'requests in flight at once with the bound');
    sockets.clear();
    most = 0;
    await burst(KubeconfigClient.fromFile(file, coreRegistry()));
    assert.equal(sockets.size, 20, 'connections opened without it');
  } finally {
    server.closeAllConnections();
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

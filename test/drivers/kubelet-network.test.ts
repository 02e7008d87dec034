// The egress proxy a real API server dials the hollow kubelets through (kubelet-network.ts),
// spoken to as k8s.io/apiserver's tunnelHTTPConnect speaks: one CONNECT per dial over the
// Unix socket, a 200 with nothing after it, then TLS (kubelet) or plain HTTP (pod) inside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import { Cluster } from '../../src/cluster/cluster';
import { clusterConfig } from '../../src/profile/config';
import { loadProfile } from '../../src/profile/profile';
import { CertificateAuthority } from '../../src/apiserver/auth/pki';
import { egressSelectorConfiguration, KubeletNetwork } from '../../src/drivers/kubelet-network';
import { Pod } from '../../src/api/core';

/** CONNECT authority through the socket: the status line, and the tunnel when it is 200. */
function connect(udsName: string, authority: string): Promise<{ status: number; reason: string; socket: Duplex }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      socketPath: udsName,
      method: 'CONNECT',
      path: authority,
      headers: { Host: '127.0.0.1' },
    });
    req.on('connect', (res, socket, head) => {
      assert.equal(head.length, 0, 'nothing may follow the CONNECT answer (tunnelHTTPConnect refuses buffered data)');
      resolve({ status: res.statusCode ?? 0, reason: res.statusMessage ?? '', socket });
    });
    req.on('error', reject);
    req.end();
  });
}

/** One HTTP/1.1 GET over a tunnel (optionally inside TLS), its raw answer. */
function get(socket: Duplex, p: string, headers = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    socket.on('data', (c: Buffer) => {
      out += c.toString();
    });
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
    socket.write(`GET ${p} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`);
  });
}

test('the egress proxy pipes node:10250 to its kubelet and answers as a pod at pod IP:port', async () => {
  const cluster = new Cluster({ config: clusterConfig(loadProfile('kubernetes-1.32')) });
  await cluster.start();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-egress-test-'));
  const kubeletCA = CertificateAuthority.create('kubelet-ca', { reuseLeafKey: true });
  const clusterCA = CertificateAuthority.create('cluster-ca', { reuseLeafKey: true });
  const net = new KubeletNetwork({ kubeletCA, clusterCA }, cluster.clock, {
    reviewToken: async () => undefined,
    review: async () => true,
  });
  const udsName = path.join(dir, 'egress.sock');
  try {
    await net.listen({ udsName });
    assert.match(egressSelectorConfiguration({ udsName }), /proxyProtocol: HTTPConnect[\s\S]*udsName: /);
    const kubelet = await cluster.addKubelet({ name: 'n1', nodeIP: '10.9.0.7', podCIDR: '10.244.1.0/24' });
    await net.serve(kubelet);
    await cluster.api.create({ resource: 'pods', namespace: 'default' }, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'a', namespace: 'default' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 8080 }] }] },
    } as Pod);
    await cluster.advance(5000);
    const pod = kubelet.pods.running().find((p) => p.metadata.name === 'a');
    assert.ok(pod?.status?.podIP, 'the pod runs with an IP');
    const ip = pod.status.podIP;

    // The kubelet, at each of its node's addresses: TLS with a certificate naming the address;
    // the caller is the API server with its client certificate of the cluster CA.
    const apiserver = clusterCA.issue({
      commonName: 'kube-apiserver-kubelet-client',
      organizations: ['system:masters'],
      usage: 'client',
    });
    for (const address of ['n1', '10.9.0.7']) {
      const t = await connect(udsName, `${address}:10250`);
      assert.equal(t.status, 200);
      const secure = tls.connect({
        socket: t.socket as never,
        ca: kubeletCA.certPem,
        cert: apiserver.certPem,
        key: apiserver.keyPem,
        servername: /^\d/.test(address) ? undefined : address,
        checkServerIdentity: (_host, cert) => tls.checkServerIdentity(address, cert),
      });
      await new Promise<void>((resolve, reject) => secure.once('secureConnect', resolve).once('error', reject));
      const answer = await get(secure, '/healthz');
      assert.match(answer, /^HTTP\/1\.1 200/);
      assert.match(answer, /\r\n\r\n(2\r\n)?ok\r\n/);
    }

    // The pod at a port it declares answers; another port refuses as a dial would.
    const p = await connect(udsName, `${ip}:8080`);
    assert.equal(p.status, 200);
    const answer = await get(p.socket, '/index.html?x=1');
    assert.match(
      answer,
      new RegExp(
        `hollow pod default/a on node n1 \\(${ip.replace(/\./g, '\\.')}\\) port 8080 answered GET /index.html over HTTP, no credentials`,
      ),
    );
    // What the caller presents, the pod sees: an Authorization header; over TLS (the proxy
    // id's https:), a client certificate or none. Its certificate is of a CA nobody has.
    const withHeader = await connect(udsName, `${ip}:8080`);
    assert.match(
      await get(withHeader.socket, '/h', 'Authorization: Bearer x\r\n'),
      /over HTTP, an Authorization header\n/,
    );
    for (const cert of [undefined, apiserver]) {
      const t = await connect(udsName, `${ip}:8080`);
      const secure = tls.connect({
        socket: t.socket as never,
        rejectUnauthorized: false,
        cert: cert?.certPem,
        key: cert?.keyPem,
      });
      await new Promise<void>((resolve, reject) => secure.once('secureConnect', resolve).once('error', reject));
      assert.equal(secure.getPeerCertificate().issuer.CN, 'hollow-pods-ca');
      assert.match(
        await get(secure, '/tls'),
        cert
          ? /port 8080 answered GET \/tls over HTTPS, a client certificate \(CN=kube-apiserver-kubelet-client\)\n/
          : /port 8080 answered GET \/tls over HTTPS, no credentials\n/,
      );
    }
    const verifying = await connect(udsName, `${ip}:8080`);
    const refusedTLS = tls.connect({ socket: verifying.socket as never, ca: clusterCA.certPem });
    await assert.rejects(
      new Promise<void>((resolve, reject) => refusedTLS.once('secureConnect', resolve).once('error', reject)),
      /self.signed|unable to verify|unable to get local issuer/,
      'a caller that verifies the pod certificate against the cluster CA fails the handshake',
    );
    const refused = await connect(udsName, `${ip}:9102`);
    assert.equal(refused.status, 503);
    assert.equal(refused.reason, `dial tcp ${ip}:9102: connect: connection refused`);
    assert.equal((await connect(udsName, 'n1:22')).status, 503, 'only the kubelet port listens on a node');
    assert.match((await connect(udsName, '10.200.0.1:80')).reason, /no route to host/);

    // A stopped kubelet is a machine that does not answer.
    kubelet.stop();
    assert.match((await connect(udsName, 'n1:10250')).reason, /no route to host/);
    assert.match((await connect(udsName, `${ip}:8080`)).reason, /no route to host/);
  } finally {
    await net.stop();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CertificateAuthority, CertificateRequest } from '../../src/apiserver/auth/pki';
import { Cluster } from '../../src/cluster/cluster';
import { clusterConfig } from '../../src/profile/config';
import { loadProfile } from '../../src/profile/profile';
import { ClusterServer } from '../../src/cluster/serving';

// kubespec serve keeps its leaf certificates in the PKI directory and reuses them on the next
// start while they fit (as kubeadm and kube-apiserver's --cert-dir do): a new RSA key per
// certificate and start made most of a start's time.

test('a kept certificate serves again only for the same CA, key, subject, usages and names', () => {
  const ca = CertificateAuthority.create('kubernetes', { reuseLeafKey: true });
  const server: CertificateRequest = {
    commonName: 'kube-apiserver',
    dnsNames: ['localhost', 'kubernetes'],
    ipAddresses: ['127.0.0.1', '::1'],
    usage: 'server',
  };
  const client: CertificateRequest = {
    commonName: 'kubernetes-admin',
    organizations: ['system:masters'],
    usage: 'client',
  };
  for (const req of [server, client]) {
    const pair = ca.issue(req);
    assert.equal(ca.issued(pair, req), true, `${req.commonName}: the same request`);
    assert.equal(ca.issued(pair, { ...req, commonName: 'other' }), false, 'another common name');
    assert.equal(ca.issued(pair, { ...req, organizations: ['system:nodes'] }), false, 'other groups');
    assert.equal(ca.issued(pair, { ...req, usage: 'both' }), false, 'other usages');
    assert.equal(ca.issued(pair, { ...req, dnsNames: [...(req.dnsNames ?? []), 'more'] }), false, 'more names');
    assert.equal(ca.issued(pair, { ...req, ipAddresses: ['10.0.0.1'] }), false, 'other addresses');
    assert.equal(
      ca.issued({ certPem: pair.certPem, keyPem: CertificateAuthority.create('x').keyPair.keyPem }, req),
      false,
      "a key that is not the certificate's",
    );
    assert.equal(CertificateAuthority.create('kubernetes').issued(pair, req), false, 'another CA of the same name');
    assert.equal(
      ca.issued({ certPem: pair.certPem.slice(0, 300), keyPem: pair.keyPem }, req),
      false,
      'a half-written file',
    );
  }
  assert.equal(
    ca.issued(ca.issue({ ...client, validDays: 1 }), { ...client, validDays: 1 }),
    false,
    'less than a day left',
  );
  assert.equal(ca.issued(ca.issue({ ...client, validDays: 2 }), client), true, 'two days left');
});

test('ClusterServer: a second start on the same directory reuses the serving, kubelet-client and admin certificates; other names make new ones', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-pki-test-'));
  const pki = path.join(dir, 'pki');
  const start = async (apiserver: Record<string, string> = {}) => {
    const cluster = new Cluster({
      config: clusterConfig(loadProfile('seed'), { 'kube-apiserver': { 'authorization-mode': 'RBAC', ...apiserver } }),
    });
    await cluster.start();
    const server = new ClusterServer(cluster, { dir, fastKeys: true, anyFreePort: true });
    await server.start();
    await server.stop();
    await cluster.stop();
    const read = (f: string) => fs.readFileSync(path.join(pki, f), 'utf8');
    return {
      apiserver: read('apiserver.crt'),
      kubelet: read('apiserver-kubelet-client.crt'),
      admin: read('admin.crt'),
      kubeconfig: fs.readFileSync(path.join(dir, 'admin.kubeconfig'), 'utf8'),
    };
  };
  try {
    const first = await start();
    const second = await start();
    assert.equal(second.apiserver, first.apiserver);
    assert.equal(second.kubelet, first.kubelet);
    assert.equal(second.admin, first.admin);
    assert.ok(
      second.kubeconfig.includes(Buffer.from(first.admin).toString('base64')),
      'the admin kubeconfig carries the kept certificate',
    );
    const other = await start({ 'bind-address': '127.0.0.2' });
    assert.notEqual(other.apiserver, first.apiserver, 'a new bind address is a new name: a new serving certificate');
    assert.equal(other.admin, first.admin);
    for (const f of ['ca.crt', 'ca.key']) fs.rmSync(path.join(pki, f));
    const newCA = await start({ 'bind-address': '127.0.0.2' });
    assert.notEqual(newCA.apiserver, other.apiserver, 'a new CA: new certificates');
    assert.notEqual(newCA.admin, first.admin);
    assert.notEqual(newCA.kubelet, first.kubelet);
    for (const f of fs.readdirSync(pki))
      assert.equal(fs.statSync(path.join(pki, f)).mode & 0o077, 0, `${f} is private`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

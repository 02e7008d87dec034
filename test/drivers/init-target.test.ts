import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { judgedFlags, profileForVersion } from '../../src/drivers/init-target';
import { loadTargetDeclaration } from '../../src/drivers/targets';

test('a cluster version chooses its profile, or the nearest older one with a note', () => {
  assert.deepEqual(profileForVersion('v1.32.13'), { profile: 'kubernetes-1.32' });
  assert.deepEqual(profileForVersion('v1.12.10'), { profile: 'seed' });
  assert.equal(profileForVersion('v1.33.1+k3s1').profile, 'kubernetes-1.32');
  assert.match(profileForVersion('v1.33.1+k3s1').note!, /no profile for v1\.33/);
  assert.equal(profileForVersion('v1.20.0').profile, 'seed');
});

test('the node-controller flags are read from a command line, in both spellings', () => {
  assert.deepEqual(
    judgedFlags([
      'kube-controller-manager',
      '--node-monitor-grace-period=40s',
      '--node-eviction-rate',
      '0.2',
      '--kubeconfig=/x',
      '--leader-elect=true',
    ]),
    { 'node-monitor-grace-period': '40s', 'node-eviction-rate': '0.2' },
  );
});

test('kubespec init-target writes a declaration that loads, with what the cluster showed and CONFIRM lines for the rest', async () => {
  const pods = [
    {
      metadata: { name: 'kube-controller-manager-cp1', namespace: 'kube-system' },
      spec: { containers: [{ command: ['kube-controller-manager', '--node-monitor-grace-period=40s'] }] },
    },
  ];
  const nodes = [
    { metadata: { name: 'cp1', labels: { 'topology.kubernetes.io/zone': 'z1' } } },
    { metadata: { name: 'w1', labels: { 'topology.kubernetes.io/zone': 'z2' } } },
  ];
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    const list = (kind: string, items: unknown[]) =>
      JSON.stringify({ kind, apiVersion: 'v1', metadata: { resourceVersion: '1' }, items });
    if (req.url === '/version') res.end(JSON.stringify({ major: '1', minor: '32', gitVersion: 'v1.32.13' }));
    else if (req.url?.startsWith('/api/v1/nodes')) res.end(list('NodeList', nodes));
    else if (req.url?.startsWith('/api/v1/namespaces/kube-system/pods')) res.end(list('PodList', pods));
    else {
      res.statusCode = 404;
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          code: 404,
          reason: 'NotFound',
          message: req.url,
        }),
      );
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-init-target-'));
  const kubeconfig = path.join(dir, 'kubeconfig');
  fs.writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}"}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
  );
  try {
    const out = path.join(dir, 'mine.yaml');
    const { stdout } = await promisify(execFile)(process.execPath, [
      path.resolve(__dirname, '../../bin/kubespec'),
      'init-target',
      '--kubeconfig',
      kubeconfig,
      '--name',
      'mine',
      '--out',
      out,
    ]);
    assert.match(stdout, /v1\.32\.13 → profile kubernetes-1\.32; 2 nodes, 2 zones/);
    const text = fs.readFileSync(out, 'utf8');
    assert.match(text, /node-monitor-grace-period: "40s" {3}# seen on the cluster/);
    assert.match(text, /node-eviction-rate: "0\.1" {3}# CONFIRM/);
    const d = loadTargetDeclaration(out);
    assert.equal(d.profile, 'kubernetes-1.32');
    assert.equal(d.configurableFlags, false);
    assert.equal(d.flags['kube-controller-manager']?.['node-monitor-grace-period'], '40s');
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

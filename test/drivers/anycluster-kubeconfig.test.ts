import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { Cluster } from '../../src/cluster/cluster';
import { clusterConfig } from '../../src/profile/config';
import { Flags, loadProfile } from '../../src/profile/profile';
import { ClusterServer, kubeconfigYaml } from '../../src/cluster/serving';
import { KubeconfigClient } from '../../src/client/kubeconfig';
import { coreRegistry } from '../../src/api/resources';
import { isStatusError } from '../../src/api/errors';

/**
 * Every kind of kubeconfig people point kubespec at: plain HTTP (the insecure port, the way
 * `kubectl proxy` serves), a bearer token, a client certificate, an exec plugin; and a
 * server with its secure port off (--secure-port 0, "0 = off").
 */

async function served(flags: Flags['kube-apiserver']) {
  const cluster = new Cluster({
    config: clusterConfig(loadProfile('seed'), { 'kube-apiserver': { 'authorization-mode': 'RBAC', ...flags } }),
  });
  await cluster.start();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-anycluster-'));
  const server = new ClusterServer(cluster, { dir, fastKeys: true, anyFreePort: true });
  const e = await server.start();
  const write = (name: string, text: string) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, text, { mode: 0o600 });
    return f;
  };
  return {
    cluster,
    server,
    e,
    dir,
    write,
    stop: async () => {
      await server.stop();
      await cluster.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const client = (file: string) => KubeconfigClient.fromFile(file, coreRegistry());

test('a plain-HTTP kubeconfig (insecure port) works with @kubernetes/client-node underneath; https ones keep verifying', async () => {
  const s = await served({ 'insecure-port': '8080' });
  try {
    assert.ok(s.e.insecure, 'the insecure port listens');
    const http = client(
      s.write('http.kubeconfig', kubeconfigYaml(`http://127.0.0.1:${s.e.insecure!.port}`, 'nobody', {})),
    );
    const ns = await http.list({ resource: 'namespaces' });
    assert.ok(ns.items.some((n) => n.metadata.name === 'kube-system'));
    // Watches go through the same agent.
    const seen: string[] = [];
    const w = await http.watch(
      { resource: 'namespaces' },
      {},
      { onEvent: (ev) => seen.push(`${ev.type} ${ev.object.metadata.name}`) },
    );
    await http.create(
      { resource: 'namespaces' },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'over-http' } },
    );
    for (let i = 0; i < 400 && !seen.includes('ADDED over-http'); i++) await new Promise((r) => setTimeout(r, 10));
    w.stop();
    assert.ok(seen.includes('ADDED over-http'), seen.join(', '));
    // An https server keeps its CA check: a kubeconfig without the CA is refused.
    const noCA = client(s.write('noca.kubeconfig', kubeconfigYaml(s.e.server, 'nobody', {})));
    await assert.rejects(noCA.list({ resource: 'namespaces' }), /certificate|self.signed|verify/i);
    assert.equal(noCA.kubeConfig.getCurrentCluster()!.skipTLSVerify, false);
  } finally {
    await s.stop();
  }
});

test('token, client-certificate and exec-plugin kubeconfigs authenticate as their users', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-tokens-'));
  const tokens = path.join(dir, 'tokens.csv');
  fs.writeFileSync(tokens, 'tok-admin,alice,1,"system:masters"\ntok-exec,bob,2,"system:masters"\n');
  const s = await served({ 'token-auth-file': tokens });
  try {
    const admin = client(s.e.kubeconfig); // client certificate
    const viaCert = await admin.list({ resource: 'nodes' });
    assert.deepEqual(viaCert.items, []);
    const ca = fs.readFileSync(s.e.caFile, 'utf8');
    const viaToken = client(
      s.write('token.kubeconfig', kubeconfigYaml(s.e.server, 'alice', { token: 'tok-admin' }, ca)),
    );
    assert.deepEqual((await viaToken.list({ resource: 'nodes' })).items, []);
    const wrong = client(s.write('wrong.kubeconfig', kubeconfigYaml(s.e.server, 'mallory', { token: 'nope' }, ca)));
    await assert.rejects(wrong.list({ resource: 'nodes' }), (e) => isStatusError(e) && e.code === 401);
    // An exec plugin (client.authentication.k8s.io/v1) that prints an ExecCredential.
    const plugin = path.join(dir, 'plugin.sh');
    fs.writeFileSync(
      plugin,
      '#!/bin/sh\necho \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"tok-exec"}}\'\n',
      { mode: 0o755 },
    );
    const doc = yaml.load(kubeconfigYaml(s.e.server, 'bob', {}, ca)) as { users: { user: unknown }[] };
    doc.users[0].user = {
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never' },
    };
    const viaExec = client(s.write('exec.kubeconfig', yaml.dump(doc)));
    await viaExec.create(
      { resource: 'namespaces' },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'made-by-bob' } },
    );
    assert.ok(
      [...s.cluster.api.audit.writesByUser.keys()].includes('bob'),
      `writers: ${[...s.cluster.api.audit.writesByUser.keys()].join(', ')}`,
    );
  } finally {
    await s.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('--secure-port 0: the API serves on the insecure port and publishes no `kubernetes` service (upstream has no port to publish)', async () => {
  const off = await served({ 'secure-port': '0', 'insecure-port': '8080' });
  try {
    assert.equal(off.e.secure, undefined);
    assert.match(off.e.server, /^http:\/\/127\.0\.0\.1:\d+$/);
    const c = client(off.e.kubeconfig);
    await off.cluster.advance(30_000); // several reconcile intervals
    await assert.rejects(c.get({ resource: 'services', namespace: 'default' }, 'kubernetes'), (e) =>
      isStatusError(e, 'NotFound'),
    );
    await assert.rejects(c.get({ resource: 'endpoints', namespace: 'default' }, 'kubernetes'), (e) =>
      isStatusError(e, 'NotFound'),
    );
    assert.ok((await c.list({ resource: 'namespaces' })).items.some((n) => n.metadata.name === 'default'));
  } finally {
    await off.stop();
  }
  // With the secure port on, the service targets it.
  const on = await served({ 'secure-port': '6443' });
  try {
    const svc = await client(on.e.kubeconfig).get<
      { spec: { ports: { targetPort: number }[] } } & import('../../src/api/meta').KubeObject
    >({ resource: 'services', namespace: 'default' }, 'kubernetes');
    assert.equal(svc.spec.ports[0].targetPort, 6443);
  } finally {
    await on.stop();
  }
});

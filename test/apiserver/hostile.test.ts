import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { served, grant, sleep, Answer, credentialsOf } from '../hostile-harness';
import { watchStats } from '../../src/apiserver/http/watch';

/**
 * Issue 13: each defect found by attacking `kubespec serve` with namespace-level rights,
 * reproduced over HTTPS against a served cluster. Expectations are kube-apiserver's answers.
 */

const NS = 'team';
const SECRETS = `/api/v1/namespaces/${NS}/secrets`;
const isStatus = (a: Answer, code: number) => {
  assert.equal(a.code, code, a.text.slice(0, 500));
  assert.equal(a.json?.kind, 'Status', a.text.slice(0, 200));
  assert.equal(a.json?.code, code);
};
const secret = (name: string, metadata: Record<string, unknown> = {}) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name, ...metadata }, data: {} });

test('hostile: malformed ownerReferences are refused with 4xx and the garbage collector survives', async () => {
  const s = await served();
  try {
    await grant(s, NS, 'eve', [
      { apiGroups: [''], resources: ['secrets'], verbs: ['create', 'get', 'list', 'delete'] },
    ]);
    const eve = s.as('eve');
    const notArray = await eve('POST', SECRETS, secret('a', { ownerReferences: 'x' }));
    isStatus(notArray, 400);
    const noApiVersion = await eve(
      'POST',
      SECRETS,
      secret('b', { ownerReferences: [{ kind: 'Secret', name: 'x', uid: 'u1' }] }),
    );
    isStatus(noApiVersion, 422);
    assert.match(noApiVersion.json.message, /metadata\.ownerReferences\[0\]\.apiVersion/);
    const noUid = await eve(
      'POST',
      SECRETS,
      secret('c', { ownerReferences: [{ apiVersion: 'v1', kind: 'Secret', name: 'x' }] }),
    );
    isStatus(noUid, 422);
    const twoControllers = await eve(
      'POST',
      SECRETS,
      secret('d', {
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Secret', name: 'x', uid: 'u1', controller: true },
          { apiVersion: 'v1', kind: 'Secret', name: 'y', uid: 'u2', controller: true },
        ],
      }),
    );
    isStatus(twoControllers, 422);
    // a valid dependent of a missing owner: the collector deletes it, nothing crashes
    const ok = await eve(
      'POST',
      SECRETS,
      secret('e', { ownerReferences: [{ apiVersion: 'v1', kind: 'Secret', name: 'gone', uid: 'u9' }] }),
    );
    assert.equal(ok.code, 201, ok.text);
    await s.cluster.settle();
    assert.equal((await s.admin('GET', SECRETS)).code, 200);
  } finally {
    await s.stop();
  }
});

test('hostile: a YAML alias bomb is refused quickly with 400', async () => {
  const s = await served();
  try {
    await grant(s, NS, 'eve', [{ apiGroups: [''], resources: ['secrets'], verbs: ['create'] }]);
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 10; i++)
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const bomb = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: bomb\n${levels.join('\n')}\n`;
    const t0 = Date.now();
    const a = await s.as('eve')('POST', SECRETS, bomb, { 'Content-Type': 'application/yaml' });
    isStatus(a, 400);
    assert.ok(Date.now() - t0 < 5000);
  } finally {
    await s.stop();
  }
});

test('hostile: a user who may create rolebindings cannot bind itself to cluster-admin (RBAC bind/escalate)', async () => {
  const s = await served();
  try {
    await grant(s, NS, 'eve', [
      {
        apiGroups: ['rbac.authorization.k8s.io'],
        resources: ['rolebindings', 'roles'],
        verbs: ['create', 'update', 'get'],
      },
    ]);
    const eve = s.as('eve');
    const rb = (name: string, kind: string, role: string) =>
      JSON.stringify({
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: role },
        subjects: [{ kind: 'User', name: 'eve', apiGroup: 'rbac.authorization.k8s.io' }],
      });
    const bind = await eve(
      'POST',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`,
      rb('pwn', 'ClusterRole', 'cluster-admin'),
    );
    isStatus(bind, 403);
    assert.match(bind.json.message, /attempting to grant RBAC permissions not currently held/);
    const role = await eve(
      'POST',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`,
      JSON.stringify({ metadata: { name: 'all' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }),
    );
    isStatus(role, 403);
    // a role within what eve holds is fine, and so is binding it
    const small = await eve(
      'POST',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`,
      JSON.stringify({
        metadata: { name: 'small' },
        rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['get'] }],
      }),
    );
    assert.equal(small.code, 201, small.text);
    assert.equal(
      (await eve('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`, rb('ok', 'Role', 'small')))
        .code,
      201,
    );
    // the bind verb on the cluster role lets a user bind it without holding it (upstream's escape hatch)
    await grant(s, NS, 'binder', [
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'], verbs: ['create'] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'] },
    ]);
    assert.equal(
      (
        await s.as('binder')(
          'POST',
          `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`,
          rb('granted', 'ClusterRole', 'admin'),
        )
      ).code,
      201,
    );
    // escalate lets a user write a role above its own rights
    await grant(s, NS, 'esc', [
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['create', 'escalate'] },
    ]);
    assert.equal(
      (
        await s.as('esc')(
          'POST',
          `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`,
          JSON.stringify({
            metadata: { name: 'big' },
            rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }],
          }),
        )
      ).code,
      201,
    );
  } finally {
    await s.stop();
  }
});

test('hostile: deletionTimestamp and deletionGracePeriodSeconds are ignored on update and patch', async () => {
  const s = await served();
  try {
    await grant(s, NS, 'eve', [
      { apiGroups: [''], resources: ['secrets', 'namespaces'], verbs: ['create', 'get', 'patch', 'update'] },
    ]);
    const eve = s.as('eve');
    assert.equal((await eve('POST', SECRETS, secret('keep', { finalizers: [] }))).code, 201);
    const p = await eve(
      'PATCH',
      `${SECRETS}/keep`,
      JSON.stringify({ metadata: { deletionTimestamp: '2020-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 } }),
      { 'Content-Type': 'application/merge-patch+json' },
    );
    assert.equal(p.code, 200, p.text);
    const got = await s.admin('GET', `${SECRETS}/keep`);
    assert.equal(got.code, 200);
    assert.equal(got.json.metadata.deletionTimestamp, undefined);
    const cur = got.json;
    const u = await eve(
      'PUT',
      `${SECRETS}/keep`,
      JSON.stringify({
        ...cur,
        metadata: { ...cur.metadata, deletionTimestamp: '2020-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 },
      }),
    );
    assert.equal(u.code, 200, u.text);
    assert.equal((await s.admin('GET', `${SECRETS}/keep`)).json.metadata.deletionTimestamp, undefined);
    const ns = await s.admin(
      'PATCH',
      `/api/v1/namespaces/${NS}`,
      JSON.stringify({ metadata: { deletionTimestamp: '2020-01-01T00:00:00Z' } }),
      { 'Content-Type': 'application/merge-patch+json' },
    );
    assert.equal(ns.code, 200);
    await s.cluster.settle();
    assert.equal((await s.admin('GET', `/api/v1/namespaces/${NS}`)).json.status.phase, 'Active');
  } finally {
    await s.stop();
  }
});

test('hostile: verbs a path does not serve are 405; unknown field selectors are 400 and delete nothing', async () => {
  const s = await served();
  try {
    await s.cluster.addKubelet({ name: 'n1', nodeIP: '10.0.0.1' });
    isStatus(await s.admin('DELETE', '/api/v1/nodes/n1/status'), 405);
    assert.equal((await s.admin('GET', '/api/v1/nodes/n1')).code, 200);
    isStatus(await s.admin('POST', '/api/v1/nodes/n1', JSON.stringify({ metadata: { name: 'n1' } })), 405);
    isStatus(await s.admin('POST', '/api/v1/nodes/n1/status', JSON.stringify({ metadata: { name: 'n1' } })), 405);
    await grant(s, NS, 'eve', [
      { apiGroups: [''], resources: ['secrets'], verbs: ['create', 'list', 'deletecollection'] },
    ]);
    assert.equal((await s.admin('POST', SECRETS, secret('s1'))).code, 201);
    const dc = await s.as('eve')('DELETE', `${SECRETS}?fieldSelector=spec.foo%3Dbar`);
    isStatus(dc, 400);
    assert.match(dc.json.message, /field label not supported: spec\.foo/);
    isStatus(await s.admin('GET', `${SECRETS}?fieldSelector=spec.foo%3Dbar`), 400);
    assert.equal((await s.admin('GET', SECRETS)).json.items.length, 1);
    assert.equal((await s.admin('GET', `${SECRETS}?fieldSelector=type%3DOpaque`)).code, 200);
  } finally {
    await s.stop();
  }
});

test('hostile: deep nesting, oversized bodies, wrong types and bad encodings are 4xx Status, never 500', async () => {
  const s = await served();
  try {
    await grant(s, NS, 'eve', [
      {
        apiGroups: [''],
        resources: ['secrets', 'pods', 'configmaps', 'resourcequotas'],
        verbs: ['create', 'list', 'get', 'watch'],
      },
    ]);
    const eve = s.as('eve');
    const deep = `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"deep"},"x":${'['.repeat(3000)}${']'.repeat(3000)}}`;
    isStatus(await eve('POST', SECRETS, deep), 400);
    assert.equal((await s.admin('GET', SECRETS)).code, 200);
    const big = secret('big', { annotations: { a: 'x'.repeat(4 * 1024 * 1024) } });
    isStatus(await eve('POST', SECRETS, big), 413);
    const pods = `/api/v1/namespaces/${NS}/pods`;
    const wrongContainers = await eve(
      'POST',
      pods,
      JSON.stringify({ metadata: { name: 'p' }, spec: { containers: 'x' } }),
    );
    assert.ok([400, 422].includes(wrongContainers.code), wrongContainers.text);
    assert.match(wrongContainers.json.message, /spec\.containers/);
    const wrongLabels = await eve('POST', SECRETS, secret('l', { labels: 'x' }));
    isStatus(wrongLabels, 400);
    assert.match(wrongLabels.json.message, /metadata\.labels/);
    isStatus(await eve('GET', `/api/v1/namespaces/${NS}/secrets/%E0%A4%A`), 400);
    isStatus(await eve('GET', `${SECRETS}?watch=true&timeoutSeconds=-1`), 400);
    isStatus(await eve('GET', `${SECRETS}?resourceVersion=abc`), 400);
    isStatus(await eve('GET', `${SECRETS}?watch=true&resourceVersion=abc`), 400);
    const future = await eve('GET', `${SECRETS}?watch=true&resourceVersion=999999999`);
    isStatus(future, 504);
    assert.match(future.json.message, /Too large resource version/);
    await s.admin(
      'POST',
      `/api/v1/namespaces/${NS}/resourcequotas`,
      JSON.stringify({ metadata: { name: 'q' }, spec: { hard: { 'requests.cpu': '1', pods: '5' } } }),
    );
    const badQ = await eve(
      'POST',
      pods,
      JSON.stringify({
        metadata: { name: 'q' },
        spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: 'lots' } } }] },
      }),
    );
    // upstream decodes quantities while decoding the body: a bad one is 400, before quota admission
    isStatus(badQ, 400);
    assert.match(badQ.json.message, /quantities must match the regular expression/);
    isStatus(
      await s.admin(
        'POST',
        `/api/v1/namespaces/${NS}/resourcequotas`,
        JSON.stringify({ metadata: { name: 'q2' }, spec: { hard: { pods: 'many' } } }),
      ),
      400,
    );
  } finally {
    await s.stop();
  }
});

test('hostile: invalid metadata is refused with 422 and never stored', async () => {
  const s = await served();
  try {
    await grant(s, NS, 'eve', [{ apiGroups: [''], resources: ['secrets'], verbs: ['create'] }]);
    const eve = s.as('eve');
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ['annotation key too long', { annotations: { [`${'a'.repeat(64)}`]: 'v' } }, /metadata\.annotations/],
      ['annotation prefix not a subdomain', { annotations: { 'Bad_Prefix/k': 'v' } }, /metadata\.annotations/],
      ['annotations over 256 KiB', { annotations: { a: 'x'.repeat(256 * 1024) } }, /metadata\.annotations/],
      ['label prefix not a subdomain', { labels: { 'UPPER/k': 'v' } }, /metadata\.labels/],
      ['finalizer not a qualified name', { finalizers: ['no spaces allowed'] }, /metadata\.finalizers/],
      ['finalizer without a domain', { finalizers: ['nodomain'] }, /metadata\.finalizers/],
      ['negative generation', { generation: -1 }, /metadata\.generation/],
    ];
    for (const [what, meta, field] of bad) {
      const a = await eve('POST', SECRETS, secret('m', meta));
      assert.equal(a.code, 422, `${what}: ${a.text.slice(0, 300)}`);
      assert.match(a.json.message, field, what);
    }
    isStatus(await eve('POST', SECRETS, secret('m', { managedFields: 'x' })), 400);
    assert.equal((await s.admin('GET', SECRETS)).json.items.length, 0);
  } finally {
    await s.stop();
  }
});

test('hostile: kubectl create <kind> sends protobuf and every built-in kind it creates decodes', {
  skip:
    spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status !== 0
      ? 'kubectl is not installed'
      : false,
}, async () => {
  const s = await served();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-kubectl-'));
  try {
    const kubeconfig = path.join(dir, 'kubeconfig');
    fs.writeFileSync(kubeconfig, s.server.kubeconfigFor(s.url, 'kubernetes-admin', ['system:masters']));
    const kubectl = (...args: string[]) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(
          'kubectl',
          args,
          { env: { PATH: process.env.PATH, HOME: dir, KUBECONFIG: kubeconfig, KUBECACHEDIR: path.join(dir, 'cache') } },
          (e, stdout, stderr) => resolve({ code: e ? 1 : 0, out: stdout + stderr }),
        );
      });
    assert.equal((await kubectl('create', 'namespace', NS)).code, 0);
    const creates = [
      ['secret', 'generic', 's1', '--from-literal=a=b'],
      ['serviceaccount', 'sa1'],
      ['role', 'r1', '--verb=get', '--resource=pods'],
      ['clusterrole', 'cr1', '--verb=get', '--resource=nodes'],
      ['rolebinding', 'rb1', '--role=r1', '--user=bob'],
      ['clusterrolebinding', 'crb1', '--clusterrole=cr1', '--user=bob'],
      ['quota', 'q1', '--hard=pods=5,requests.cpu=2'],
      ['job', 'j1', '--image=busybox'],
      ['service', 'clusterip', 'svc1', '--tcp=80:8080'],
    ];
    for (const c of creates) {
      const r = await kubectl('-n', NS, 'create', ...c);
      assert.equal(r.code, 0, `kubectl create ${c.join(' ')}: ${r.out}`);
    }
    assert.equal((await kubectl('-n', NS, 'get', 'secret', 's1', '-o', 'jsonpath={.data.a}')).out, 'Yg==');
    assert.equal(
      (await kubectl('-n', NS, 'get', 'quota', 'q1', '-o', 'jsonpath={.spec.hard.requests\\.cpu}')).out,
      '2',
    );
    assert.equal(
      (await kubectl('-n', NS, 'get', 'job', 'j1', '-o', 'jsonpath={.spec.template.spec.containers[0].image}')).out,
      'busybox',
    );
    assert.equal(
      (await kubectl('-n', NS, 'get', 'svc', 'svc1', '-o', 'jsonpath={.spec.ports[0].targetPort}')).out,
      '8080',
    );
    assert.equal((await kubectl('get', 'clusterrole', 'cr1', '-o', 'jsonpath={.rules[0].resources[0]}')).out, 'nodes');
    assert.equal(
      (await kubectl('-n', NS, 'get', 'rolebinding', 'rb1', '-o', 'jsonpath={.subjects[0].name}')).out,
      'bob',
    );
  } finally {
    await s.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('hostile: in-flight limits answer 429 with Retry-After; a half-sent body holds neither the server nor the clock', async () => {
  const s = await served({ flags: { 'max-mutating-requests-inflight': '1', 'max-requests-inflight': '1' } });
  const sockets: tls.TLSSocket[] = [];
  try {
    await grant(s, NS, 'eve', [{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'list'] }]);
    // a client that announces 100 bytes and sends 10 holds one write slot
    const url = new URL(s.url);
    const kc = s.server.kubeconfigFor(s.url, 'eve', []);
    const { cert, key } = credentialsOf(kc);
    const half = tls.connect({ host: url.hostname, port: Number(url.port), cert, key, rejectUnauthorized: false });
    sockets.push(half);
    await new Promise((r) => half.once('secureConnect', r));
    half.write(
      `POST ${SECRETS} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"metadata"`,
    );
    await sleep(300);
    const second = await s.as('eve')('POST', SECRETS, secret('s2'));
    isStatus(second, 429);
    assert.equal(second.headers['retry-after'], '1');
    assert.equal(second.json.details.retryAfterSeconds, 1);
    // reads have their own limit; system:masters is never refused
    assert.equal((await s.as('eve')('GET', SECRETS)).code, 200);
    assert.equal((await s.admin('POST', SECRETS, secret('s3'))).code, 201);
    // virtual time still moves while the half-sent request waits
    const t0 = Date.now();
    const clock = await s.admin('POST', '/kubespec/v1/clock', JSON.stringify({ advanceSeconds: 30 }));
    assert.equal(clock.code, 200, clock.text);
    assert.ok(Date.now() - t0 < 10_000);
    // and the clock takes only finite, bounded advances
    for (const bad of ['1e400', '1e12', '-1', '"10"', 'null']) {
      const a = await s.admin('POST', '/kubespec/v1/clock', `{"advanceSeconds": ${bad}}`);
      isStatus(a, 400);
    }
  } finally {
    for (const k of sockets) k.destroy();
    await s.stop();
  }
});

test('hostile: a watcher that stops reading is closed when its buffer fills and memory stays bounded', async () => {
  const s = await served();
  const sockets: tls.TLSSocket[] = [];
  try {
    await grant(s, NS, 'eve', [
      { apiGroups: [''], resources: ['secrets'], verbs: ['create', 'update', 'watch', 'list'] },
    ]);
    const url = new URL(s.url);
    const { cert, key } = credentialsOf(s.server.kubeconfigFor(s.url, 'eve', []));
    const slow = tls.connect({ host: url.hostname, port: Number(url.port), cert, key, rejectUnauthorized: false });
    sockets.push(slow);
    await new Promise((r) => slow.once('secureConnect', r));
    slow.write(`GET ${SECRETS}?watch=true HTTP/1.1\r\nHost: x\r\n\r\n`);
    slow.pause(); // never reads
    await sleep(200);
    const blob = Buffer.alloc(256 * 1024, 7).toString('base64');
    const heap0 = process.memoryUsage().heapUsed;
    const dropped0 = watchStats.dropped;
    for (let i = 0; i < 120 && watchStats.dropped === dropped0; i++) {
      const a = await s.admin('POST', SECRETS, JSON.stringify({ metadata: { name: `big-${i}` }, data: { blob } }));
      assert.equal(a.code, 201);
    }
    await sleep(200);
    const growth = process.memoryUsage().heapUsed - heap0;
    assert.equal(watchStats.dropped - dropped0, 1, 'the server never closed the watcher that does not read');
    // a reading watcher from the same point sees every object
    const list = await s.admin('GET', SECRETS);
    assert.ok(list.json.items.length >= 20);
    assert.ok(growth < 400 * 1024 * 1024, `heap grew ${growth} bytes`);
  } finally {
    for (const k of sockets) k.destroy();
    await s.stop();
  }
});

test('hostile: a kubelet that cannot register is refused with 400 and leaves no zombie', async () => {
  const s = await served();
  try {
    const bad = await s.admin('POST', '/kubespec/v1/kubelets', JSON.stringify({ nodeName: 'n2', nodeIP: 'not-an-ip' }));
    isStatus(bad, 400);
    assert.match(bad.json.message, /node-ip/);
    assert.equal(s.cluster.kubelets.has('n2'), false);
    isStatus(await s.admin('POST', '/kubespec/v1/kubelets', JSON.stringify({ nodeName: 'Bad_Name' })), 400);
    assert.equal(s.cluster.kubelets.has('Bad_Name'), false);
    // the same name registers once its spec is right
    assert.equal(
      (await s.admin('POST', '/kubespec/v1/kubelets', JSON.stringify({ nodeName: 'n2', nodeIP: '10.0.0.2' }))).code,
      201,
    );
    assert.equal((await s.admin('GET', '/api/v1/nodes/n2')).code, 200);
    assert.equal((await s.admin('GET', '/api/v1/nodes/Bad_Name')).code, 404);
  } finally {
    await s.stop();
  }
});

test('hostile: fieldValidation Ignore/Warn/Strict; unknown fields are never stored', async () => {
  const s = await served();
  try {
    await s.admin('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: NS } }));
    const body = (name: string) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name, colour: 'red' },
        data: {},
        bogus: { deep: 1 },
      });
    const strict = await s.admin('POST', `${SECRETS}?fieldValidation=Strict`, body('a'));
    isStatus(strict, 400);
    assert.match(strict.json.message, /strict decoding error: unknown field "bogus", unknown field "metadata.colour"/);
    const warn = await s.admin('POST', SECRETS, body('b'));
    assert.equal(warn.code, 201);
    assert.match(String(warn.headers.warning), /unknown field \\"bogus\\"/);
    const ignore = await s.admin('POST', `${SECRETS}?fieldValidation=Ignore`, body('c'));
    assert.equal(ignore.code, 201);
    assert.equal(ignore.headers.warning, undefined);
    for (const n of ['b', 'c']) {
      const got = (await s.admin('GET', `${SECRETS}/${n}`)).json;
      assert.equal(got.bogus, undefined);
      assert.equal(got.metadata.colour, undefined);
    }
    isStatus(await s.admin('POST', `${SECRETS}?fieldValidation=Loose`, body('d')), 400);
  } finally {
    await s.stop();
  }
});

test('hostile: Node authorizer and NodeRestriction confine a kubelet identity to its own node', async () => {
  const s = await served({ flags: { 'authorization-mode': 'Node,RBAC' } });
  try {
    await s.cluster.addKubelet({ name: 'n1', nodeIP: '10.0.0.1' });
    await s.cluster.addKubelet({ name: 'n2', nodeIP: '10.0.0.2' });
    await s.admin('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: NS } }));
    for (const n of ['mine', 'theirs']) await s.admin('POST', SECRETS, secret(n));
    const pod = (name: string, node: string, sec: string) =>
      JSON.stringify({
        metadata: { name },
        spec: {
          nodeName: node,
          containers: [{ name: 'c', image: 'i' }],
          volumes: [{ name: 'v', secret: { secretName: sec } }],
        },
      });
    assert.equal((await s.admin('POST', `/api/v1/namespaces/${NS}/pods`, pod('p1', 'n1', 'mine'))).code, 201);
    assert.equal((await s.admin('POST', `/api/v1/namespaces/${NS}/pods`, pod('p2', 'n2', 'theirs'))).code, 201);
    const n1 = s.as('system:node:n1', ['system:nodes']);
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    // v1.32's AuthorizeNodeWithSelectors: a node reads its own Node only
    assert.equal((await n1('GET', '/api/v1/nodes/n1')).code, 200);
    const all = await n1('GET', '/api/v1/nodes');
    isStatus(all, 403);
    assert.match(all.json.message, /node 'n1' cannot read all nodes, only its own Node object$/);
    isStatus(await n1('GET', '/api/v1/nodes/n2'), 403);
    assert.equal(
      (await n1('PATCH', '/api/v1/nodes/n1', JSON.stringify({ metadata: { labels: { a: 'b' } } }), merge)).code,
      200,
    );
    const other = await n1('PATCH', '/api/v1/nodes/n2', JSON.stringify({ metadata: { labels: { a: 'b' } } }), merge);
    isStatus(other, 403);
    assert.match(other.json.message, /is not allowed to modify node "n2"/);
    assert.equal((await n1('GET', `${SECRETS}/mine`)).code, 200);
    isStatus(await n1('GET', `${SECRETS}/theirs`), 403);
    isStatus(await n1('GET', SECRETS), 403);
    isStatus(await n1('POST', `/api/v1/namespaces/${NS}/pods`, pod('p3', 'n1', 'mine')), 403);
    assert.equal(
      (
        await n1(
          'PATCH',
          `/api/v1/namespaces/${NS}/pods/p1/status`,
          JSON.stringify({ status: { message: 'x' } }),
          merge,
        )
      ).code,
      200,
    );
    isStatus(
      await n1('PATCH', `/api/v1/namespaces/${NS}/pods/p2/status`, JSON.stringify({ status: { message: 'x' } }), merge),
      403,
    );
    isStatus(await n1('DELETE', `/api/v1/namespaces/${NS}/pods/p2`), 403);
    isStatus(
      await n1(
        'PUT',
        `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n2`,
        JSON.stringify({ metadata: { name: 'n2' } }),
      ),
      403,
    );
    // without the Node mode a kubelet identity has no rights at all (RBAC grants system:nodes nothing here)
    const plain = await served();
    try {
      isStatus(await plain.as('system:node:n1', ['system:nodes'])('GET', '/api/v1/nodes'), 403);
    } finally {
      await plain.stop();
    }
  } finally {
    await s.stop();
  }
});

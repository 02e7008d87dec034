import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as https from 'node:https';
import * as tls from 'node:tls';
import { served, grant, Answer, Served, credentialsOf } from '../hostile-harness';

/**
 * Issue 28: places a tenant with namespace-level rights reached that kube-apiserver never
 * lets anyone reach, each reproduced over HTTPS against a served cluster (RBAC on). The
 * expected answers are kube-apiserver v1.32's.
 */

const NS = 'team';
const LIMIT = { timeout: 120_000 };
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const isStatus = (a: Answer, code: number) => {
  assert.equal(a.code, code, `${a.code} ${a.text.slice(0, 500)}`);
  assert.equal(a.json?.kind, 'Status', a.text.slice(0, 200));
  assert.equal(a.json?.code, code);
};
const ok = (a: Answer, code = 200) => assert.equal(a.code, code, a.text.slice(0, 500));

async function withServed(body: (s: Served) => Promise<void>, options?: Parameters<typeof served>[0]) {
  const s = await served(options);
  try {
    await body(s);
  } finally {
    await s.stop();
  }
}

test('authz: cluster-scoped resources through a namespaced URL are 404, whatever the namespace grants', LIMIT, () =>
  withServed(async (s) => {
    // the owner of namespace "team" with every verb on everything in it
    await grant(s, NS, 'eve', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
    await s.admin('POST', '/api/v1/nodes', JSON.stringify({ metadata: { name: 'n1' } }));
    await s.admin('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: 'other', labels: { t: 'x' } } }));
    const eve = s.as('eve');
    isStatus(await eve('GET', `/api/v1/namespaces/${NS}/nodes`), 404);
    isStatus(await eve('GET', `/api/v1/namespaces/${NS}/nodes/n1`), 404);
    isStatus(
      await eve('PATCH', `/api/v1/namespaces/${NS}/nodes/n1`, '{"metadata":{"labels":{"a":"b"}}}', {
        'Content-Type': 'application/merge-patch+json',
      }),
      404,
    );
    isStatus(await eve('GET', `/api/v1/namespaces/${NS}/nodes/n1/proxy/pods`), 404);
    isStatus(
      await eve('POST', `/api/v1/namespaces/${NS}/namespaces`, JSON.stringify({ metadata: { name: 'mine' } })),
      404,
    );
    isStatus(await eve('DELETE', `/api/v1/namespaces/${NS}/namespaces?labelSelector=t%3Dx`), 404);
    isStatus(await eve('DELETE', `${RBAC}/namespaces/${NS}/clusterroles/view`), 404);
    isStatus(await eve('GET', `/api/v1/namespaces/${NS}/persistentvolumes`), 404);
    ok(await s.admin('GET', `${RBAC}/clusterroles/view`));
    ok(await s.admin('GET', '/api/v1/namespaces/other'));
    ok(await s.admin('GET', '/api/v1/namespaces/mine'), 404);
    const n1 = await s.admin('GET', '/api/v1/nodes/n1');
    assert.equal(n1.json?.metadata?.labels?.a, undefined);
    // the namespace's own paths are the namespace's (upstream's RequestInfo gives
    // /namespaces/{name} the namespace {name}, so a Role there covers it)
    ok(await eve('GET', `/api/v1/namespaces/${NS}`));
    ok(await eve('GET', '/api/v1/namespaces/other'), 403);
    ok(await s.admin('GET', `/api/v1/namespaces/${NS}`));
    ok(await s.admin('GET', `/api/v1/namespaces/${NS}/status`));
    // namespaces have no deletecollection (NamespaceREST is no rest.CollectionDeleter): 405
    isStatus(await s.admin('DELETE', '/api/v1/namespaces?labelSelector=t%3Dx'), 405);
    ok(await s.admin('GET', '/api/v1/namespaces/other'));
  }),
);

test('authz: server-side apply creates only with the create verb; apply on a subresource never creates', LIMIT, () =>
  withServed(async (s) => {
    await grant(s, NS, 'eve', [
      { apiGroups: [''], resources: ['secrets', 'pods', 'pods/status'], verbs: ['get', 'patch'] },
    ]);
    const eve = s.as('eve');
    const apply = { 'Content-Type': 'application/apply-patch+yaml' };
    const secret = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: {} });
    const refused = await eve('PATCH', `/api/v1/namespaces/${NS}/secrets/s1?fieldManager=eve`, secret, apply);
    isStatus(refused, 403);
    assert.match(
      refused.json.message,
      /User "eve" cannot create resource "secrets" in API group "" in the namespace "team"/,
    );
    ok(await s.admin('GET', `/api/v1/namespaces/${NS}/secrets/s1`), 404);
    // an existing object is patched by apply with patch alone
    ok(await s.admin('POST', `/api/v1/namespaces/${NS}/secrets`, secret), 201);
    const labelled = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's1', labels: { a: 'b' } },
    });
    ok(await eve('PATCH', `/api/v1/namespaces/${NS}/secrets/s1?fieldManager=eve`, labelled, apply));
    const pod = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p1' },
      spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] },
      status: { phase: 'Running' },
    });
    isStatus(await eve('PATCH', `/api/v1/namespaces/${NS}/pods/p1/status?fieldManager=eve`, pod, apply), 404);
    // not even the admin creates through status
    isStatus(await s.admin('PATCH', `/api/v1/namespaces/${NS}/pods/p1/status?fieldManager=a`, pod, apply), 404);
    ok(await s.admin('GET', `/api/v1/namespaces/${NS}/pods/p1`), 404);
  }),
);

test('authz: services/proxy does not follow an Endpoints targetRef into another namespace', LIMIT, () =>
  withServed(async (s) => {
    await grant(s, NS, 'eve', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
    ok(await s.admin('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: 'victim' } })), 201);
    ok(await s.admin('POST', '/api/v1/nodes', JSON.stringify({ metadata: { name: 'n1' } })), 201);
    const pod = (ns: string) =>
      JSON.stringify({
        metadata: { name: 'app', namespace: ns },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 8080 }] }] },
      });
    for (const ns of ['victim', NS]) {
      ok(await s.admin('POST', `/api/v1/namespaces/${ns}/pods`, pod(ns)), 201);
      const current = (await s.admin('GET', `/api/v1/namespaces/${ns}/pods/app`)).json;
      const ip = ns === NS ? '10.244.9.3' : '10.244.9.2';
      current.status = { phase: 'Running', podIP: ip, podIPs: [{ ip }] };
      ok(await s.admin('PUT', `/api/v1/namespaces/${ns}/pods/app/status`, JSON.stringify(current)));
    }
    const eve = s.as('eve');
    ok(
      await eve(
        'POST',
        `/api/v1/namespaces/${NS}/services`,
        JSON.stringify({
          metadata: { name: 'bridge' },
          spec: { ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
        }),
      ),
      201,
    );
    const endpoints = (ref: Record<string, string>, ip: string) =>
      JSON.stringify({
        metadata: { name: 'bridge' },
        subsets: [{ addresses: [{ ip, targetRef: { kind: 'Pod', ...ref } }], ports: [{ name: 'http', port: 8080 }] }],
      });
    ok(
      await eve(
        'POST',
        `/api/v1/namespaces/${NS}/endpoints`,
        endpoints({ namespace: 'victim', name: 'app' }, '10.244.9.2'),
      ),
      201,
    );
    const across = await eve('GET', `/api/v1/namespaces/${NS}/services/bridge:http/proxy/`);
    isStatus(across, 503);
    assert.equal(across.json.message, 'no endpoints available for service "bridge:http"');
    // a targetRef without a namespace is not the service's namespace either (isValidAddress compares them)
    const current = (await eve('GET', `/api/v1/namespaces/${NS}/endpoints/bridge`)).json;
    current.subsets[0].addresses[0].targetRef = { kind: 'Pod', name: 'app' };
    current.subsets[0].addresses[0].ip = '10.244.9.3';
    ok(await eve('PUT', `/api/v1/namespaces/${NS}/endpoints/bridge`, JSON.stringify(current)));
    isStatus(await eve('GET', `/api/v1/namespaces/${NS}/services/bridge:http/proxy/`), 503);
    // the pod of the service's own namespace is the one the proxy goes to (this server has no
    // kubelet on n1, so the dial fails — past the choice of endpoint)
    current.subsets[0].addresses[0].targetRef = { kind: 'Pod', name: 'app', namespace: NS };
    const again = (await eve('GET', `/api/v1/namespaces/${NS}/endpoints/bridge`)).json;
    again.subsets = current.subsets;
    ok(await eve('PUT', `/api/v1/namespaces/${NS}/endpoints/bridge`, JSON.stringify(again)));
    const own = await eve('GET', `/api/v1/namespaces/${NS}/services/bridge:http/proxy/`);
    assert.doesNotMatch(own.text, /no endpoints available/, own.text);
  }),
);

test('authz: impersonation headers are honoured, each part checked with the impersonate verb', LIMIT, () =>
  withServed(async (s) => {
    await grant(s, NS, 'bob', [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }]);
    const eve = s.as('eve');
    const asBob = { 'Impersonate-User': 'bob' };
    const pods = `/api/v1/namespaces/${NS}/pods`;
    isStatus(await eve('GET', pods), 403);
    const refused = await eve('GET', pods, undefined, asBob);
    isStatus(refused, 403);
    assert.equal(
      refused.json.message,
      'users "bob" is forbidden: User "eve" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    ok(
      await s.admin(
        'POST',
        `${RBAC}/clusterroles`,
        JSON.stringify({
          metadata: { name: 'be-bob' },
          rules: [
            { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['bob'] },
            { apiGroups: ['authentication.k8s.io'], resources: ['userextras/scopes'], verbs: ['impersonate'] },
          ],
        }),
      ),
      201,
    );
    ok(
      await s.admin(
        'POST',
        `${RBAC}/clusterrolebindings`,
        JSON.stringify({
          metadata: { name: 'eve-be-bob' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'be-bob' },
          subjects: [{ kind: 'User', name: 'eve', apiGroup: 'rbac.authorization.k8s.io' }],
        }),
      ),
      201,
    );
    ok(await eve('GET', pods, undefined, asBob));
    isStatus(await eve('GET', pods), 403);
    // bob's own rights, not eve's nor a mix: bob may not list secrets
    const secrets = await eve('GET', `/api/v1/namespaces/${NS}/secrets`, undefined, asBob);
    isStatus(secrets, 403);
    assert.match(secrets.json.message, /User "bob" cannot list resource "secrets"/);
    // a group is one more thing to be allowed: eve may not add system:masters
    const masters = await eve('GET', pods, undefined, { ...asBob, 'Impersonate-Group': 'system:masters' });
    isStatus(masters, 403);
    assert.match(
      masters.json.message,
      /^groups "system:masters" is forbidden: User "eve" cannot impersonate resource "groups"/,
    );
    isStatus(await eve('GET', pods, undefined, { 'Impersonate-User': 'alice' }), 403);
    const sa = await eve('GET', pods, undefined, { 'Impersonate-User': `system:serviceaccount:${NS}:default` });
    isStatus(sa, 403);
    assert.match(sa.json.message, /serviceaccounts "default" is forbidden: .* in the namespace "team"/);
    // groups without a user are refused (upstream: InternalError)
    isStatus(await eve('GET', pods, undefined, { 'Impersonate-Group': 'system:masters' }), 500);
    // who am I: a SelfSubjectAccessReview answers for the impersonated user, extra included
    const review = await eve(
      'POST',
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      JSON.stringify({ spec: { resourceAttributes: { namespace: NS, verb: 'list', resource: 'pods' } } }),
      { ...asBob, 'Impersonate-Extra-Scopes': 'view' },
    );
    ok(review, 201);
    assert.equal(review.json.status.allowed, true, review.text);
    const noExtra = await eve('GET', pods, undefined, { ...asBob, 'Impersonate-Extra-Other': 'x' });
    isStatus(noExtra, 403);
    assert.match(
      noExtra.json.message,
      /cannot impersonate resource "userextras\/other" in API group "authentication.k8s.io"/,
    );
  }),
);

test('authz: dry runs in DeleteOptions bodies (eviction, deletecollection, delete) delete nothing', LIMIT, () =>
  withServed(async (s) => {
    await grant(s, NS, 'eve', [{ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }]);
    const pod = (name: string) =>
      JSON.stringify({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    ok(await s.admin('POST', `/api/v1/namespaces/${NS}/pods`, pod('p1')), 201);
    const eviction = (dryRun?: string[]) =>
      JSON.stringify({
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: 'p1', namespace: NS },
        deleteOptions: dryRun ? { dryRun } : {},
      });
    // what `kubectl drain --dry-run=server` sends
    ok(await s.admin('POST', `/api/v1/namespaces/${NS}/pods/p1/eviction`, eviction(['All'])), 201);
    ok(await s.admin('GET', `/api/v1/namespaces/${NS}/pods/p1`));
    isStatus(await s.admin('POST', `/api/v1/namespaces/${NS}/pods/p1/eviction`, eviction(['Some'])), 422);
    ok(await s.admin('GET', `/api/v1/namespaces/${NS}/pods/p1`));
    const eve = s.as('eve');
    for (const n of ['a', 'b'])
      ok(await eve('POST', `/api/v1/namespaces/${NS}/secrets`, JSON.stringify({ metadata: { name: n } })), 201);
    const dry = JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] });
    const gone = await eve('DELETE', `/api/v1/namespaces/${NS}/secrets`, dry);
    ok(gone);
    assert.equal(gone.json.items.length, 2);
    assert.equal((await eve('GET', `/api/v1/namespaces/${NS}/secrets`)).json.items.length, 2);
    ok(await eve('DELETE', `/api/v1/namespaces/${NS}/secrets/a`, dry));
    ok(await eve('GET', `/api/v1/namespaces/${NS}/secrets/a`));
    const bad = await eve('DELETE', `/api/v1/namespaces/${NS}/secrets/a`, JSON.stringify({ dryRun: ['x'] }));
    isStatus(bad, 422);
    assert.match(bad.json.message, /dryRun: Unsupported value/);
    ok(await eve('GET', `/api/v1/namespaces/${NS}/secrets/a`));
    ok(await s.admin('POST', `/api/v1/namespaces/${NS}/pods/p1/eviction`, eviction()), 201);
    await s.cluster.settle();
  }),
);

/** A GET with a bearer token and no client certificate, so the token is what authenticates. */
function withToken(s: Served, token: string, p: string): Promise<number> {
  const { server, ca } = credentialsOf(s.server.kubeconfigFor(s.url, 'x', []));
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: server.hostname,
        port: server.port,
        path: p,
        ca,
        agent: false,
        headers: { Authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('authz: a revoked legacy service-account token stays revoked when a secret of its name comes back', LIMIT, () =>
  withServed(
    async (s) => {
      await s.cluster.settle();
      const sa = (await s.admin('GET', '/api/v1/namespaces/default/serviceaccounts/default')).json;
      const secretName: string = sa.secrets[0].name;
      const path = `/api/v1/namespaces/default/secrets/${secretName}`;
      const secret = (await s.admin('GET', path)).json;
      const token = Buffer.from(secret.data.token, 'base64').toString('utf8');
      const version = '/api/v1/namespaces/default/pods';
      ok({ code: await withToken(s, token, version), headers: {}, text: 'the live token' }, 403);
      ok(await s.admin('DELETE', path));
      await s.cluster.settle();
      ok({ code: await withToken(s, token, version), headers: {}, text: 'the deleted token' }, 401);
      // someone re-creates a secret of that name: not the token's secret (its token differs)
      const again = await s.admin(
        'POST',
        '/api/v1/namespaces/default/secrets',
        JSON.stringify({ metadata: { name: secretName }, data: { token: Buffer.from('other').toString('base64') } }),
      );
      ok(again, 201);
      ok({ code: await withToken(s, token, version), headers: {}, text: 'the revoked token' }, 401);
    },
    { profile: 'seed' },
  ),
);

test('authz: a named GET with ?watch=true answers the object, never a watch stream', LIMIT, () =>
  withServed(async (s) => {
    await grant(s, NS, 'eve', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]);
    ok(await s.admin('POST', `/api/v1/namespaces/${NS}/secrets`, JSON.stringify({ metadata: { name: 's1' } })), 201);
    const one = await s.as('eve')('GET', `/api/v1/namespaces/${NS}/secrets/s1?watch=true`);
    ok(one);
    assert.equal(one.json?.kind, 'Secret', one.text.slice(0, 200));
    isStatus(
      await s.as('eve')('GET', `/api/v1/namespaces/${NS}/secrets?watch=true&fieldSelector=metadata.name%3Ds1`),
      403,
    );
  }),
);

test('authz: NodeRestriction keeps a node to its own mirror pods, labels and taints', LIMIT, () =>
  withServed(
    async (s) => {
      await s.cluster.addKubelet({ name: 'n1', nodeIP: '10.0.0.1' });
      await s.cluster.addKubelet({ name: 'n2', nodeIP: '10.0.0.2' });
      await s.cluster.settle();
      ok(await s.admin('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: NS } })), 201);
      ok(await s.admin('POST', `/api/v1/namespaces/${NS}/secrets`, JSON.stringify({ metadata: { name: 'db' } })), 201);
      const n1 = s.as('system:node:n1', ['system:nodes']);
      const merge = { 'Content-Type': 'application/merge-patch+json' };
      const uid: string = (await s.admin('GET', '/api/v1/nodes/n1')).json.metadata.uid;
      const mirror = (name: string, spec: Record<string, unknown>, owner: Record<string, unknown> = {}) =>
        JSON.stringify({
          metadata: {
            name,
            annotations: { 'kubernetes.io/config.mirror': 'x' },
            ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid, controller: true, ...owner }],
          },
          spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }], ...spec },
        });
      const create = (body: string) => n1('POST', `/api/v1/namespaces/${NS}/pods`, body);
      const refused = async (body: string, why: RegExp) => {
        const a = await create(body);
        isStatus(a, 403);
        assert.match(a.json.message, why);
      };
      // a mirror pod naming a secret would let its node read that secret: refused, and the secret stays unread
      await refused(
        mirror('steal', { volumes: [{ name: 'v', secret: { secretName: 'db' } }] }),
        /pods "steal" is forbidden: a mirror pod may not reference secrets/,
      );
      isStatus(await n1('GET', `/api/v1/namespaces/${NS}/secrets/db`), 403);
      await refused(
        mirror('env', { containers: [{ name: 'c', image: 'i', envFrom: [{ secretRef: { name: 'db' } }] }] }),
        /a mirror pod may not reference secrets/,
      );
      await refused(
        mirror('cm', { volumes: [{ name: 'v', configMap: { name: 'cfg' } }] }),
        /can not create pods that reference configmaps/,
      );
      await refused(
        mirror('pvc', { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }] }),
        /can not create pods that reference persistentvolumeclaims/,
      );
      await refused(mirror('sa', { serviceAccountName: 'default' }), /a mirror pod may not reference service accounts/);
      await refused(mirror('other-uid', {}, { uid: 'not-the-node' }), /node n1 UID mismatch: expected /);
      await refused(mirror('block', {}, { blockOwnerDeletion: true }), /must not set blockOwnerDeletion/);
      await refused(
        JSON.stringify({
          metadata: { name: 'unowned', annotations: { 'kubernetes.io/config.mirror': 'x' } },
          spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] },
        }),
        /can only create pods with an owner reference set to itself/,
      );
      ok(await create(mirror('static', {})), 201);
      // its own labels: the kubelet's set, nothing under node-restriction.kubernetes.io or node-role
      const label = (labels: Record<string, string | null>) =>
        n1('PATCH', '/api/v1/nodes/n1', JSON.stringify({ metadata: { labels } }), merge);
      const restricted = await label({ 'node-restriction.kubernetes.io/tier': 'secure' });
      isStatus(restricted, 403);
      assert.equal(
        restricted.json.message,
        'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/tier',
      );
      const role = await label({ 'node-role.kubernetes.io/control-plane': '' });
      isStatus(role, 403);
      assert.match(role.json.message, /is not allowed to modify labels: node-role.kubernetes.io\/control-plane/);
      ok(await label({ 'node.kubernetes.io/instance-type': 'big', 'topology.kubernetes.io/zone': 'z1', mine: 'yes' }));
      // an admin's labels in those namespaces the node can neither remove nor change
      ok(
        await s.admin(
          'PATCH',
          '/api/v1/nodes/n1',
          JSON.stringify({ metadata: { labels: { 'node-restriction.kubernetes.io/tier': 'a' } } }),
          merge,
        ),
      );
      isStatus(await label({ 'node-restriction.kubernetes.io/tier': null }), 403);
      // taints an admin put on it stay
      const taint = { key: 'dedicated', value: 'db', effect: 'NoSchedule' };
      ok(await s.admin('PATCH', '/api/v1/nodes/n1', JSON.stringify({ spec: { taints: [taint] } }), merge));
      const untaint = await n1('PATCH', '/api/v1/nodes/n1', JSON.stringify({ spec: { taints: [] } }), merge);
      isStatus(untaint, 403);
      assert.equal(untaint.json.message, 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints');
      isStatus(
        await n1(
          'PATCH',
          '/api/v1/nodes/n1',
          JSON.stringify({ spec: { taints: [{ ...taint, effect: 'PreferNoSchedule' }] } }),
          merge,
        ),
        403,
      );
      const node = (await s.admin('GET', '/api/v1/nodes/n1')).json;
      assert.deepEqual(node.spec.taints, [taint]);
      assert.equal(node.metadata.labels['node-restriction.kubernetes.io/tier'], 'a');
      assert.equal(node.metadata.labels['node-role.kubernetes.io/control-plane'], undefined);
      // nor another node's
      isStatus(await n1('PATCH', '/api/v1/nodes/n2', JSON.stringify({ metadata: { labels: { a: 'b' } } }), merge), 403);
      // status writes that leave taints and labels alone go on
      ok(await n1('PATCH', '/api/v1/nodes/n1/status', JSON.stringify({ status: { phase: 'Running' } }), merge));
    },
    { flags: { 'authorization-mode': 'Node,RBAC' } },
  ),
);

test('authz: RBAC bindings: a cluster binding names its service account namespace; roleRef never changes', LIMIT, () =>
  withServed(async (s) => {
    const binding = (name: string, role: string, subject: Record<string, string>) =>
      JSON.stringify({
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [subject],
      });
    const noNs = await s.admin(
      'POST',
      `${RBAC}/clusterrolebindings`,
      binding('sa-admin', 'cluster-admin', { kind: 'ServiceAccount', name: 'default' }),
    );
    isStatus(noNs, 422);
    assert.match(noNs.json.message, /subjects\[0\]\.namespace: Required value/);
    ok(await s.admin('GET', `${RBAC}/clusterrolebindings/sa-admin`), 404);
    // in a RoleBinding the binding's own namespace is the service account's
    ok(await s.admin('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: NS } })), 201);
    ok(
      await s.admin(
        'POST',
        `${RBAC}/namespaces/${NS}/rolebindings`,
        binding('viewers', 'view', { kind: 'ServiceAccount', name: 'default' }),
      ),
      201,
    );
    const current = (await s.admin('GET', `${RBAC}/namespaces/${NS}/rolebindings/viewers`)).json;
    current.roleRef.name = 'cluster-admin';
    const moved = await s.admin('PUT', `${RBAC}/namespaces/${NS}/rolebindings/viewers`, JSON.stringify(current));
    isStatus(moved, 422);
    assert.equal(
      moved.json.message,
      'RoleBinding.rbac.authorization.k8s.io "viewers" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"cluster-admin"}: cannot change roleRef',
    );
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    const patched = await s.admin(
      'PATCH',
      `${RBAC}/namespaces/${NS}/rolebindings/viewers`,
      JSON.stringify({ roleRef: { name: 'admin' } }),
      merge,
    );
    isStatus(patched, 422);
    assert.equal((await s.admin('GET', `${RBAC}/namespaces/${NS}/rolebindings/viewers`)).json.roleRef.name, 'view');
    // subjects may change
    ok(
      await s.admin(
        'PATCH',
        `${RBAC}/namespaces/${NS}/rolebindings/viewers`,
        JSON.stringify({ subjects: [{ kind: 'ServiceAccount', name: 'other' }] }),
        merge,
      ),
    );
  }),
);

test(
  'hostile: out-of-range integers are 400/422 and a long URL is served (Go reads 1 MiB of request line and headers)',
  LIMIT,
  () =>
    withServed(async (s) => {
      await s.cluster.addKubelet({ name: 'n1', nodeIP: '10.0.0.1' });
      const pods = '/api/v1/namespaces/default/pods';
      const pod = (spec: Record<string, unknown>) =>
        JSON.stringify({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } });
      ok(await s.admin('POST', pods, pod({ nodeName: 'n1' })), 201);
      const huge = await s.admin('DELETE', `${pods}/p?gracePeriodSeconds=99999999999999999999`);
      isStatus(huge, 400);
      assert.match(huge.json.message, /value out of range/);
      // the largest int64 is taken (no crash writing a deletionTimestamp past year 9999)
      const longest = await s.admin('DELETE', `${pods}/p?gracePeriodSeconds=9223372036854775807`);
      ok(longest);
      assert.equal(longest.json.metadata.deletionTimestamp, '9999-12-31T23:59:59Z');
      const replicas = await s.admin(
        'POST',
        '/apis/apps/v1/namespaces/default/deployments',
        JSON.stringify({
          metadata: { name: 'd' },
          spec: {
            replicas: 2147483648,
            selector: { matchLabels: { a: 'b' } },
            template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
          },
        }),
      );
      isStatus(replicas, 400);
      assert.match(
        replicas.json.message,
        /cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32/,
      );
      const deadline = await s.admin('POST', pods, pod({ activeDeadlineSeconds: -5 }));
      isStatus(deadline, 422);
      assert.match(
        deadline.json.message,
        /spec.activeDeadlineSeconds: Invalid value: -5: must be between 1 and 2147483647/,
      );
      // a 20 KiB URL is an ordinary request (Node's 16 KiB default answered 431 with no body)
      const long = await s.admin(
        'GET',
        `${pods}?labelSelector=a+in+(${Array.from({ length: 2000 }, (_, i) => `v${i}`).join(',')})`,
      );
      ok(long);
      assert.equal(long.json.kind, 'PodList');
      // past 1 MiB: 431, as a Status
      const tooLong = await s.admin('GET', `${pods}?labelSelector=${'a'.repeat((1 << 20) + 10)}`);
      isStatus(tooLong, 431);
    }),
);

test('authz: a Service update allocates what it newly needs, releases what it drops, and is quota-checked', LIMIT, () =>
  withServed(async (s) => {
    await grant(s, NS, 'eve', [{ apiGroups: [''], resources: ['services'], verbs: ['*'] }]);
    const eve = s.as('eve');
    const svcs = `/api/v1/namespaces/${NS}/services`;
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    ok(
      await eve(
        'POST',
        svcs,
        JSON.stringify({ metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'example.com' } }),
      ),
      201,
    );
    // the kubernetes service's IP is taken: an update cannot have it
    const kubernetesIP = (await s.admin('GET', '/api/v1/namespaces/default/services/kubernetes')).json.spec.clusterIP;
    const steal = await eve(
      'PATCH',
      `${svcs}/ext`,
      JSON.stringify({
        spec: { type: 'ClusterIP', clusterIP: kubernetesIP, externalName: null, ports: [{ port: 443 }] },
      }),
      merge,
    );
    isStatus(steal, 422);
    assert.match(steal.json.message, /failed to allocate IP 10\.96\.0\.1: provided IP is already allocated/);
    ok(await eve('DELETE', `${svcs}/ext`));
    await s.cluster.settle();
    // the kubernetes service keeps its IP: a new service asking for it is refused
    const again = await eve(
      'POST',
      svcs,
      JSON.stringify({ metadata: { name: 'again' }, spec: { clusterIP: kubernetesIP, ports: [{ port: 443 }] } }),
    );
    isStatus(again, 422);
    // ExternalName → ClusterIP without an IP gets a fresh one
    ok(
      await eve(
        'POST',
        svcs,
        JSON.stringify({ metadata: { name: 'ext2' }, spec: { type: 'ExternalName', externalName: 'example.com' } }),
      ),
      201,
    );
    const fresh = await eve(
      'PATCH',
      `${svcs}/ext2`,
      JSON.stringify({ spec: { type: 'ClusterIP', externalName: null, ports: [{ port: 80 }] } }),
      merge,
    );
    ok(fresh);
    assert.match(fresh.json.spec.clusterIP, /^10\.9[6-9]\./);
    assert.notEqual(fresh.json.spec.clusterIP, kubernetesIP);
    // node ports on update: a taken one is refused, a new one allocated
    ok(
      await eve(
        'POST',
        svcs,
        JSON.stringify({
          metadata: { name: 'np' },
          spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] },
        }),
      ),
      201,
    );
    ok(await eve('POST', svcs, JSON.stringify({ metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } })), 201);
    const taken = await eve(
      'PATCH',
      `${svcs}/web`,
      JSON.stringify({ spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] } }),
      merge,
    );
    isStatus(taken, 422);
    assert.match(
      taken.json.message,
      /spec.ports\[0\].nodePort: Invalid value: 30080: provided port is already allocated/,
    );
    // moving np's node port releases the old one, which web may then take
    ok(await eve('PATCH', `${svcs}/np`, JSON.stringify({ spec: { ports: [{ port: 80, nodePort: 30081 }] } }), merge));
    ok(
      await eve(
        'PATCH',
        `${svcs}/web`,
        JSON.stringify({ spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] } }),
        merge,
      ),
    );
    // ResourceQuota on update: ClusterIP → LoadBalancer past services.loadbalancers 0
    ok(
      await s.admin(
        'POST',
        `/api/v1/namespaces/${NS}/resourcequotas`,
        JSON.stringify({ metadata: { name: 'no-lb' }, spec: { hard: { 'services.loadbalancers': '0' } } }),
      ),
      201,
    );
    await s.cluster.settle();
    const lb = await eve('PATCH', `${svcs}/ext2`, JSON.stringify({ spec: { type: 'LoadBalancer' } }), merge);
    isStatus(lb, 403);
    assert.match(
      lb.json.message,
      /exceeded quota: no-lb, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0/,
    );
    assert.equal((await eve('GET', `${svcs}/ext2`)).json.spec.type, 'ClusterIP');
  }),
);

/**
 * Stalled requests from one user, each announcing 100 bytes of body and sending 10. What they
 * are answered is read from the sockets; `until` waits for a condition on those answers,
 * woken by each arriving byte, and fails after `limitMs` naming what it waited for (no polling
 * sleep races the server).
 */
/** `user` creates secret `name` in NS: one write, its answer. */
function createSecret(s: Served, user: string, name: string): Promise<Answer> {
  return s.as(user)('POST', `/api/v1/namespaces/${NS}/secrets`, JSON.stringify({ metadata: { name } }));
}

function stalledBodies(s: Served, user: string, count: number) {
  const url = new URL(s.url);
  const { cert, key } = credentialsOf(s.server.kubeconfigFor(s.url, user, []));
  const sockets: tls.TLSSocket[] = [];
  const texts: string[] = [];
  const wake = new Set<() => void>();
  for (let i = 0; i < count; i++) {
    const k = tls.connect({ host: url.hostname, port: Number(url.port), cert, key, rejectUnauthorized: false });
    sockets.push(k);
    texts.push('');
    k.on('error', () => {});
    k.on('data', (d) => {
      texts[i] += d.toString();
      for (const w of wake) w();
    });
    k.once('secureConnect', () =>
      k.write(
        `POST /api/v1/namespaces/${NS}/secrets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"metadata"`,
      ),
    );
  }
  const answered = (code: number) => texts.filter((a) => a.startsWith(`HTTP/1.1 ${code}`)).length;
  const unanswered = () => texts.filter((a) => a === '').length;
  const until = (what: string, done: () => boolean, limitMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        finish();
        resolve();
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`${what}: not within ${limitMs} ms (answers: ${summary()})`));
      }, limitMs);
      const finish = () => {
        clearTimeout(timer);
        wake.delete(check);
      };
      wake.add(check);
      check();
    });
  const summary = () => {
    const codes = new Map<string, number>();
    for (const t of texts) codes.set(t.slice(9, 12) || 'none', (codes.get(t.slice(9, 12) || 'none') ?? 0) + 1);
    return [...codes].map(([c, n]) => `${c}×${n}`).join(' ');
  };
  return {
    answered,
    unanswered,
    until,
    close: () => {
      for (const k of sockets) k.destroy();
    },
  };
}

test('hostile: 200 stalled bodies from one user leave other users their writes', LIMIT, () =>
  withServed(
    async (s) => {
      await grant(s, NS, 'eve', [{ apiGroups: [''], resources: ['secrets'], verbs: ['create'] }]);
      await grant(s, NS, 'bob', [{ apiGroups: [''], resources: ['secrets'], verbs: ['create'] }], 'bob-role');
      // The body deadline (--request-timeout 10m) is far past this test's own limit: eve's
      // admitted requests stay held for all of it, whatever the machine's load.
      const eve = stalledBodies(s, 'eve', 200);
      try {
        // eve is held to her share (a quarter of the 200 write slots): the rest are refused at once
        await eve.until('150 of eve’s requests answered 429', () => eve.answered(429) === 150, 90_000);
        assert.equal(eve.answered(429), 150);
        assert.equal(eve.unanswered(), 50);
        // bob is answered while eve's 50 hold their slots, unanswered
        const bob = await createSecret(s, 'bob', 'b');
        ok(bob, 201);
        assert.equal(eve.unanswered(), 50, 'eve’s requests were answered before bob’s');
        // and eve herself, at her share, is refused at once
        const more = await createSecret(s, 'eve', 'e');
        isStatus(more, 429);
      } finally {
        eve.close();
      }
    },
    { flags: { 'request-timeout': '10m' } },
  ),
);

test('hostile: a request body is read under --request-timeout (504 past it), and the slot is given back', LIMIT, () =>
  withServed(
    async (s) => {
      await grant(s, NS, 'eve', [{ apiGroups: [''], resources: ['secrets'], verbs: ['create'] }]);
      // eve fills her share with stalled bodies; each is answered 504 once the deadline passes
      const eve = stalledBodies(s, 'eve', 50);
      try {
        await eve.until('50 stalled bodies answered 504', () => eve.answered(504) === 50, 90_000);
        assert.equal(eve.answered(504), 50);
        // their slots were given back: had one been kept, eve (at her share) would be refused 429
        const after = await createSecret(s, 'eve', 'e');
        ok(after, 201);
      } finally {
        eve.close();
      }
    },
    { flags: { 'request-timeout': '2s' } },
  ),
);

test(
  'authz: a list or watch pinned by metadata.name is authorized for that name; the field selector reaches the authorizer',
  LIMIT,
  () =>
    withServed(async (s) => {
      // RequestInfoFactory names a list/watch by its metadata.name field selector, so a rule
      // with resourceNames covers it; the Node authorizer reads spec.nodeName from the same
      // selector (GetAuthorizerAttributes, AuthorizeWithSelectors).
      await grant(s, NS, 'eve', [
        { apiGroups: [''], resources: ['secrets'], verbs: ['list', 'watch'], resourceNames: ['mine'] },
      ]);
      for (const name of ['mine', 'theirs'])
        await s.admin('POST', `/api/v1/namespaces/${NS}/secrets`, JSON.stringify({ metadata: { name } }));
      const eve = s.as('eve');
      const cms = `/api/v1/namespaces/${NS}/secrets`;
      isStatus(await eve('GET', cms), 403);
      isStatus(await eve('GET', `${cms}?fieldSelector=metadata.name%3Dtheirs`), 403);
      const mine = await eve('GET', `${cms}?fieldSelector=metadata.name%3Dmine`);
      ok(mine);
      assert.deepEqual(
        mine.json.items.map((i: { metadata: { name: string } }) => i.metadata.name),
        ['mine'],
      );
      // not a name: no narrowing (a deletecollection is never named)
      isStatus(await eve('GET', `${cms}?fieldSelector=metadata.name!%3Dtheirs`), 403);
      isStatus(await eve('DELETE', `${cms}?fieldSelector=metadata.name%3Dmine`), 403);
    }),
);

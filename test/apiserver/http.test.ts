import { test } from 'node:test';
import assert from 'node:assert/strict';
import { humanDuration, nodeRoles, wantsTable } from '../../src/apiserver/http/table';
import { decodeProtobuf } from '../../src/apiserver/http/protobuf';
import { requestInfo } from '../../src/apiserver/http/request-info';
import { ruleAllows, forbiddenMessage } from '../../src/apiserver/auth/authorizer';
import { AuthorizationAttributes } from '../../src/api/request';
import { TokenFile } from '../../src/apiserver/auth/authenticator';
import { Node } from '../../src/api/core';

test('humanDuration follows apimachinery duration.HumanDuration at its boundaries', () => {
  const s = 1000,
    m = 60 * s,
    h = 60 * m,
    d = 24 * h;
  const cases: [number, string][] = [
    [-3 * s, '<invalid>'],
    [-1 * s, '0s'],
    [0, '0s'],
    [119 * s, '119s'],
    [120 * s, '2m'],
    [150 * s, '2m30s'],
    [10 * m, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 5 * m, '3h5m'],
    [8 * h, '8h'],
    [17 * h, '17h'],
    [47 * h, '47h'],
    [48 * h, '2d'],
    [50 * h, '2d2h'],
    [8 * d, '8d'],
    [729 * d, '729d'],
    [730 * d, '2y'],
    [731 * d, '2y1d'],
    [8 * 365 * d, '8y'],
  ];
  for (const [ms, want] of cases) assert.equal(humanDuration(ms), want, `${ms} ms`);
});

test('node roles come from node-role.kubernetes.io/<role> and kubernetes.io/role labels, sorted', () => {
  const n = (labels: Record<string, string>) => ({ metadata: { labels } }) as unknown as Node;
  assert.deepEqual(
    nodeRoles(n({ 'node-role.kubernetes.io/worker': '', 'node-role.kubernetes.io/control-plane': '' })),
    ['control-plane', 'worker'],
  );
  assert.deepEqual(nodeRoles(n({ 'kubernetes.io/role': 'master' })), ['master']);
  assert.deepEqual(nodeRoles(n({ 'node-role.kubernetes.io/': 'x' })), []);
});

test('the Table Accept header of kubectl get is recognised; plain JSON is not', () => {
  assert.equal(
    wantsTable(
      'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
    ),
    true,
  );
  assert.equal(wantsTable('application/json, */*'), false);
  assert.equal(wantsTable(undefined), false);
});

test('the protobuf body kubectl create namespace sends decodes to a Namespace', () => {
  const hex =
    '6b387300 0a0f0a027631 12094e616d657370616365 121e 0a16 0a067465616d2d61 1200 1a00 2200 2a00 3200 3800 4200 1200 1a020a00 1a00 2200'.replace(
      /\s/g,
      '',
    );
  assert.deepEqual(decodeProtobuf(Buffer.from(hex, 'hex')), {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'team-a' },
  });
  assert.throws(
    () => decodeProtobuf(Buffer.from('{}')),
    (e: { status?: { code: number } }) => e.status?.code === 415,
  );
});

test('request info: namespaced, cluster-scoped, the namespace itself, subresources, watch', () => {
  const q = (s = '') => new URLSearchParams(s);
  assert.deepEqual(
    (({ verb, namespace, resource, name, subresource }) => ({ verb, namespace, resource, name, subresource }))(
      requestInfo('GET', '/api/v1/namespaces/default/pods/web/log', q()),
    ),
    { verb: 'get', namespace: 'default', resource: 'pods', name: 'web', subresource: 'log' },
  );
  assert.equal(requestInfo('GET', '/api/v1/namespaces/team-a', q()).resource, 'namespaces');
  assert.equal(requestInfo('GET', '/api/v1/namespaces/team-a', q()).name, 'team-a');
  assert.equal(requestInfo('GET', '/api/v1/nodes', q('watch=1')).verb, 'watch');
  assert.equal(requestInfo('GET', '/api/v1/nodes', q('watch=false')).verb, 'list');
  assert.equal(requestInfo('DELETE', '/apis/coordination.k8s.io/v1/namespaces/x/leases', q()).verb, 'deletecollection');
  assert.equal(requestInfo('GET', '/version', q()).isResourceRequest, false);
  assert.deepEqual(requestInfo('GET', '/api/v1/nodes/n1/proxy/stats/summary', q()).rest, ['stats', 'summary']);
  // Escaped segments are decoded (only then), a bad escape is the URIError the handler answers 400.
  assert.equal(requestInfo('GET', '/api/v1/namespaces/d%2Dx/pods/a%3Ab', q()).namespace, 'd-x');
  assert.equal(requestInfo('GET', '/api/v1/namespaces/d%2Dx/pods/a%3Ab', q()).name, 'a:b');
  assert.throws(() => requestInfo('GET', '/api/v1/nodes/%zz', q()), URIError);
  assert.throws(() => requestInfo('GET', '/healthz/%zz', q()), URIError);
  // Empty segments do not count; a group/version alone is discovery, not a resource.
  assert.equal(requestInfo('GET', '//api//v1///nodes//n1', q()).name, 'n1');
  assert.equal(requestInfo('GET', '/apis/apps/v1', q()).isResourceRequest, false);
  assert.equal(requestInfo('GET', '/apis/apps', q()).apiPrefix, undefined);
  assert.equal(requestInfo('POST', '/api/v1/namespaces', q()).verb, 'create');
  assert.equal(requestInfo('PUT', '/api/v1/namespaces/x/finalize', q()).namespace, 'x');
});

test('RBAC rules: verbs, groups, resources/subresources, names, non-resource URLs', () => {
  const a = (over: Partial<AuthorizationAttributes>): AuthorizationAttributes => ({
    user: { username: 'bob', groups: [] },
    verb: 'get',
    isResourceRequest: true,
    path: '',
    apiGroup: '',
    resource: 'pods',
    subresource: '',
    namespace: 'default',
    name: 'web',
    ...over,
  });
  const rule = { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] };
  assert.equal(ruleAllows(rule, a({})), true);
  assert.equal(ruleAllows(rule, a({ verb: 'delete' })), false);
  assert.equal(ruleAllows(rule, a({ subresource: 'log' })), false);
  assert.equal(ruleAllows({ ...rule, resources: ['pods/log'] }, a({ subresource: 'log' })), true);
  assert.equal(ruleAllows({ ...rule, resourceNames: ['other'] }, a({})), false);
  assert.equal(ruleAllows({ ...rule, apiGroups: ['apps'] }, a({})), false);
  assert.equal(
    ruleAllows(
      { nonResourceURLs: ['/apis/*'], verbs: ['get'] },
      a({ isResourceRequest: false, path: '/apis/apps/v1' }),
    ),
    true,
  );
  assert.equal(
    ruleAllows({ nonResourceURLs: ['/version'], verbs: ['get'] }, a({ isResourceRequest: false, path: '/versions' })),
    false,
  );
  assert.equal(
    forbiddenMessage(a({ verb: 'list', name: '', namespace: '' })),
    'pods is forbidden: User "bob" cannot list resource "pods" in API group "" at the cluster scope',
  );
});

test('token file: token,user,uid,"groups"; quoted group lists', () => {
  const f = new TokenFile('s3cr3t,alice,1,"system:masters,dev"\n# comment\nt,bob,2\n');
  assert.deepEqual(f.authenticateToken('s3cr3t'), { username: 'alice', uid: '1', groups: ['system:masters', 'dev'] });
  assert.deepEqual(f.authenticateToken('t'), { username: 'bob', uid: '2', groups: [] });
  assert.equal(f.authenticateToken('nope'), undefined);
});

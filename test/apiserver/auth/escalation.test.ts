import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PolicyRule } from '../../../src/api/resources/rbac';
import { covers, nonResourceURLCovers } from '../../../src/apiserver/auth/escalation';
import { served, grant } from '../../hostile-harness';

/**
 * RBAC privilege-escalation prevention (issue 13), from upstream's tables:
 * pkg/registry/rbac/validation/policy_comparator_test.go (Covers, nonResourceURLCovers),
 * then end to end through HTTPS: the escalate and bind verbs, namespaced vs cluster rights.
 */

type Case = [string, PolicyRule[], PolicyRule[], boolean, PolicyRule[]];
const r = (
  apiGroups: string[] | undefined,
  verbs: string[],
  resources?: string[],
  extra: Partial<PolicyRule> = {},
): PolicyRule => ({ ...(apiGroups ? { apiGroups } : {}), verbs, ...(resources ? { resources } : {}), ...extra });

const COVERS: Case[] = [
  ['ExactMatch', [r(['v1'], ['get'], ['builds'])], [r(['v1'], ['get'], ['builds'])], true, []],
  [
    'MultipleRulesCoveringSingleRule',
    [
      r(['v1'], ['delete'], ['deployments']),
      r(['v1'], ['delete'], ['builds']),
      r(['v1'], ['update'], ['builds', 'deployments']),
    ],
    [r(['v1'], ['delete', 'update'], ['builds', 'deployments'])],
    true,
    [],
  ],
  [
    'MultipleAPIGroupsCoveringSingleRule',
    [
      r(['group1'], ['delete'], ['deployments']),
      r(['group1'], ['delete'], ['builds']),
      r(['group1'], ['update'], ['builds', 'deployments']),
      r(['group2'], ['delete'], ['deployments']),
      r(['group2'], ['delete'], ['builds']),
      r(['group2'], ['update'], ['builds', 'deployments']),
    ],
    [r(['group1', 'group2'], ['delete', 'update'], ['builds', 'deployments'])],
    true,
    [],
  ],
  [
    'SingleAPIGroupsCoveringMultiple',
    [r(['group1', 'group2'], ['delete', 'update'], ['builds', 'deployments'])],
    [
      r(['group1'], ['delete'], ['deployments']),
      r(['group1'], ['delete'], ['builds']),
      r(['group1'], ['update'], ['builds', 'deployments']),
      r(['group2'], ['delete'], ['deployments']),
      r(['group2'], ['delete'], ['builds']),
      r(['group2'], ['update'], ['builds', 'deployments']),
    ],
    true,
    [],
  ],
  [
    'MultipleRulesMissingSingleVerbResourceCombination',
    [r(['v1'], ['delete', 'update'], ['builds', 'deployments']), r(['v1'], ['delete'], ['pods'])],
    [r(['v1'], ['delete', 'update'], ['builds', 'deployments', 'pods'])],
    false,
    [r(['v1'], ['update'], ['pods'])],
  ],
  [
    'APIGroupStarCoveringMultiple',
    [r(['*'], ['get'], ['roles'])],
    [r(['group1', 'group2'], ['get'], ['roles'])],
    true,
    [],
  ],
  [
    'EnumerationNotCoveringAPIGroupStar',
    [r(['dummy-group'], ['get'], ['roles'])],
    [r(['*'], ['get'], ['roles'])],
    false,
    [r(['*'], ['get'], ['roles'])],
  ],
  ['APIGroupStarCoveringStar', [r(['*'], ['get'], ['roles'])], [r(['*'], ['get'], ['roles'])], true, []],
  ['VerbStarCoveringMultiple', [r(['v1'], ['*'], ['roles'])], [r(['v1'], ['watch', 'list'], ['roles'])], true, []],
  [
    'EnumerationNotCoveringVerbStar',
    [r(['v1'], ['get', 'list', 'watch', 'create', 'update', 'delete', 'exec'], ['roles'])],
    [r(['v1'], ['*'], ['roles'])],
    false,
    [r(['v1'], ['*'], ['roles'])],
  ],
  ['VerbStarCoveringStar', [r(['v1'], ['*'], ['roles'])], [r(['v1'], ['*'], ['roles'])], true, []],
  [
    'ResourceStarCoveringMultiple',
    [r(['v1'], ['get'], ['*'])],
    [r(['v1'], ['get'], ['resourcegroup:deployments'])],
    true,
    [],
  ],
  [
    'EnumerationNotCoveringResourceStar',
    [r(['v1'], ['get'], ['roles', 'resourcegroup:deployments'])],
    [r(['v1'], ['get'], ['*'])],
    false,
    [r(['v1'], ['get'], ['*'])],
  ],
  ['ResourceStarCoveringStar', [r(['v1'], ['get'], ['*'])], [r(['v1'], ['get'], ['*'])], true, []],
  [
    'ResourceNameEmptyCoveringMultiple',
    [r(['v1'], ['get'], ['pods'], { resourceNames: [] })],
    [r(['v1'], ['get'], ['pods'], { resourceNames: ['foo', 'bar'] })],
    true,
    [],
  ],
  [
    'EnumerationNotCoveringResourceNameEmpty',
    [r(['v1'], ['get'], ['pods'], { resourceNames: ['foo', 'bar'] })],
    [r(['v1'], ['get'], ['pods'], { resourceNames: [] })],
    false,
    [r(['v1'], ['get'], ['pods'])],
  ],
  [
    'NonResourceURLs',
    [r(undefined, ['*'], undefined, { nonResourceURLs: ['/apis'] })],
    [r(undefined, ['*'], undefined, { nonResourceURLs: ['/apis'] })],
    true,
    [],
  ],
  [
    'NonResourceURLsStar',
    [r(undefined, ['*'], undefined, { nonResourceURLs: ['*'] })],
    [r(undefined, ['*'], undefined, { nonResourceURLs: ['/apis', '/apis/v1', '/'] })],
    true,
    [],
  ],
  [
    'NonResourceURLsStarAfterPrefixDoesntCover',
    [r(undefined, ['*'], undefined, { nonResourceURLs: ['/apis/*'] })],
    [r(undefined, ['get'], undefined, { nonResourceURLs: ['/apis', '/apis/v1'] })],
    false,
    [r(undefined, ['get'], undefined, { nonResourceURLs: ['/apis'] })],
  ],
  [
    'NonResourceURLsStarAfterPrefix',
    [r(undefined, ['*'], undefined, { nonResourceURLs: ['/apis/*'] })],
    [r(undefined, ['get'], undefined, { nonResourceURLs: ['/apis/v1/foo', '/apis/v1'] })],
    true,
    [],
  ],
  [
    'NonResourceURLsWithOtherFields',
    [r(['v1'], ['get'], ['builds'], { nonResourceURLs: ['/apis'] })],
    [r(['v1'], ['get'], ['builds'], { nonResourceURLs: ['/apis'] })],
    true,
    [],
  ],
  [
    'NonResourceURLsWithOtherFieldsFailure',
    [r(['v1'], ['get'], ['builds'])],
    [r(['v1'], ['get'], ['builds'], { nonResourceURLs: ['/apis'] })],
    false,
    [r(undefined, ['get'], undefined, { nonResourceURLs: ['/apis'] })],
  ],
  // subresources: "*/scale" covers every resource's scale, not the resource itself
  [
    'SubresourceStarCoversSubresource',
    [r(['v1'], ['get'], ['*/scale'])],
    [r(['v1'], ['get'], ['replicationcontrollers/scale', 'jobs/scale'])],
    true,
    [],
  ],
  [
    'SubresourceStarDoesNotCoverResource',
    [r(['v1'], ['get'], ['*/scale'])],
    [r(['v1'], ['get'], ['replicationcontrollers'])],
    false,
    [r(['v1'], ['get'], ['replicationcontrollers'])],
  ],
];

const norm = (rules: PolicyRule[]) =>
  rules
    .map((x) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries(x)
            .filter(([, v]) => !(Array.isArray(v) && v.length === 0))
            .sort(),
        ),
      ),
    )
    .sort();

for (const [name, owner, servant, covered, missing] of COVERS) {
  test(`rbac Covers: ${name}`, () => {
    const got = covers(owner, servant);
    assert.equal(got.covered, covered);
    assert.deepEqual(norm(got.missing), norm(missing));
  });
}

test('rbac nonResourceURLCovers (upstream TestNonResourceURLCovers)', () => {
  const cases: [string, string, boolean][] = [
    ['*', '/api', true],
    ['/api', '/api', true],
    ['/apis', '/api', false],
    ['/api/v1', '/api', false],
    ['/api/v1', '/api/v1', true],
    ['/api/*', '/api/v1', true],
    ['/api/*', '/api', false],
    ['/api/*/*', '/api/v1', false],
    ['/*/v1/*', '/api/v1', false],
  ];
  for (const [owner, requested, want] of cases)
    assert.equal(nonResourceURLCovers(owner, requested), want, `${owner} covers ${requested}`);
});

test('rbac escalation end to end: roles, cluster roles, bindings, escalate and bind, namespace scope', async () => {
  const s = await served();
  const RBAC = '/apis/rbac.authorization.k8s.io/v1';
  try {
    const body = (o: unknown) => JSON.stringify(o);
    const binding = (name: string, kind: string, role: string, user = 'eve') =>
      body({
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: role },
        subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }],
      });
    await grant(s, 'a', 'eve', [
      {
        apiGroups: ['rbac.authorization.k8s.io'],
        resources: ['roles', 'rolebindings'],
        verbs: ['create', 'update', 'get'],
      },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
    ]);
    await s.admin('POST', '/api/v1/namespaces', body({ metadata: { name: 'b' } }));
    const eve = s.as('eve');
    // a role within eve's rights in "a": allowed; one verb more: refused, naming the missing rule
    assert.equal(
      (
        await eve(
          'POST',
          `${RBAC}/namespaces/a/roles`,
          body({ metadata: { name: 'read' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }),
        )
      ).code,
      201,
    );
    const more = await eve(
      'POST',
      `${RBAC}/namespaces/a/roles`,
      body({
        metadata: { name: 'write' },
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'delete'] }],
      }),
    );
    assert.equal(more.code, 403, more.text);
    assert.match(more.json.message, /\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["delete"\]\}/);
    // updating a role to add rules is the same escalation
    const cur = (await eve('GET', `${RBAC}/namespaces/a/roles/read`)).json;
    assert.equal(
      (
        await eve(
          'PUT',
          `${RBAC}/namespaces/a/roles/read`,
          body({ ...cur, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] }),
        )
      ).code,
      403,
    );
    // binding a cluster role whose rules eve holds in "a" is allowed there
    await s.admin(
      'POST',
      `${RBAC}/clusterroles`,
      body({
        metadata: { name: 'pod-reader' },
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
      }),
    );
    assert.equal(
      (await eve('POST', `${RBAC}/namespaces/a/rolebindings`, binding('pr', 'ClusterRole', 'pod-reader', 'mallory')))
        .code,
      201,
    );
    // a role that does not exist cannot be bound without the bind verb
    assert.equal((await eve('POST', `${RBAC}/namespaces/a/rolebindings`, binding('ghost', 'Role', 'ghost'))).code, 403);
    assert.equal(
      (await eve('POST', `${RBAC}/namespaces/a/rolebindings`, binding('admin', 'ClusterRole', 'admin'))).code,
      403,
    );
    // cluster-scoped: eve's namespaced rights do not let her write cluster roles or cluster bindings
    await grant(s, 'a', 'carol', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
    await s.admin(
      'POST',
      `${RBAC}/clusterroles`,
      body({
        metadata: { name: 'rbac-writer' },
        rules: [
          {
            apiGroups: ['rbac.authorization.k8s.io'],
            resources: ['clusterroles', 'clusterrolebindings'],
            verbs: ['create'],
          },
        ],
      }),
    );
    await s.admin(
      'POST',
      `${RBAC}/clusterrolebindings`,
      body({
        metadata: { name: 'carol-writer' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'rbac-writer' },
        subjects: [{ kind: 'User', name: 'carol', apiGroup: 'rbac.authorization.k8s.io' }],
      }),
    );
    const carol = s.as('carol');
    // pods/get is held only in "a": a cluster role granting it is an escalation at cluster scope
    assert.equal(
      (
        await carol(
          'POST',
          `${RBAC}/clusterroles`,
          body({ metadata: { name: 'c1' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }),
        )
      ).code,
      403,
    );
    assert.equal(
      (
        await carol(
          'POST',
          `${RBAC}/clusterrolebindings`,
          body({
            metadata: { name: 'c2' },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pod-reader' },
            subjects: [{ kind: 'User', name: 'carol', apiGroup: 'rbac.authorization.k8s.io' }],
          }),
        )
      ).code,
      403,
    );
    // a cluster role within carol's cluster-wide rights is fine
    assert.equal(
      (
        await carol(
          'POST',
          `${RBAC}/clusterroles`,
          body({
            metadata: { name: 'c3' },
            rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['create'] }],
          }),
        )
      ).code,
      201,
    );
    // escalate granted in "b" only does not help in "a"
    await grant(
      s,
      'b',
      'eve',
      [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate', 'create'] }],
      'eve-b',
    );
    assert.equal(
      (
        await eve(
          'POST',
          `${RBAC}/namespaces/a/roles`,
          body({ metadata: { name: 'w2' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }] }),
        )
      ).code,
      403,
    );
    assert.equal(
      (
        await eve(
          'POST',
          `${RBAC}/namespaces/b/roles`,
          body({ metadata: { name: 'w2' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }] }),
        )
      ).code,
      201,
    );
    // bind restricted to one role name allows binding exactly that role
    await grant(s, 'b', 'dave', [
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'], verbs: ['create'] },
    ]);
    await s.admin(
      'POST',
      `${RBAC}/namespaces/b/roles`,
      body({ metadata: { name: 'bindme' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] }),
    );
    await s.admin(
      'POST',
      `${RBAC}/namespaces/b/roles`,
      body({
        metadata: { name: 'bind-one' },
        rules: [
          {
            apiGroups: ['rbac.authorization.k8s.io'],
            resources: ['roles'],
            verbs: ['bind'],
            resourceNames: ['bindme'],
          },
        ],
      }),
    );
    await s.admin('POST', `${RBAC}/namespaces/b/rolebindings`, binding('dave-bind', 'Role', 'bind-one', 'dave'));
    const dave = s.as('dave');
    assert.equal(
      (await dave('POST', `${RBAC}/namespaces/b/rolebindings`, binding('x1', 'Role', 'bindme', 'dave'))).code,
      201,
    );
    assert.equal(
      (await dave('POST', `${RBAC}/namespaces/b/rolebindings`, binding('x2', 'Role', 'w2', 'dave'))).code,
      403,
    );
  } finally {
    await s.stop();
  }
});

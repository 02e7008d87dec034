import { Client } from '../../client/client';
import { isStatusError } from '../../api/errors';
import { Role, RoleBinding } from '../../api/resources/rbac';

/**
 * The default roles every cluster starts with (upstream
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy, a subset): cluster-admin for
 * system:masters; discovery for authenticated users; /version and health for everyone,
 * anonymous included. Anything else an anonymous user asks for is refused.
 */
const READ = ['get'];

const CLUSTER_ROLES: Role[] = [
  {
    metadata: { name: 'cluster-admin' },
    rules: [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ],
  },
  {
    metadata: { name: 'system:discovery' },
    rules: [
      {
        nonResourceURLs: [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
          '/version',
          '/version/',
        ],
        verbs: READ,
      },
    ],
  },
  {
    metadata: { name: 'system:public-info-viewer' },
    rules: [{ nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: READ }],
  },
  // Every user may ask what they may do (kubectl auth can-i).
  {
    metadata: { name: 'system:basic-user' },
    rules: [
      {
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        verbs: ['create'],
      },
    ],
  },
  // Full use of the kubelet API, for whoever the API server talks to kubelets as (unbound by default).
  {
    metadata: { name: 'system:kubelet-api-admin' },
    rules: [
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'proxy'] },
      { apiGroups: [''], resources: ['nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats'], verbs: ['*'] },
    ],
  },
  // view: namespace-level reading only (system:aggregate-to-view) — no nodes, no leases
  // (found by running upstream v1.32.13: binding view does not let a user list nodes).
  {
    metadata: { name: 'view' },
    rules: [
      {
        apiGroups: [''],
        resources: [
          'pods',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/status',
          'endpoints',
          'persistentvolumeclaims',
          'persistentvolumeclaims/status',
          'configmaps',
          'limitranges',
          'resourcequotas',
          'bindings',
          'events',
          'pods/status',
          'resourcequotas/status',
          'namespaces/status',
          'replicationcontrollers/status',
          'pods/log',
          'namespaces',
        ],
        verbs: ['get', 'list', 'watch'],
      },
      { apiGroups: ['apps'], resources: ['daemonsets', 'daemonsets/status'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['batch'], resources: ['jobs', 'jobs/status'], verbs: ['get', 'list', 'watch'] },
    ],
  },
];

const group = (name: string) => ({ kind: 'Group' as const, apiGroup: 'rbac.authorization.k8s.io', name });

const CLUSTER_ROLE_BINDINGS: RoleBinding[] = [
  {
    metadata: { name: 'cluster-admin' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [group('system:masters')],
  },
  {
    metadata: { name: 'system:discovery' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:discovery' },
    subjects: [group('system:authenticated')],
  },
  {
    metadata: { name: 'system:basic-user' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:basic-user' },
    subjects: [group('system:authenticated')],
  },
  {
    metadata: { name: 'system:public-info-viewer' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:public-info-viewer' },
    subjects: [group('system:authenticated'), group('system:unauthenticated')],
  },
];

export async function ensureBootstrapPolicy(client: Client): Promise<void> {
  const make = async (resource: string, kind: string, obj: Role | RoleBinding) => {
    try {
      await client.create(
        { resource },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind,
          ...obj,
          metadata: { ...obj.metadata, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
        },
      );
    } catch (e) {
      if (!isStatusError(e, 'AlreadyExists')) throw e;
    }
  };
  for (const r of CLUSTER_ROLES) await make('clusterroles.rbac.authorization.k8s.io', 'ClusterRole', r);
  for (const b of CLUSTER_ROLE_BINDINGS)
    await make('clusterrolebindings.rbac.authorization.k8s.io', 'ClusterRoleBinding', b);
}

import { apiVersionOf, ResourceRegistry, ResourceType } from '../../api/registry';

/**
 * Legacy discovery (APIVersions, APIGroupList, APIResourceList) as kubectl v1.32 reads it:
 * short names for `kubectl get no`, subresources with the group/version of a kind that
 * lives elsewhere (pods/eviction → policy/v1 Eviction, which `kubectl drain` looks for).
 * Upstream: k8s.io/apiserver/pkg/endpoints/discovery.
 */

const OBJECT_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

interface SubresourceShape {
  kind: (rt: ResourceType) => string;
  verbs: string[];
  group?: string;
  version?: string;
}

const SUBRESOURCES: Record<string, SubresourceShape> = {
  status: { kind: (rt) => rt.kind, verbs: ['get', 'patch', 'update'] },
  binding: { kind: () => 'Binding', verbs: ['create'] },
  eviction: { kind: () => 'Eviction', verbs: ['create'], group: 'policy', version: 'v1' },
  log: { kind: (rt) => rt.kind, verbs: ['get'] },
  proxy: { kind: (rt) => `${rt.kind}ProxyOptions`, verbs: ['create', 'delete', 'get', 'patch', 'update'] },
  finalize: { kind: (rt) => rt.kind, verbs: ['update'] },
  exec: { kind: () => 'PodExecOptions', verbs: ['create', 'get'] },
  attach: { kind: () => 'PodAttachOptions', verbs: ['create', 'get'] },
  portforward: { kind: () => 'PodPortForwardOptions', verbs: ['create', 'get'] },
  scale: { kind: () => 'Scale', verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1' },
};

export interface GroupVersion {
  group: string;
  version: string;
}

/**
 * Every group/version served: the storage versions, then the older versions a profile serves
 * too (newest first within a group, as upstream lists apps/v1, apps/v1beta2, apps/v1beta1).
 * A group's first version is its preferred one.
 */
export function groupVersions(registry: ResourceRegistry): GroupVersion[] {
  const seen = new Map<string, GroupVersion>();
  for (const rt of registry.all()) seen.set(apiVersionOf(rt), { group: rt.group, version: rt.version });
  const older = registry
    .aliases()
    .map((a) => ({ group: a.group, version: a.version }))
    .sort((a, b) => (a.version < b.version ? 1 : a.version > b.version ? -1 : 0));
  for (const gv of older) if (!seen.has(`${gv.group}/${gv.version}`)) seen.set(`${gv.group}/${gv.version}`, gv);
  return [...seen.values()];
}

export function versionInfo(gitVersion: string) {
  const m = /^v(\d+)\.(\d+)/.exec(gitVersion);
  return {
    major: m?.[1] ?? '1',
    minor: m?.[2] ?? '0',
    gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-01-01T00:00:00Z',
    goVersion: 'kubespec',
    compiler: 'kubespec',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

export function apiVersions(serverAddress: string) {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export function apiGroupList(registry: ResourceRegistry) {
  const byGroup = new Map<string, { groupVersion: string; version: string }[]>();
  for (const gv of groupVersions(registry)) {
    if (gv.group === '') continue;
    byGroup.set(gv.group, [
      ...(byGroup.get(gv.group) ?? []),
      { groupVersion: `${gv.group}/${gv.version}`, version: gv.version },
    ]);
  }
  const groups = [...byGroup].map(([name, versions]) => ({ name, versions, preferredVersion: versions[0] }));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiGroup(registry: ResourceRegistry, group: string) {
  const gvs = groupVersions(registry).filter((gv) => gv.group === group);
  if (gvs.length === 0) return undefined;
  const versions = gvs.map((gv) => ({ groupVersion: `${gv.group}/${gv.version}`, version: gv.version }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions, preferredVersion: versions[0] };
}

export function apiResourceList(registry: ResourceRegistry, group: string, version: string) {
  const types = [
    ...registry.all().filter((rt) => rt.group === group && rt.version === version),
    ...registry
      .aliases()
      .filter((a) => a.group === group && a.version === version)
      .map((a) => a.storage),
  ];
  if (types.length === 0) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const rt of types) {
    resources.push({
      name: rt.resource,
      singularName: rt.singular,
      namespaced: rt.namespaced,
      kind: rt.kind,
      verbs: OBJECT_VERBS,
      ...(rt.shortNames?.length ? { shortNames: rt.shortNames } : {}),
      ...(rt.categories?.length ? { categories: rt.categories } : {}),
    });
    for (const sub of rt.subresources) {
      const shape = SUBRESOURCES[sub];
      if (!shape) continue;
      resources.push({
        name: `${rt.resource}/${sub}`,
        singularName: '',
        namespaced: rt.namespaced,
        ...(shape.group ? { group: shape.group, version: shape.version } : {}),
        kind: shape.kind(rt),
        verbs: shape.verbs,
      });
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}

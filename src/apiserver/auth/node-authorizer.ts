import type { UserInfo, AuthorizationAttributes } from '../../api/request';
import type { ApiServer } from '../apiserver';
import type { Pod } from '../../api/core';
import type { Authorizer, Decision } from './authorizer';
import { podSecretNames } from '../../api/pod-references';

/**
 * The Node authorizer (plugin/pkg/auth/authorizer/node, with bootstrappolicy's NodeRules):
 * a kubelet identity (user system:node:<name>, group system:nodes) may read what any node
 * needs (nodes, pods, services, endpoints), write nodes, pod status and events, and read a
 * secret only when a pod bound to its node uses it; its own Lease only. It has no opinion
 * on anyone else. What a node may write to *which* object is NodeRestriction's.
 */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.groups.includes('system:nodes') || !user.username.startsWith('system:node:')) return undefined;
  const name = user.username.slice('system:node:'.length);
  return name || undefined;
}

const RULES: Record<string, string[]> = {
  nodes: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
  'nodes/status': ['update', 'patch'],
  pods: ['get', 'list', 'watch', 'create', 'delete'],
  'pods/status': ['update', 'patch'],
  'pods/eviction': ['create'],
  services: ['get', 'list', 'watch'],
  endpoints: ['get', 'list', 'watch'],
  events: ['create', 'update', 'patch'],
};

export class NodeAuthorizer implements Authorizer {
  constructor(
    private readonly api: ApiServer,
    /** AuthorizeNodeWithSelectors (v1.32): get/list/watch of nodes only of the node's own. */
    private readonly ownNodeOnly = false,
  ) {}

  async authorize(a: AuthorizationAttributes): Promise<Decision> {
    const node = nodeIdentity(a.user);
    if (!node || !a.isResourceRequest) return { allowed: false };
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    if (a.apiGroup === 'coordination.k8s.io' && resource === 'leases') {
      const own =
        a.namespace === 'kube-node-lease' &&
        a.name === node &&
        ['get', 'create', 'update', 'patch', 'delete'].includes(a.verb);
      return own ? { allowed: true, reason: 'node lease' } : { allowed: false };
    }
    if (a.apiGroup !== '') return { allowed: false };
    if (resource === 'secrets') {
      // authorizeReadNamespacedObject's reasons, which the 403 carries
      if (!['get', 'list', 'watch'].includes(a.verb))
        return { allowed: false, reason: 'can only read resources of this type' };
      if (a.subresource) return { allowed: false, reason: 'cannot read subresource' };
      if (!a.name || a.verb !== 'get') return { allowed: false, reason: 'No Object name found' };
      return (await this.podsOn(node)).some(
        (p) => p.metadata.namespace === a.namespace && podSecretNames(p).includes(a.name),
      )
        ? { allowed: true, reason: `secret used by a pod on node ${node}` }
        : { allowed: false, reason: `no relationship found between node '${node}' and this object` };
    }
    if (this.ownNodeOnly && resource === 'nodes' && ['get', 'list', 'watch'].includes(a.verb)) {
      // authorizeNode compares the name, so a kubelet may read its Node before creating it
      if (a.name === node) return { allowed: true };
      return {
        allowed: false,
        reason: a.name
          ? `node '${node}' cannot read '${a.name}', only its own Node object`
          : `node '${node}' cannot read all nodes, only its own Node object`,
      };
    }
    return RULES[resource]?.includes(a.verb) ? { allowed: true } : { allowed: false };
  }

  private async podsOn(node: string): Promise<Pod[]> {
    return (await this.api.list({ resource: 'pods' }, { fieldSelector: `spec.nodeName=${node}` })).items as Pod[];
  }
}

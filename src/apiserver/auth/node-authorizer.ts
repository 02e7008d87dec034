import type { UserInfo, AuthorizationAttributes } from '../../api/request';
import type { ApiServer } from '../apiserver';
import type { Pod } from '../../api/core';
import type { Authorizer, Decision } from './authorizer';
import { podConfigMapNames, podSecretNames } from '../../api/pod-references';
import { isStatusError } from '../../api/errors';

/**
 * The Node authorizer (plugin/pkg/auth/authorizer/node, with bootstrappolicy's NodeRules):
 * a kubelet identity (user system:node:<name>, group system:nodes) may read what any node
 * needs (nodes, pods, services, endpoints), write nodes, pod status and events, and read a
 * secret or config map only when a pod bound to its node uses it; its own Lease only. It has no opinion
 * on anyone else. What a node may write to *which* object is NodeRestriction's.
 *
 * With AuthorizeNodeWithSelectors (beta and on by default in v1.32: the kubernetes-1.32
 * profile's `authorizeNodeWithSelectors`), reads of nodes and pods are subdivided too
 * (`authorizeNode`, `authorizePod`): a node reads only its own Node, gets only pods bound to
 * it, and lists or watches pods only with the field selector `spec.nodeName=<itself>` (or
 * one pod of its own by `metadata.name`).
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

/** The graph's pod → object edges a node may read through (secretVertexType, configMapVertexType). */
const USED_BY_PODS: Record<string, (pod: Pod) => string[]> = {
  secrets: podSecretNames,
  configmaps: podConfigMapNames,
};

export class NodeAuthorizer implements Authorizer {
  constructor(
    private readonly api: ApiServer,
    /** AuthorizeNodeWithSelectors (v1.32): node and pod reads subdivided (authorizeNode, authorizePod). */
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
    const uses = USED_BY_PODS[a.resource];
    if (uses) {
      // authorizeReadNamespacedObject's reasons, which the 403 carries
      if (!['get', 'list', 'watch'].includes(a.verb))
        return { allowed: false, reason: 'can only read resources of this type' };
      if (a.subresource) return { allowed: false, reason: 'cannot read subresource' };
      if (!a.name || a.verb !== 'get') return { allowed: false, reason: 'No Object name found' };
      return (await this.podsOn(node)).some((p) => p.metadata.namespace === a.namespace && uses(p).includes(a.name))
        ? { allowed: true, reason: `${a.resource} used by a pod on node ${node}` }
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
    if (this.ownNodeOnly && a.resource === 'pods') return this.authorizePod(node, a);
    return RULES[resource]?.includes(a.verb) ? { allowed: true } : { allowed: false };
  }

  /** authorizePod (v1.32): reads only of the node's own pods; writes as NodeRules, NodeRestriction narrowing them. */
  private async authorizePod(node: string, a: AuthorizationAttributes): Promise<Decision> {
    const verb = a.verb;
    switch (a.subresource) {
      case '':
        if (verb === 'get') return this.podOfNode(node, a);
        if (verb === 'list' || verb === 'watch') {
          const own = (a.fieldRequirements ?? []).some(
            (r) => r.field === 'spec.nodeName' && r.operator === '=' && r.value === node,
          );
          if (own) return { allowed: true };
          if (a.name) return this.podOfNode(node, a);
          return { allowed: false, reason: 'can only list/watch pods with spec.nodeName field selector' };
        }
        return verb === 'create' || verb === 'delete' ? { allowed: true } : { allowed: false };
      case 'status':
        return verb === 'update' || verb === 'patch' ? { allowed: true } : { allowed: false };
      case 'eviction':
        return verb === 'create' ? { allowed: true } : { allowed: false };
      default:
        return { allowed: false };
    }
  }

  /** The graph's pod → node edge: the named pod exists and is bound to this node. */
  private async podOfNode(node: string, a: AuthorizationAttributes): Promise<Decision> {
    if (a.subresource) return { allowed: false, reason: 'cannot get subresource' };
    if (!a.name) return { allowed: false, reason: 'No Object name found' };
    // a pod the graph does not know (not found) relates to no node
    const pod = (await this.api.get({ resource: 'pods', namespace: a.namespace, name: a.name }).catch((e) => {
      if (isStatusError(e, 'NotFound')) return undefined;
      throw e;
    })) as Pod | undefined;
    return pod?.spec.nodeName === node
      ? { allowed: true }
      : { allowed: false, reason: `no relationship found between node '${node}' and this object` };
  }

  private async podsOn(node: string): Promise<Pod[]> {
    return (await this.api.list({ resource: 'pods' }, { fieldSelector: `spec.nodeName=${node}` })).items as Pod[];
  }
}

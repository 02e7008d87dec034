import type { UserInfo, AuthorizationAttributes } from '../../api/request';
import type { ApiServer } from '../apiserver';
import type { Pod } from '../../api/core';
import type { Authorizer, Decision } from './authorizer';

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
  constructor(private readonly api: ApiServer) {}

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
      if (a.verb !== 'get' || !a.name) return { allowed: false };
      return (await this.podsOn(node)).some(
        (p) => p.metadata.namespace === a.namespace && secretsOf(p).includes(a.name),
      )
        ? { allowed: true, reason: `secret used by a pod on node ${node}` }
        : { allowed: false, reason: `no relationship found between node '${node}' and this object` };
    }
    return RULES[resource]?.includes(a.verb) ? { allowed: true } : { allowed: false };
  }

  private async podsOn(node: string): Promise<Pod[]> {
    return (await this.api.list({ resource: 'pods' }, { fieldSelector: `spec.nodeName=${node}` })).items as Pod[];
  }
}

/** The secrets a pod's spec refers to (volumes, env, envFrom, image pull secrets). */
function secretsOf(pod: Pod): string[] {
  const spec = pod.spec as unknown as {
    volumes?: { secret?: { secretName?: string } }[];
    imagePullSecrets?: { name?: string }[];
    containers?: {
      env?: { valueFrom?: { secretKeyRef?: { name?: string } } }[];
      envFrom?: { secretRef?: { name?: string } }[];
    }[];
    initContainers?: {
      env?: { valueFrom?: { secretKeyRef?: { name?: string } } }[];
      envFrom?: { secretRef?: { name?: string } }[];
    }[];
  };
  const out: (string | undefined)[] = [];
  for (const v of spec.volumes ?? []) out.push(v.secret?.secretName);
  for (const s of spec.imagePullSecrets ?? []) out.push(s.name);
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    for (const e of c.env ?? []) out.push(e.valueFrom?.secretKeyRef?.name);
    for (const e of c.envFrom ?? []) out.push(e.secretRef?.name);
  }
  return out.filter((x): x is string => !!x);
}

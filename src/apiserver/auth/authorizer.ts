import { AuthorizationAttributes, UserInfo } from '../../api/request';
import type { ApiServer } from '../apiserver';
import { PolicyRule, Role, RoleBinding, Subject } from '../../api/resources/rbac';

/**
 * Authorization after authentication, as upstream's union authorizer: the first mode that
 * allows wins; none allowing is a 403. Modes: AlwaysAllow, AlwaysDeny, RBAC (with the
 * system:masters group always allowed, as upstream's privileged-group authorizer).
 * Upstream: plugin/pkg/auth/authorizer/rbac (RuleAllows, appliesTo).
 */
export interface Decision {
  allowed: boolean;
  reason?: string;
}

export interface Authorizer {
  authorize(attrs: AuthorizationAttributes): Promise<Decision> | Decision;
}

export const alwaysAllow: Authorizer = { authorize: () => ({ allowed: true }) };
export const alwaysDeny: Authorizer = { authorize: () => ({ allowed: false }) };

function matches(values: string[] | undefined, value: string): boolean {
  return (values ?? []).some((v) => v === '*' || v === value);
}

/** RuleAllows: verbs, then either the non-resource URL or group + resource(/subresource) + name. */
export function ruleAllows(rule: PolicyRule, a: AuthorizationAttributes): boolean {
  if (!matches(rule.verbs, a.verb)) return false;
  if (!a.isResourceRequest) {
    return (rule.nonResourceURLs ?? []).some(
      (u) => u === '*' || u === a.path || (u.endsWith('*') && a.path.startsWith(u.slice(0, -1))),
    );
  }
  if (!matches(rule.apiGroups, a.apiGroup)) return false;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const resources = rule.resources ?? [];
  const resourceOk = resources.some(
    (r) => r === '*' || r === combined || (a.subresource && r === `*/${a.subresource}`),
  );
  if (!resourceOk) return false;
  return !rule.resourceNames?.length || rule.resourceNames.includes(a.name);
}

export function subjectMatches(s: Subject, user: UserInfo, bindingNamespace: string | undefined): boolean {
  switch (s.kind) {
    case 'User':
      return s.name === user.username;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return !!ns && user.username === `system:serviceaccount:${ns}:${s.name}`;
    }
    default:
      return false;
  }
}

/** RBAC over the API server's own Role/ClusterRole/RoleBinding/ClusterRoleBinding objects. */
export class RbacAuthorizer implements Authorizer {
  constructor(private readonly api: ApiServer) {}

  async authorize(a: AuthorizationAttributes): Promise<Decision> {
    if (a.user.groups.includes('system:masters')) return { allowed: true };
    const list = <T>(resource: string) =>
      this.api.list({ resource, group: 'rbac.authorization.k8s.io' }) as unknown as Promise<{ items: T[] }>;
    const [clusterRoles, roles, clusterBindings, bindings] = await Promise.all([
      list<Role>('clusterroles'),
      list<Role>('roles'),
      list<RoleBinding>('clusterrolebindings'),
      list<RoleBinding>('rolebindings'),
    ]);
    const clusterRole = (name: string) => clusterRoles.items.find((r) => r.metadata.name === name);
    const role = (ns: string | undefined, name: string) =>
      roles.items.find((r) => r.metadata.namespace === ns && r.metadata.name === name);
    const allows = (r: Role | undefined) => (r?.rules ?? []).some((rule) => ruleAllows(rule, a));
    for (const b of clusterBindings.items) {
      if ((b.subjects ?? []).some((s) => subjectMatches(s, a.user, undefined)) && allows(clusterRole(b.roleRef.name))) {
        return { allowed: true, reason: `RBAC: allowed by ClusterRoleBinding "${b.metadata.name}"` };
      }
    }
    if (a.isResourceRequest && a.namespace) {
      for (const b of bindings.items) {
        if (b.metadata.namespace !== a.namespace) continue;
        if (!(b.subjects ?? []).some((s) => subjectMatches(s, a.user, b.metadata.namespace))) continue;
        const r =
          b.roleRef.kind === 'ClusterRole' ? clusterRole(b.roleRef.name) : role(b.metadata.namespace, b.roleRef.name);
        if (allows(r))
          return { allowed: true, reason: `RBAC: allowed by RoleBinding "${b.metadata.name}/${b.metadata.namespace}"` };
      }
    }
    return { allowed: false };
  }

  /** Every rule the user holds in namespace (cluster bindings, then that namespace's bindings), as upstream's RulesFor. */
  async rulesFor(user: UserInfo, namespace: string): Promise<PolicyRule[]> {
    if (user.groups.includes('system:masters'))
      return [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ];
    const list = <T>(resource: string) =>
      this.api.list({ resource, group: 'rbac.authorization.k8s.io' }) as unknown as Promise<{ items: T[] }>;
    const [clusterRoles, roles, clusterBindings, bindings] = await Promise.all([
      list<Role>('clusterroles'),
      list<Role>('roles'),
      list<RoleBinding>('clusterrolebindings'),
      list<RoleBinding>('rolebindings'),
    ]);
    const rules: PolicyRule[] = [];
    const clusterRole = (name: string) => clusterRoles.items.find((r) => r.metadata.name === name);
    for (const b of clusterBindings.items) {
      if ((b.subjects ?? []).some((s) => subjectMatches(s, user, undefined)))
        rules.push(...(clusterRole(b.roleRef.name)?.rules ?? []));
    }
    if (namespace) {
      for (const b of bindings.items) {
        if (b.metadata.namespace !== namespace || !(b.subjects ?? []).some((s) => subjectMatches(s, user, namespace)))
          continue;
        const r =
          b.roleRef.kind === 'ClusterRole'
            ? clusterRole(b.roleRef.name)
            : roles.items.find((x) => x.metadata.namespace === namespace && x.metadata.name === b.roleRef.name);
        rules.push(...(r?.rules ?? []));
      }
    }
    return rules;
  }
}

export class UnionAuthorizer implements Authorizer {
  constructor(private readonly modes: Authorizer[]) {}

  // Refusals give the reasons every mode stated, one per line (union.go's reasonlist): the
  // 403 then says why, as the Node authorizer's "no relationship found ..." does upstream.
  async authorize(a: AuthorizationAttributes): Promise<Decision> {
    const reasons: string[] = [];
    for (const m of this.modes) {
      const d = await m.authorize(a);
      if (d.allowed) return d;
      if (d.reason) reasons.push(d.reason);
    }
    return reasons.length ? { allowed: false, reason: reasons.join('\n') } : { allowed: false };
  }
}

/**
 * Upstream's message: User "bob" cannot get resource "nodes" in API group "" at the cluster
 * scope — followed by ": <reason>" when the authorizer gave one (ForbiddenStatusError).
 */
export function forbiddenMessage(a: AuthorizationAttributes, reason?: string): string {
  const message = forbiddenWithoutReason(a);
  return reason ? `${message}: ${reason}` : message;
}

function forbiddenWithoutReason(a: AuthorizationAttributes): string {
  const user = `User "${a.user.username}"`;
  if (!a.isResourceRequest) return `forbidden: ${user} cannot ${a.verb} path "${a.path}"`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  const what = `${user} cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}" ${scope}`;
  const qualified = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
  return a.name ? `${qualified} "${a.name}" is forbidden: ${what}` : `${qualified} is forbidden: ${what}`;
}

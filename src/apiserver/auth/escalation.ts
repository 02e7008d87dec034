import { errors } from '../../api/errors';
import { PolicyRule, Role, RoleBinding } from '../../api/resources/rbac';
import type { AdmissionAttributes, AdmissionPlugin } from '../admission';
import type { UserInfo } from '../../api/request';
import type { ApiServer } from '../apiserver';
import type { Authorizer } from './authorizer';

/**
 * RBAC's privilege-escalation prevention, as upstream's rbac registry does it
 * (pkg/registry/rbac/validation: ConfirmNoEscalation, Covers, BreakdownRule; the
 * `escalate` and `bind` verbs in pkg/registry/rbac/escalation_check.go): a user may write a
 * Role or ClusterRole only with rules it already holds (or with `escalate` on it), and may
 * bind a role only when it holds every rule of that role (or has `bind` on it).
 * system:masters (and in-process components, which carry no user) are exempt, as
 * upstream's EscalationAllowed is for the privileged group.
 */

const GROUP = 'rbac.authorization.k8s.io';

const has = (set: readonly string[] | undefined, v: string) => (set ?? []).includes(v);
const hasAll = (set: readonly string[] | undefined, vs: readonly string[] | undefined) =>
  (vs ?? []).every((v) => has(set, v));

/** BreakdownRule: one rule per (group, resource, verb[, name]) and per (url, verb). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames)
            out.push({ apiGroups: [group], resources: [resource], resourceNames: [name], verbs: [verb] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourceCoversAll(set: readonly string[] | undefined, covers: readonly string[] | undefined): boolean {
  if (has(set, '*') || hasAll(set, covers)) return true;
  for (const path of covers ?? []) {
    if (has(set, path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!has(set, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

export function nonResourceURLCovers(owner: string, requested: string): boolean {
  if (owner === requested) return true;
  return owner.endsWith('*') && requested.startsWith(owner.slice(0, -1));
}

function nonResourceURLsCoversAll(set: readonly string[] | undefined, covers: readonly string[] | undefined): boolean {
  return (covers ?? []).every((c) => (set ?? []).some((o) => nonResourceURLCovers(o, c)));
}

/** ruleCovers: whether owner grants everything requested (a broken-down rule) asks. */
export function ruleCovers(owner: PolicyRule, requested: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, requested.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, requested.apiGroups);
  const resources = resourceCoversAll(owner.resources, requested.resources);
  const urls = nonResourceURLsCoversAll(owner.nonResourceURLs, requested.nonResourceURLs);
  const names =
    (requested.resourceNames ?? []).length === 0
      ? (owner.resourceNames ?? []).length === 0
      : (owner.resourceNames ?? []).length === 0 || hasAll(owner.resourceNames, requested.resourceNames);
  return verbs && groups && resources && urls && names;
}

/** Covers: whether ownerRules hold every servant rule; the uncovered broken-down rules otherwise. */
export function covers(
  ownerRules: readonly PolicyRule[],
  servantRules: readonly PolicyRule[],
): { covered: boolean; missing: PolicyRule[] } {
  const missing = servantRules.flatMap(breakdownRule).filter((sub) => !ownerRules.some((o) => ruleCovers(o, sub)));
  return { covered: missing.length === 0, missing };
}

/** rbacv1helpers.CompactString: {APIGroups:["apps"], Resources:["pods"], Verbs:["get"]}. */
export function compactString(r: PolicyRule): string {
  const q = (xs: string[]) => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;
  const parts: string[] = [];
  if (r.apiGroups?.length) parts.push(`APIGroups:${q(r.apiGroups)}`);
  if (r.resources?.length) parts.push(`Resources:${q(r.resources)}`);
  if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${q(r.nonResourceURLs)}`);
  if (r.resourceNames?.length) parts.push(`ResourceNames:${q(r.resourceNames)}`);
  if (r.verbs?.length) parts.push(`Verbs:${q(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** The rules a user holds in a namespace ("" = cluster-wide only), as upstream's RulesFor. */
export type RuleResolver = (user: UserInfo, namespace: string) => Promise<PolicyRule[]>;

export function escalationCheck(api: ApiServer, authorizer: Authorizer, rulesFor: RuleResolver): AdmissionPlugin {
  const exempt = (u: UserInfo | undefined) => !u || u.groups.includes('system:masters');
  const allowedVerb = async (user: UserInfo, verb: string, resource: string, namespace: string, name: string) =>
    (
      await authorizer.authorize({
        user,
        verb,
        isResourceRequest: true,
        path: '',
        apiGroup: GROUP,
        resource,
        subresource: '',
        namespace,
        name,
      })
    ).allowed;
  const refuse = (attrs: AdmissionAttributes, user: UserInfo, missing: PolicyRule[]) =>
    errors.forbidden(
      { kind: attrs.resource.resource, group: GROUP, name: attrs.name ?? attrs.object?.metadata.name },
      `user ${JSON.stringify(user.username)} (groups=${JSON.stringify(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${missing.map(compactString).join('\n')}`,
    );
  return {
    name: 'RBACEscalationCheck',
    async validate(attrs) {
      if (
        attrs.resource.group !== GROUP ||
        (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') ||
        attrs.subresource
      )
        return;
      const user = attrs.user;
      if (exempt(user) || !user) return;
      const namespace = attrs.resource.namespaced ? (attrs.namespace ?? '') : '';
      const name = attrs.object?.metadata.name ?? '';
      const kind = attrs.resource.resource;
      if (kind === 'roles' || kind === 'clusterroles') {
        if (await allowedVerb(user, 'escalate', kind, namespace, name)) return;
        const { covered, missing } = covers(await rulesFor(user, namespace), (attrs.object as Role).rules ?? []);
        if (!covered) throw refuse(attrs, user, missing);
        return;
      }
      if (kind === 'rolebindings' || kind === 'clusterrolebindings') {
        const ref = (attrs.object as RoleBinding).roleRef;
        if (!ref) return;
        const refResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
        if (await allowedVerb(user, 'bind', refResource, ref.kind === 'Role' ? namespace : namespace, ref.name)) return;
        let roleRules: PolicyRule[];
        try {
          const role = (await api.get({
            resource: refResource,
            group: GROUP,
            namespace: ref.kind === 'Role' ? namespace : undefined,
            name: ref.name,
          })) as Role;
          roleRules = role.rules ?? [];
        } catch (e) {
          // A binding to a role that does not exist grants nothing yet, but upstream refuses
          // it for a user without bind: the role could be created later with any rules.
          throw errors.forbidden(
            { kind, group: GROUP, name },
            `user ${JSON.stringify(user.username)} cannot bind ${ref.kind} ${JSON.stringify(ref.name)}: ${(e as Error).message}`,
          );
        }
        const { covered, missing } = covers(await rulesFor(user, namespace), roleRules);
        if (!covered) throw refuse(attrs, user, missing);
      }
    },
  };
}

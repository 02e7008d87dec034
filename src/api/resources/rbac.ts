import { KubeObject } from '../meta';
import { defineResource } from '../registry';
import { fieldError, FieldErrors, GoValue } from '../validation/field';

/** rbac.authorization.k8s.io/v1: who may do what (upstream pkg/apis/rbac). */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Role extends KubeObject {
  rules?: PolicyRule[];
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export interface RoleBinding extends KubeObject {
  subjects?: Subject[];
  roleRef: { apiGroup: string; kind: 'Role' | 'ClusterRole'; name: string };
}

function validateRules(rules: PolicyRule[] | undefined, namespaced: boolean): FieldErrors {
  const errs: FieldErrors = [];
  (rules ?? []).forEach((r, i) => {
    if (!r.verbs?.length) errs.push(fieldError.required(`rules[${i}].verbs`));
    if (namespaced && r.nonResourceURLs?.length)
      errs.push(
        fieldError.invalid(
          `rules[${i}].nonResourceURLs`,
          r.nonResourceURLs,
          'namespaced rules cannot apply to non-resource URLs',
        ),
      );
    if (!r.nonResourceURLs?.length && !r.resources?.length) errs.push(fieldError.required(`rules[${i}].resources`));
  });
  return errs;
}

function validateBinding(b: RoleBinding, namespaced: boolean): FieldErrors {
  const errs: FieldErrors = [];
  if (!b.roleRef?.name) errs.push(fieldError.required('roleRef.name'));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (b.roleRef && !kinds.includes(b.roleRef.kind))
    errs.push(fieldError.notSupported('roleRef.kind', b.roleRef.kind, kinds));
  (b.subjects ?? []).forEach((s, i) => {
    if (!['User', 'Group', 'ServiceAccount'].includes(s.kind))
      errs.push(fieldError.notSupported(`subjects[${i}].kind`, s.kind, ['ServiceAccount', 'User', 'Group']));
    if (!s.name) errs.push(fieldError.required(`subjects[${i}].name`));
    // a cluster binding's service account has no namespace to fall back on (ValidateRoleBindingSubject)
    if (s.kind === 'ServiceAccount' && !namespaced && !s.namespace)
      errs.push(fieldError.required(`subjects[${i}].namespace`));
  });
  return errs;
}

/** ValidateRoleBindingUpdate (beside validate's checks): a binding's roleRef is fixed; to point elsewhere, delete and re-create. */
function validateBindingUpdate(b: RoleBinding, old: RoleBinding): FieldErrors {
  const errs: FieldErrors = [];
  const ref = (r: RoleBinding['roleRef'] | undefined) => [r?.apiGroup ?? '', r?.kind ?? '', r?.name ?? ''];
  const [group, kind, name] = ref(b.roleRef);
  if (ref(old.roleRef).join('\0') !== [group, kind, name].join('\0'))
    errs.push(
      fieldError.invalid(
        'roleRef',
        new GoValue(
          `rbac.RoleRef{APIGroup:${JSON.stringify(group)}, Kind:${JSON.stringify(kind)}, Name:${JSON.stringify(name)}}`,
        ),
        'cannot change roleRef',
      ),
    );
  return errs;
}

const GROUP = 'rbac.authorization.k8s.io';

export const roles = defineResource<Role>({
  group: GROUP,
  version: 'v1',
  resource: 'roles',
  kind: 'Role',
  namespaced: true,
  nameRule: 'path',
  validate: (r) => validateRules(r.rules, true),
});
export const clusterRoles = defineResource<Role>({
  group: GROUP,
  version: 'v1',
  resource: 'clusterroles',
  kind: 'ClusterRole',
  namespaced: false,
  nameRule: 'path',
  validate: (r) => validateRules(r.rules, false),
});
export const roleBindings = defineResource<RoleBinding>({
  group: GROUP,
  version: 'v1',
  resource: 'rolebindings',
  kind: 'RoleBinding',
  namespaced: true,
  nameRule: 'path',
  validate: (b) => validateBinding(b, true),
  validateUpdate: validateBindingUpdate,
});
export const clusterRoleBindings = defineResource<RoleBinding>({
  group: GROUP,
  version: 'v1',
  resource: 'clusterrolebindings',
  kind: 'ClusterRoleBinding',
  namespaced: false,
  nameRule: 'path',
  validate: (b) => validateBinding(b, false),
  validateUpdate: validateBindingUpdate,
});

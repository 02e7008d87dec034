import type { ApiServer } from '../apiserver';
import { alwaysAllow, alwaysDeny, Authorizer, RbacAuthorizer, UnionAuthorizer } from './authorizer';
import { escalationCheck } from './escalation';
import { NodeAuthorizer } from './node-authorizer';
import { nodeRestriction } from '../admission/node-restriction';

/**
 * --authorization-mode: the union of the named authorizers, in order, and the admission
 * plugins that come with them (kept apart from the authorizers so that they, which need
 * only the Authorizer interface, do not import their own assembly).
 */
export function authorizerFor(
  modes: string,
  api: ApiServer,
  options: { nodeReadsOwnNodeOnly?: boolean } = {},
): Authorizer {
  const list = modes
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  const rbac = new RbacAuthorizer(api);
  const known: Record<string, () => Authorizer> = {
    AlwaysAllow: () => alwaysAllow,
    AlwaysDeny: () => alwaysDeny,
    RBAC: () => rbac,
    Node: () => new NodeAuthorizer(api, options.nodeReadsOwnNodeOnly ?? false),
  };
  const union = new UnionAuthorizer(
    list.map((m) => {
      const make = known[m];
      if (!make) throw new Error(`unknown authorization mode "${m}" (known: ${Object.keys(known).join(', ')})`);
      return make();
    }),
  );
  // Writes to RBAC objects are checked against the writer's own rights (upstream's rbac
  // registry does this whatever the modes; its rule resolver is always RBAC's).
  // The Node mode comes with NodeRestriction, as kubeadm enables them together.
  if (list.includes('Node') && !api.admission.names().includes('NodeRestriction'))
    api.admission.use(nodeRestriction(api));
  if (!api.admission.names().includes('RBACEscalationCheck'))
    api.admission.use(escalationCheck(api, union, (u, ns) => rbac.rulesFor(u, ns)));
  return union;
}

import { ResourceRegistry } from '../registry';
import { nodes } from './node';
import { pods } from './pod';
import { namespaces } from './namespace';
import { leases } from './lease';
import { events } from './event';
import { clusterRoleBindings, clusterRoles, roleBindings, roles } from './rbac';

export { nodes, pods, namespaces, leases, events };

/** A registry holding every resource the control plane serves. */
export function coreRegistry(): ResourceRegistry {
  return new ResourceRegistry().register(namespaces).register(nodes).register(pods).register(leases).register(events)
    .register(roles).register(clusterRoles).register(roleBindings).register(clusterRoleBindings);
}

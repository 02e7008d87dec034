import { ResourceRegistry } from '../registry';
import { nodes } from './node';
import { pods, podsResource } from './pod';
import { namespaces, namespacesResource } from './namespace';
import { leases } from './lease';
import { events } from './event';
import { daemonsets, daemonsetsResource } from './daemonset';
import { replicationcontrollers } from './replicationcontroller';
import { jobs, jobsResource } from './job';
import { replicasets } from './replicaset';
import { deployments } from './deployment';
import { statefulsets } from './statefulset';
import { controllerrevisions } from './controllerrevision';
import { services } from './service';
import { endpoints } from './endpoints';
import { endpointslices } from './endpointslice';
import { serviceaccounts } from './serviceaccount';
import { secrets } from './secret';
import { configmaps } from './configmap';
import { resourcequotas } from './resourcequota';
import { limitranges } from './limitrange';
import { clusterRoleBindings, clusterRoles, roleBindings, roles } from './rbac';

export { nodes, pods, namespaces, leases, events, daemonsets };
export { replicasets, deployments, statefulsets, controllerrevisions };
export { replicationcontrollers, jobs, services, endpoints, serviceaccounts, secrets, resourcequotas, limitranges };
export { endpointslices, configmaps };

/** A registry holding every resource the control plane serves. */
/** Every built-in resource; a release's validation differences come as options (from its profile). */
export function coreRegistry(
  options: {
    jobRestartPolicyRequired?: boolean;
    namespaceRepeatDeleteAnswered?: boolean;
    daemonSetMaxSurge?: boolean;
    podSchedulingGates?: boolean;
    /** discovery.k8s.io/v1 EndpointSlices (v1.21+). */
    endpointSlices?: boolean;
  } = {},
): ResourceRegistry {
  const registry = new ResourceRegistry()
    .register(options.namespaceRepeatDeleteAnswered ? namespacesResource(true) : namespaces)
    .register(nodes)
    .register(options.podSchedulingGates === false ? podsResource({ schedulingGates: false }) : pods)
    .register(leases)
    .register(events)
    .register(options.daemonSetMaxSurge === false ? daemonsetsResource({ maxSurge: false }) : daemonsets)
    .register(replicationcontrollers)
    .register(options.jobRestartPolicyRequired ? jobsResource(true) : jobs)
    .register(services)
    .register(endpoints)
    .register(serviceaccounts)
    .register(secrets)
    .register(configmaps)
    .register(resourcequotas)
    .register(limitranges)
    .register(roles)
    .register(clusterRoles)
    .register(roleBindings)
    .register(clusterRoleBindings)
    .register(replicasets)
    .register(deployments)
    .register(statefulsets)
    .register(controllerrevisions);
  return options.endpointSlices ? registry.register(endpointslices) : registry;
}

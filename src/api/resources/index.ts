import { ResourceRegistry } from '../registry';
import { nodes } from './node';
import { pods } from './pod';
import { namespaces } from './namespace';
import { leases } from './lease';
import { events } from './event';
import { daemonsets } from './daemonset';
import { services } from './service';

export { nodes, pods, namespaces, leases, events, daemonsets, services };

/** A registry holding every resource the control plane serves. */
export function coreRegistry(): ResourceRegistry {
  return new ResourceRegistry().register(namespaces).register(nodes).register(pods).register(leases).register(events).register(daemonsets).register(services);
}

import { FITS, withForPod } from './predicate';

/**
 * PodFitsHostPorts (registered also as PodFitsPorts "for backwards compatibility with
 * 1.0"; framework plugin NodePorts): each wanted (hostIP, protocol, hostPort) conflicts
 * with a used one of the same protocol and port when either IP is 0.0.0.0 or they are
 * equal (HostPortInfo.CheckConflict). hostPort 0 asks for nothing.
 */
export const podFitsHostPorts = withForPod(
  (_pod, meta, node) => {
    for (const p of meta.ports) if (node.portConflicts(p)) return [{ kind: 'predicate', reason: 'PodFitsHostPorts' }];
    return FITS;
  },
  (_pod, meta) => (meta.ports.length ? podFitsHostPorts : undefined),
);

import { Endpoints } from '../api/resources/endpoints';
import { Service } from '../api/resources/service';

export interface Backend {
  ip: string;
  port: number;
}

export interface ServiceEntry {
  /** namespace/name:portName, as the userspace proxy names a service port. */
  servicePort: string;
  clusterIP: string;
  port: number;
  protocol: string;
  backends: Backend[];
}

/**
 * kube-proxy's table (pkg/proxy, ServicePortName → endpoints): for every service with a
 * cluster IP, each of its ports maps ClusterIP:port to the ready addresses of the
 * Endpoints subset port of the same name. Sorted, so the table is deterministic.
 */
export function buildTable(
  services: readonly Service[],
  endpoints: (namespace: string, name: string) => Endpoints | undefined,
): Map<string, ServiceEntry> {
  const table = new Map<string, ServiceEntry>();
  for (const svc of services) {
    const ip = svc.spec.clusterIP;
    if (!ip || ip === 'None' || svc.spec.type === 'ExternalName') continue;
    const ep = endpoints(svc.metadata.namespace!, svc.metadata.name!);
    for (const sp of svc.spec.ports ?? []) {
      const protocol = sp.protocol ?? 'TCP';
      const backends: Backend[] = [];
      for (const subset of ep?.subsets ?? []) {
        const port = (subset.ports ?? []).find(
          (p) => (p.name ?? '') === (sp.name ?? '') && (p.protocol ?? 'TCP') === protocol,
        );
        if (!port) continue;
        for (const a of subset.addresses ?? []) backends.push({ ip: a.ip, port: port.port });
      }
      backends.sort((a, b) => (a.ip === b.ip ? a.port - b.port : a.ip < b.ip ? -1 : 1));
      table.set(entryKey(ip, sp.port, protocol), {
        servicePort: `${svc.metadata.namespace}/${svc.metadata.name}:${sp.name ?? ''}`,
        clusterIP: ip,
        port: sp.port,
        protocol,
        backends,
      });
    }
  }
  return table;
}

export function entryKey(clusterIP: string, port: number, protocol = 'TCP'): string {
  return `${clusterIP}:${port}/${protocol}`;
}

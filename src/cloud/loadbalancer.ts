import { Node } from '../api/core';
import { LoadBalancerIngress, Service } from '../api/resources/service';

export interface LoadBalancerStatus {
  ingress?: LoadBalancerIngress[];
}

/**
 * The load-balancer half of upstream's cloudprovider.Interface (cloud-provider/cloud.go,
 * `LoadBalancer`): what the service controller asks of a cloud.
 */
export interface LoadBalancerProvider {
  getLoadBalancer(clusterName: string, service: Service): Promise<{ status?: LoadBalancerStatus; exists: boolean }>;
  getLoadBalancerName(clusterName: string, service: Service): string;
  ensureLoadBalancer(clusterName: string, service: Service, nodes: readonly Node[]): Promise<LoadBalancerStatus>;
  updateLoadBalancer(clusterName: string, service: Service, nodes: readonly Node[]): Promise<void>;
  ensureLoadBalancerDeleted(clusterName: string, service: Service): Promise<void>;
}

/** Upstream DefaultLoadBalancerName: "a" + the service UID without dashes, at most 32 characters. */
export function defaultLoadBalancerName(service: Service): string {
  return `a${(service.metadata.uid ?? '').replace(/-/g, '')}`.slice(0, 32);
}

/** One load balancer of the simulated cloud: which service it fronts, its backends, its address. */
export interface SimulatedLoadBalancer {
  name: string;
  service: string;
  nodes: string[];
  ports: { port: number; nodePort?: number; protocol?: string }[];
  ingress: LoadBalancerIngress[];
}

/**
 * A cloud whose load balancers live in memory: each gets an address from a documentation
 * range (203.0.113.0/24, RFC 5737), its backends are node names; tests read them back.
 */
export class SimulatedLoadBalancers implements LoadBalancerProvider {
  private readonly balancers = new Map<string, SimulatedLoadBalancer>();
  private nextHost = 10;

  list(): SimulatedLoadBalancer[] {
    return [...this.balancers.values()].map((b) => ({
      ...b,
      nodes: [...b.nodes],
      ingress: b.ingress.map((i) => ({ ...i })),
    }));
  }

  getLoadBalancerName(_cluster: string, service: Service): string {
    return defaultLoadBalancerName(service);
  }

  async getLoadBalancer(cluster: string, service: Service) {
    const lb = this.balancers.get(this.getLoadBalancerName(cluster, service));
    return lb ? { status: { ingress: lb.ingress }, exists: true } : { exists: false };
  }

  async ensureLoadBalancer(cluster: string, service: Service, nodes: readonly Node[]): Promise<LoadBalancerStatus> {
    const name = this.getLoadBalancerName(cluster, service);
    const existing = this.balancers.get(name);
    const ingress = existing?.ingress ?? [{ ip: `203.0.113.${this.nextHost++}` }];
    this.balancers.set(name, {
      name,
      service: `${service.metadata.namespace}/${service.metadata.name}`,
      nodes: nodes.map((n) => n.metadata.name!).sort(),
      ports: (service.spec.ports ?? []).map((p) => ({ port: p.port, nodePort: p.nodePort, protocol: p.protocol })),
      ingress,
    });
    return { ingress };
  }

  async updateLoadBalancer(cluster: string, service: Service, nodes: readonly Node[]): Promise<void> {
    const lb = this.balancers.get(this.getLoadBalancerName(cluster, service));
    if (!lb) throw new Error(`load balancer ${this.getLoadBalancerName(cluster, service)} not found`);
    lb.nodes = nodes.map((n) => n.metadata.name!).sort();
  }

  async ensureLoadBalancerDeleted(cluster: string, service: Service): Promise<void> {
    this.balancers.delete(this.getLoadBalancerName(cluster, service));
  }
}

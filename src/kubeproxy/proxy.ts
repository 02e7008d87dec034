import { Endpoints } from '../api/resources/endpoints';
import { Service } from '../api/resources/service';
import { Client } from '../client/client';
import { Informer } from '../client/informer';
import { Backend, buildTable, entryKey, ServiceEntry } from './table';

/**
 * A hollow kube-proxy for one node: watches Services and Endpoints through its own
 * informers (as kube-proxy does, through the API server), keeps the ClusterIP:port →
 * endpoints table, and routes a connection round-robin across the backends, as the
 * userspace proxy's LoadBalancerRR did.
 */
export class HollowProxy {
  private readonly services: Informer<Service>;
  private readonly endpoints: Informer<Endpoints>;
  private table = new Map<string, ServiceEntry>();
  private readonly next = new Map<string, number>();

  constructor(
    readonly nodeName: string,
    client: Client,
  ) {
    this.services = new Informer<Service>(client, { resource: 'services' });
    this.endpoints = new Informer<Endpoints>(client, { resource: 'endpoints' });
  }

  async start(): Promise<void> {
    const rebuild = () => {
      this.table = buildTable(this.services.list(), (ns, name) => this.endpoints.getByName(name, ns));
    };
    for (const inf of [this.services, this.endpoints] as Informer[])
      inf.addEventHandler({ onAdd: rebuild, onUpdate: rebuild, onDelete: rebuild });
    await this.services.run();
    await this.endpoints.run();
    rebuild();
  }

  stop(): void {
    this.services.stop();
    this.endpoints.stop();
  }

  entries(): ServiceEntry[] {
    return [...this.table.values()];
  }

  /** The backend the next connection to clusterIP:port goes to; undefined when the service has none (connection refused). */
  route(clusterIP: string, port: number, protocol = 'TCP'): Backend | undefined {
    const key = entryKey(clusterIP, port, protocol);
    const entry = this.table.get(key);
    if (!entry || entry.backends.length === 0) return undefined;
    const i = (this.next.get(key) ?? 0) % entry.backends.length;
    this.next.set(key, i + 1);
    return entry.backends[i];
  }
}

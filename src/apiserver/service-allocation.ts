import { errors } from '../api/errors';
import { Service } from '../api/resources/service';
import { KubeObject } from '../api/meta';
import { Store, Watch } from '../store';
import { RangeAllocator, ServiceIPRange } from './ipallocator';
import { CreateHook } from './apiserver';

/** Upstream's key prefix of Services (endpoints live beside them, under /registry/services/endpoints/). */
const SERVICES = '/registry/services/specs/';

export const DEFAULT_NODE_PORT_RANGE = { first: 30000, size: 2768 };

/**
 * What the service REST storage reserves for a new Service (upstream service REST Create
 * with its ipallocator and portallocator): a cluster IP from --service-cluster-ip-range
 * (or the requested one, if free and in range) unless headless or ExternalName, and a
 * node port for each port of a NodePort or LoadBalancer service. Reservations are rolled
 * back when the create fails and released when the Service leaves the store (whatever
 * deleted it), as upstream's repair loop guarantees.
 */
export class ServiceAllocations implements CreateHook {
  readonly resource = 'services';
  readonly ips: ServiceIPRange;
  private readonly nodePorts = new RangeAllocator(DEFAULT_NODE_PORT_RANGE.first, DEFAULT_NODE_PORT_RANGE.size);
  private watch?: Watch;

  constructor(
    cidr: string,
    private readonly store: Store,
  ) {
    this.ips = new ServiceIPRange(cidr);
  }

  /**
   * Marks what stored services hold, then follows the store: deletions release, and a
   * service created through another API server on the same etcd holds its IP and ports
   * here too (holding what this server reserved itself changes nothing). Two servers that
   * pick the same free IP at the same instant still collide: upstream serializes that
   * through the range allocation kept in etcd (/registry/ranges/serviceips), not done here.
   */
  async start(): Promise<void> {
    const { items, revision } = await this.store.range<Service>(SERVICES);
    for (const kv of items) this.hold(kv.value);
    this.watch = await this.store.watch<Service>(SERVICES, { afterRevision: revision }, (events) => {
      for (const e of events) {
        if (e.type === 'DELETE') this.releaseAll(e.kv.value);
        else if (e.created) this.hold(e.kv.value);
      }
    });
  }

  stop(): void {
    this.watch?.stop();
  }

  private hold(svc: Service): void {
    if (svc.spec.clusterIP && svc.spec.clusterIP !== 'None') this.ips.allocate(svc.spec.clusterIP);
    for (const p of svc.spec.ports ?? []) if (p.nodePort) this.nodePorts.allocate(p.nodePort);
  }

  private releaseAll(svc: Service): void {
    this.ips.release(svc.spec.clusterIP ?? '');
    for (const p of svc.spec.ports ?? []) if (p.nodePort) this.nodePorts.release(p.nodePort);
  }

  reserve(obj: KubeObject, dryRun: boolean): () => void {
    const svc = obj as Service;
    const s = svc.spec;
    if (!s || s.type === 'ExternalName') return () => undefined;
    const taken: (() => void)[] = [];
    const rollback = () => {
      for (const undo of taken) undo();
    };
    try {
      if (s.clusterIP !== 'None') {
        if (s.clusterIP) {
          const r = dryRun ? 'ok' : this.ips.allocate(s.clusterIP);
          if (r !== 'ok') {
            const why =
              r === 'taken'
                ? 'provided IP is already allocated'
                : `the provided IP (${s.clusterIP}) is not in the valid range. The range of valid IPs is ${this.ips.cidr}`;
            throw errors.invalid('Service', svc.metadata.name ?? '', [
              {
                reason: 'FieldValueInvalid',
                field: 'spec.clusterIPs',
                message: `Invalid value: []string{"${s.clusterIP}"}: failed to allocate IP ${s.clusterIP}: ${why}`,
              },
            ]);
          }
        } else {
          const ip = this.ips.allocateNext();
          if (!ip) throw errors.internal(`failed to allocate a serviceIP: range is full`);
          s.clusterIP = ip;
          if (dryRun) this.ips.release(ip);
        }
        s.clusterIPs = [s.clusterIP];
        const ip = s.clusterIP;
        if (!dryRun) taken.push(() => this.ips.release(ip));
      }
      if (s.type === 'NodePort' || s.type === 'LoadBalancer') {
        for (const [i, p] of (s.ports ?? []).entries()) {
          if (p.nodePort) {
            if (!this.nodePorts.allocate(p.nodePort)) {
              throw errors.invalid('Service', svc.metadata.name ?? '', [
                {
                  reason: 'FieldValueInvalid',
                  field: `spec.ports[${i}].nodePort`,
                  message: `Invalid value: ${p.nodePort}: provided port is already allocated`,
                },
              ]);
            }
          } else {
            const port = this.nodePorts.allocateNext();
            if (port === undefined) throw errors.internal('failed to allocate a nodePort: range is full');
            p.nodePort = port;
          }
          const port = p.nodePort;
          if (dryRun) this.nodePorts.release(port);
          else taken.push(() => this.nodePorts.release(port));
        }
      }
    } catch (e) {
      rollback();
      throw e;
    }
    return rollback;
  }
}

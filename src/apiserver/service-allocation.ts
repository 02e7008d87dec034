import { errors } from '../api/errors';
import { ipv4ToNumber, numberToIPv4 } from '../api/ipv4';
import { Service } from '../api/resources/service';
import { KubeObject } from '../api/meta';
import { ErrorSink, handleError } from '../client/background';
import { Store, Watch } from '../store';
import { RangeAllocator, ServiceIPRange, StoredRange } from './ipallocator';
import { CreateHook, Undo } from './apiserver';

/** Upstream's key prefix of Services (endpoints live beside them, under /registry/services/endpoints/). */
const SERVICES = '/registry/services/specs/';

/** Where upstream keeps the two RangeAllocations (pkg/controlplane/storage_core.go: "serviceips", "servicenodeports"). */
export const SERVICE_IPS_KEY = '/registry/ranges/serviceips';
export const NODE_PORTS_KEY = '/registry/ranges/servicenodeports';

export const DEFAULT_NODE_PORT_RANGE = { first: 30000, size: 2768 };

/** Runs background work so that whoever waits for the cluster to be at rest waits for it too. */
export type Track = <T>(p: Promise<T>) => Promise<T>;

/**
 * What the service REST storage reserves for a new Service (upstream service REST Create
 * with its ipallocator and portallocator): a cluster IP from --service-cluster-ip-range
 * (or the requested one, if free and in range) unless headless or ExternalName, and a
 * node port for each port of a NodePort or LoadBalancer service. Reservations are rolled
 * back when the create fails and released when the Service leaves the store (whatever
 * deleted it), as upstream's repair loop guarantees.
 *
 * The bitmaps live in the store, as upstream's RangeAllocations at /registry/ranges/serviceips
 * and /registry/ranges/servicenodeports, each change a guarded read-modify-write
 * (StoredRange): two API servers on one etcd that create services at the same instant never
 * hand out the same cluster IP or node port.
 */
export class ServiceAllocations implements CreateHook {
  readonly resource = 'services';
  readonly ips: ServiceIPRange;
  private readonly ipRange: StoredRange;
  private readonly portRange: StoredRange;
  private watch?: Watch;

  constructor(
    cidr: string,
    private readonly store: Store,
    private readonly track: Track = (p) => p,
    /** Where a failed release goes: the cluster's reporter (the process's when alone). */
    private readonly report: ErrorSink = handleError,
  ) {
    this.ips = new ServiceIPRange(cidr);
    this.ipRange = new StoredRange(store, SERVICE_IPS_KEY, this.ips.cidr, this.ips.bitmap);
    const { first, size } = DEFAULT_NODE_PORT_RANGE;
    const ports = new RangeAllocator(first, size);
    this.portRange = new StoredRange(store, NODE_PORTS_KEY, `${first}-${first + size - 1}`, ports);
  }

  /**
   * Creates the range objects (or marks in them what stored services hold: upstream's repair
   * at start), then follows the store: a deleted Service's IP and ports go back. Every API
   * server on the store sees every deletion; StoredRange.releaseDeleted lets only the first
   * of them release.
   */
  async start(): Promise<void> {
    const { items, revision } = await this.store.range<Service>(SERVICES);
    const held = items.map((kv) => holdings(kv.value));
    await this.ipRange.init(held.flatMap((h) => h.ips));
    await this.portRange.init(held.flatMap((h) => h.ports));
    this.watch = await this.store.watch<Service>(SERVICES, { afterRevision: revision }, (events) => {
      for (const e of events) {
        if (e.type !== 'DELETE') continue;
        const { ips, ports } = holdings(e.kv.value);
        const at = e.kv.modRevision;
        // Called in revision order: the ranges' queues keep that order.
        if (ips.length > 0)
          void this.track(this.ipRange.releaseDeleted(ips, at)).catch((e) => this.report('service IP release', e));
        if (ports.length > 0)
          void this.track(this.portRange.releaseDeleted(ports, at)).catch((e) =>
            this.report('service node port release', e),
          );
      }
    });
  }

  stop(): void {
    this.watch?.stop();
  }

  async reserve(obj: KubeObject, dryRun: boolean): Promise<Undo> {
    return (await this.allocate(obj as Service, undefined, dryRun)).undo;
  }

  /**
   * An update allocates as a create does what the old Service did not hold (upstream's
   * alloc.allocateUpdate: ExternalName → ClusterIP takes a cluster IP, a new or changed node
   * port is allocated), keeps what it held, and once written releases what the old one held
   * and the new one does not — so a Service can never store an IP or port it was not given,
   * and its deletion releases only what it holds.
   */
  reserveUpdate(obj: KubeObject, old: KubeObject, dryRun: boolean): Promise<{ undo: Undo; commit: Undo }> {
    return this.allocate(obj as Service, old as Service, dryRun);
  }

  private async allocate(
    svc: Service,
    old: Service | undefined,
    dryRun: boolean,
  ): Promise<{ undo: Undo; commit: Undo }> {
    const s = svc.spec;
    const had = old ? holdings(old) : { ips: [], ports: [] };
    const ips: number[] = [];
    const ports: number[] = [];
    const undo = async () => {
      if (ips.length > 0) await this.ipRange.release(ips.splice(0));
      if (ports.length > 0) await this.portRange.release(ports.splice(0));
    };
    const commit = async () => {
      if (dryRun) return;
      const now = holdings(svc);
      const goneIps = had.ips.filter((ip) => !now.ips.includes(ip));
      const gonePorts = had.ports.filter((port) => !now.ports.includes(port));
      if (goneIps.length > 0) await this.ipRange.release(goneIps);
      if (gonePorts.length > 0) await this.portRange.release(gonePorts);
    };
    if (!s || s.type === 'ExternalName') return { undo, commit };
    try {
      if (s.clusterIP !== 'None') {
        const kept = s.clusterIP ? ipv4ToNumber(s.clusterIP) : undefined;
        if (kept !== undefined && had.ips.includes(kept)) {
          // the old Service's own IP, kept (the field is immutable once set)
        } else if (s.clusterIP) {
          const n = ipv4ToNumber(s.clusterIP);
          const inRange = n !== undefined && this.ips.bitmap.contains(n);
          const r = dryRun
            ? inRange && (await this.ipRange.isFree(n!))
              ? 'ok'
              : inRange
                ? 'taken'
                : 'out-of-range'
            : !inRange
              ? 'out-of-range'
              : (await this.ipRange.allocate(n))
                ? 'ok'
                : 'taken';
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
          if (!dryRun) ips.push(n!);
        } else {
          const n = dryRun ? await this.ipRange.peekNext() : await this.ipRange.allocateNext();
          if (n === undefined) throw errors.internal(`failed to allocate a serviceIP: range is full`);
          s.clusterIP = numberToIPv4(n);
          if (!dryRun) ips.push(n);
        }
        if (s.clusterIP) s.clusterIPs = [s.clusterIP];
      }
      if (s.type === 'NodePort' || s.type === 'LoadBalancer') {
        for (const [i, p] of (s.ports ?? []).entries()) {
          if (p.nodePort && had.ports.includes(p.nodePort)) continue; // held by the old Service
          if (p.nodePort) {
            const free = dryRun ? await this.portRange.isFree(p.nodePort) : await this.portRange.allocate(p.nodePort);
            if (!free) {
              throw errors.invalid('Service', svc.metadata.name ?? '', [
                {
                  reason: 'FieldValueInvalid',
                  field: `spec.ports[${i}].nodePort`,
                  message: `Invalid value: ${p.nodePort}: provided port is already allocated`,
                },
              ]);
            }
          } else {
            const port = dryRun ? await this.portRange.peekNext() : await this.portRange.allocateNext();
            if (port === undefined) throw errors.internal('failed to allocate a nodePort: range is full');
            p.nodePort = port;
          }
          if (!dryRun) ports.push(p.nodePort);
        }
      }
    } catch (e) {
      await undo();
      throw e;
    }
    return { undo, commit };
  }
}

/** The cluster IP (as a number) and node ports a stored Service holds. */
function holdings(svc: Service): { ips: number[]; ports: number[] } {
  const ip = svc.spec?.clusterIP && svc.spec.clusterIP !== 'None' ? ipv4ToNumber(svc.spec.clusterIP) : undefined;
  return {
    ips: ip === undefined ? [] : [ip],
    ports: (svc.spec?.ports ?? []).flatMap((p) => (p.nodePort ? [p.nodePort] : [])),
  };
}

import { TAINT_CLOUD_UNINITIALIZED } from '../api/taints';
import { createHash } from 'node:crypto';
import { jsonEqual } from '../api/meta';
import { Clock, isoTime, microTime, TimerHandle } from '../clock';
import { Lease, Node, NodeAddress, NodeSystemInfo } from '../api/core';
import { isStatusError } from '../api/errors';
import { Quantity } from '../api/quantity';
import { Client } from '../client/client';
import { EVENT_CACHE_ENTRIES, EventRecorder } from '../client/events';
import { KubeletConfig } from './config';
import { HEALTHY_EVENT, kubeletConditions } from './conditions';
import { PodRunner } from './pods';
import { ErrorSink, handleError } from '../client/background';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** What a kubelet with --cloud-provider=external registers with, until the cloud node controller initializes the node. */
const UNINITIALIZED_TAINT = {
  key: TAINT_CLOUD_UNINITIALIZED,
  value: 'true',
  effect: 'NoSchedule' as const,
};

/**
 * The hollow kubelet: a kubelet without containers. It registers its Node, posts node
 * status, renews its Lease, and runs the pods bound to it as simulated processes — all
 * through the API server, so it drives the in-process control plane and external
 * clusters alike. stop() silences it as a dead or partitioned machine would be.
 */
export class HollowKubelet {
  private statusTimer?: TimerHandle;
  private leaseTimer?: TimerHandle;
  private lastReported = 0;
  private lastReportedStatus?: NonNullable<Node['status']>;
  /**
   * The Node as the last sync found it with nothing to post (or as it posted it). The API
   * server hands out one frozen object per stored version, so the same object again means
   * the same version: the status would be computed alike (heartbeat times aside) and the
   * sync has nothing to do until the report is due.
   */
  private lastSeenNode?: Node;
  /** The Lease as last written (upstream's nodelease controller latestLease, v1.17+). */
  private latestLease?: Lease;
  private running = false;
  private readonly events: EventRecorder;
  readonly pods: PodRunner;
  private nodeUID?: string;

  constructor(
    readonly config: KubeletConfig,
    private readonly client: Client,
    private readonly clock: Clock,
    /** Where its background failures go: the cluster's reporter (the process's when alone). */
    private readonly report: ErrorSink = handleError,
  ) {
    this.events = new EventRecorder(
      client,
      clock,
      { component: 'kubelet', host: config.nodeName },
      EVENT_CACHE_ENTRIES,
      report,
    );
    this.pods = new PodRunner(config, client, clock, this.events, report);
  }

  get name(): string {
    return this.config.nodeName;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts (or resumes): registers if needed, then heartbeats on its periods. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    if (this.config.registerNode) await this.register();
    // Without a Node to update (--register-node=false and nobody made one) the kubelet
    // keeps trying on its period, as upstream's does.
    await this.syncNodeStatus(true).catch((e) => {
      if (!isStatusError(e, 'NotFound')) throw e;
    });
    this.statusTimer = this.clock.setInterval(
      () => void this.syncNodeStatus(false).catch((e) => this.report('kubelet', e)),
      this.config.nodeStatusUpdateFrequency,
    );
    if (this.config.useLease) {
      await this.renewLease();
      const interval = (this.config.nodeLeaseDurationSeconds * 1000) / 4;
      this.leaseTimer = this.clock.setInterval(
        () => void this.renewLease().catch((e) => this.report('kubelet', e)),
        interval,
      );
    }
    await this.pods.start();
  }

  /** Stops heartbeats and pod handling, as a machine that died or lost the network. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    if (this.statusTimer) this.clock.clear(this.statusTimer);
    if (this.leaseTimer) this.clock.clear(this.leaseTimer);
    this.statusTimer = this.leaseTimer = undefined;
    this.pods.stop();
  }

  private addresses(): NodeAddress[] {
    const out: NodeAddress[] = [];
    if (this.config.nodeIP) out.push({ type: 'InternalIP', address: this.config.nodeIP });
    if (this.config.externalIP) out.push({ type: 'ExternalIP', address: this.config.externalIP });
    out.push({ type: 'Hostname', address: this.config.hostnameOverride ?? this.config.nodeName });
    return out;
  }

  capacity(): Record<string, string> {
    return { ...this.config.machine.capacity, ...this.config.capacity };
  }

  /** allocatable = capacity − reserved, unless given outright. */
  allocatable(): Record<string, string> {
    return { ...(this.cachedAllocatable ??= this.computeAllocatable()) };
  }

  private computeAllocatable(): Record<string, string> {
    if (this.config.allocatable) return { ...this.config.allocatable };
    const out: Record<string, string> = {};
    for (const [name, cap] of Object.entries(this.capacity())) {
      const reserved = this.config.machine.reserved[name];
      out[name] = reserved ? Quantity.parse(cap).sub(Quantity.parse(reserved)).toString() : cap;
    }
    return out;
  }

  private cachedInfo?: NodeSystemInfo;
  private cachedAllocatable?: Record<string, string>;

  private nodeInfo(): NodeSystemInfo {
    return (this.cachedInfo ??= this.machineInfo());
  }

  private machineInfo(): NodeSystemInfo {
    const id = createHash('md5').update(this.config.nodeName).digest('hex');
    const uuid =
      `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}`.toUpperCase();
    const boot = createHash('md5').update(`${this.config.nodeName}/boot`).digest('hex');
    const m = this.config.machine;
    return {
      machineID: id,
      systemUUID: uuid,
      bootID: `${boot.slice(0, 8)}-${boot.slice(8, 12)}-${boot.slice(12, 16)}-${boot.slice(16, 20)}-${boot.slice(20, 32)}`,
      kernelVersion: m.kernelVersion,
      osImage: m.osImage,
      containerRuntimeVersion: m.containerRuntimeVersion,
      kubeletVersion: m.version,
      kubeProxyVersion: m.version,
      operatingSystem: m.operatingSystem,
      architecture: m.architecture,
    };
  }

  /** The Node this kubelet registers (upstream initialNode). */
  initialNode(): Node {
    const name = this.config.nodeName;
    const now = isoTime(this.clock.now());
    const m = this.config.machine;
    const external = this.config.externalCloudProvider;
    const taints = [...(this.config.registerWithTaints ?? []), ...(external ? [UNINITIALIZED_TAINT] : [])];
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: {
          'beta.kubernetes.io/arch': m.architecture,
          'beta.kubernetes.io/os': m.operatingSystem,
          'kubernetes.io/arch': m.architecture,
          'kubernetes.io/os': m.operatingSystem,
          'kubernetes.io/hostname': this.config.hostnameOverride ?? name,
          ...this.config.labels,
        },
        annotations: {
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
          // The cloud node controller takes the node IP from the cloud's addresses only if it is among them.
          ...(external && this.config.nodeIP ? { 'alpha.kubernetes.io/provided-node-ip': this.config.nodeIP } : {}),
        },
      },
      spec: {
        ...(this.config.providerID ? { providerID: this.config.providerID } : {}),
        ...(taints.length ? { taints } : {}),
      },
      status: {
        capacity: this.capacity(),
        allocatable: this.allocatable(),
        conditions: kubeletConditions(m.conditions, undefined, now),
        addresses: this.addresses(),
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: this.nodeInfo(),
      },
    };
  }

  private async register(): Promise<void> {
    const node = this.initialNode();
    try {
      const created = await this.client.create<Node>({ resource: 'nodes' }, node);
      this.nodeUID = created.metadata.uid;
      this.events.normal(created, 'Starting', 'Starting kubelet.');
      this.events.normal(created, 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
      for (const c of this.config.machine.conditions) {
        if (HEALTHY_EVENT[c])
          this.events.normal(
            created,
            HEALTHY_EVENT[c],
            `Node ${created.metadata.name} status is now: ${HEALTHY_EVENT[c]}`,
          );
      }
    } catch (e) {
      // A Node made by hand (or by an earlier run of this kubelet) is adopted, as upstream's
      // tryRegisterWithAPIServer does; status updates then fill it in.
      if (!isStatusError(e, 'AlreadyExists')) throw e;
    }
  }

  /**
   * Computes status every node-status-update-frequency; posts it when it changed or when
   * node-status-report-frequency has passed (always, in releases before leases).
   */
  async syncNodeStatus(force: boolean): Promise<void> {
    if (!this.running) return;
    const nowMs = this.clock.now();
    const now = isoTime(nowMs);
    for (let attempt = 0; attempt < 5; attempt++) {
      // A Node deleted under a running kubelet stays deleted: upstream's kubelet registers once
      // per start (registerWithAPIServer returns at once when registrationCompleted, which
      // nothing resets; kubelet_node_status.go, v1.12 and v1.32), and its status updates then
      // fail with NotFound until it restarts. This NotFound goes to the caller as upstream's
      // "Unable to update node status" does.
      const node = await this.client.get<Node>({ resource: 'nodes' }, this.config.nodeName);
      this.nodeUID = node.metadata.uid;
      if (!force && node === this.lastSeenNode && nowMs - this.lastReported < this.config.nodeStatusReportFrequency)
        return;
      // A new status over the (frozen) node: nothing is copied unless it is posted.
      const previous = node.status?.conditions;
      const status: NonNullable<Node['status']> = {
        ...node.status,
        capacity: this.capacity(),
        allocatable: this.allocatable(),
        // With an external cloud, the addresses it set win over the kubelet's own (nodestatus.NodeAddress).
        addresses:
          this.config.externalCloudProvider && node.status?.addresses?.length
            ? node.status.addresses
            : this.addresses(),
        nodeInfo: this.nodeInfo(),
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        conditions: kubeletConditions(this.config.machine.conditions, previous, now),
      };
      const next: Node = { ...node, status };
      const changed = !this.lastReportedStatus || !sameStatusButHeartbeats(status, this.lastReportedStatus);
      if (!force && !changed && nowMs - this.lastReported < this.config.nodeStatusReportFrequency) {
        this.lastSeenNode = node;
        return;
      }
      try {
        // A strategic merge patch of the status alone, without resourceVersion, as upstream's
        // kubelet sends (nodeutil.PatchNodeStatus, preparePatchBytesforNodeStatus resets the
        // spec): the node's spec is never part of the request, so NodeRestriction — which
        // judges the object as sent, before the status strategy — cannot find "modified"
        // taints or labels when someone changed them since the kubelet's read. Addresses are
        // replaced whole when they changed (fixupPatchForNodeStatusAddresses: the list is
        // annotated merge-by-type, which would keep addresses the kubelet dropped).
        const addressesChanged = !jsonEqual(node.status?.addresses ?? [], status.addresses ?? []);
        const patch = {
          status: addressesChanged
            ? { ...status, addresses: [{ $patch: 'replace' }, ...(status.addresses ?? [])] }
            : status,
        };
        this.lastSeenNode = await this.client.patch<Node>(
          { resource: 'nodes' },
          this.config.nodeName,
          'strategic',
          patch,
          {
            subresource: 'status',
          },
        );
        this.lastReported = nowMs;
        this.lastReportedStatus = status;
        const wasReady = previous?.find((c) => c.type === 'Ready')?.status;
        if (wasReady !== undefined && wasReady !== 'True')
          this.events.normal(next, 'NodeReady', `Node ${next.metadata.name} status is now: NodeReady`);
        return;
      } catch (e) {
        if (!isStatusError(e, 'Conflict')) throw e;
      }
    }
  }

  /** Renews (or creates) kube-node-lease/<node>, owned by the Node (upstream nodelease controller). */
  async renewLease(): Promise<void> {
    if (!this.running) return;
    const ref = { resource: 'leases', namespace: NODE_LEASE_NAMESPACE };
    const renewTime = microTime(this.clock.now());
    try {
      // A renewal racing another one (the periodic one and a forced one, on a real clock)
      // conflicts: re-read and retry, as upstream's lease controller does (retryUpdateLease, 5 tries).
      // The renewal starts from the lease it wrote last, with no read, and reads only after a
      // failure (or when it has none yet), as upstream's lease controller does from v1.17 (the
      // profiles with leases, kubernetes-1.32, are all later; the seed has none).
      let lease = this.latestLease;
      for (let attempt = 1; ; attempt++) {
        lease ??= await this.client.get<Lease>(ref, this.config.nodeName);
        const next: Lease = {
          ...lease,
          spec: {
            ...lease.spec,
            holderIdentity: this.config.nodeName,
            leaseDurationSeconds: this.config.nodeLeaseDurationSeconds,
            renewTime,
          },
        };
        try {
          this.latestLease = await this.client.update<Lease>(ref, next);
          break;
        } catch (e) {
          this.latestLease = lease = undefined;
          if (!isStatusError(e, 'Conflict') || attempt >= 5) throw e;
        }
      }
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
      const lease: Lease = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name: this.config.nodeName,
          namespace: NODE_LEASE_NAMESPACE,
          ...(this.nodeUID
            ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.config.nodeName, uid: this.nodeUID }] }
            : {}),
        },
        spec: {
          holderIdentity: this.config.nodeName,
          leaseDurationSeconds: this.config.nodeLeaseDurationSeconds,
          renewTime,
        },
      };
      this.latestLease = await this.client.create(ref, lease);
    }
  }
}

const CONDITIONS = ['conditions'];
const HEARTBEAT = ['lastHeartbeatTime'];

/** Whether two node statuses serialize alike once the conditions' heartbeat times are left out. */
function sameStatusButHeartbeats(a: NonNullable<Node['status']>, b: NonNullable<Node['status']>): boolean {
  const ca = a.conditions ?? [];
  const cb = b.conditions ?? [];
  return (
    ca.length === cb.length &&
    Object.keys(a).indexOf('conditions') === Object.keys(b).indexOf('conditions') &&
    jsonEqual(a, b, CONDITIONS) &&
    ca.every((c, i) => jsonEqual(c, cb[i], HEARTBEAT))
  );
}

import { Clock, TimerHandle } from '../clock';
import { clone, jsonEqual } from '../api/meta';
import { isStatusError } from '../api/errors';
import { Endpoints } from '../api/resources/endpoints';
import { Service } from '../api/resources/service';
import { Client } from '../client/client';
import { ErrorSink, handleError } from '../client/background';

export interface KubernetesServiceOptions {
  /** The first address of --service-cluster-ip-range. */
  clusterIP: string;
  /** --advertise-address: where the API server says it can be reached. */
  advertiseAddress: string;
  /** --secure-port */
  securePort: number;
  /** How often the API server re-asserts them (upstream's 10 s endpoint interval). */
  intervalMs: number;
}

/**
 * The API server's own controller for the `kubernetes` service (pkg/controlplane/controller/
 * kubernetesservice): the Service `default/kubernetes` with the range's first address and
 * port 443 (`https`) to the secure port, no selector, and its Endpoints listing the
 * advertise address — re-asserted every interval, so a deleted or edited one comes back.
 */
export class KubernetesServiceController {
  private timer?: TimerHandle;

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
    private readonly options: KubernetesServiceOptions,
    /** Where a failed pass goes: the cluster's reporter (the process's when alone). */
    private readonly report: ErrorSink = handleError,
  ) {}

  async start(): Promise<void> {
    await this.reconcile();
    this.timer = this.clock.setInterval(
      () => void this.reconcile().catch((e) => this.report('kubernetes service', e)),
      this.options.intervalMs,
    );
  }

  stop(): void {
    if (this.timer) this.clock.clear(this.timer);
  }

  service(): Service {
    return {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'kubernetes',
        namespace: 'default',
        labels: { component: 'apiserver', provider: 'kubernetes' },
      },
      spec: {
        type: 'ClusterIP',
        clusterIP: this.options.clusterIP,
        sessionAffinity: 'None',
        ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: this.options.securePort }],
      },
    };
  }

  endpoints(): Endpoints {
    return {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: {
        name: 'kubernetes',
        namespace: 'default',
        labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' },
      },
      subsets: [
        {
          addresses: [{ ip: this.options.advertiseAddress }],
          ports: [{ name: 'https', port: this.options.securePort, protocol: 'TCP' }],
        },
      ],
    };
  }

  async reconcile(): Promise<void> {
    const ref = (resource: string) => ({ resource, namespace: 'default' });
    try {
      await this.client.get<Service>(ref('services'), 'kubernetes');
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
      await this.client.create(ref('services'), this.service());
    }
    const want = this.endpoints();
    let current: Endpoints | undefined;
    try {
      current = await this.client.get<Endpoints>(ref('endpoints'), 'kubernetes');
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
    }
    if (!current) {
      await this.client.create(ref('endpoints'), want);
    } else if (!jsonEqual(current.subsets, want.subsets)) {
      const next = clone(current);
      next.subsets = want.subsets;
      await this.client.update(ref('endpoints'), next);
    }
  }
}

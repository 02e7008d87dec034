import type { IncomingMessage } from 'node:http';
import { NonResourceRoute } from '../apiserver/http/handler';
import { writeJSON } from '../apiserver/http/respond';
import { errors } from '../api/errors';
import { Watch } from '../store/store';
import { Cluster, NoCloudProviderError } from './cluster';

/**
 * What the reference driver reads in process, served over HTTP so a driver reaching
 * `kubespec serve` judges the same scenarios: in the API's own terms where upstream has one
 * (authentication.k8s.io/v1 TokenReview), under /kubespec/v1/… where it has none (the
 * scheduler's reasons, the simulated cloud, a node's kube-proxy, the API audit, compaction,
 * and the cluster time each revision was written at).
 */

const query = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://localhost').searchParams;

/**
 * POST /kubespec/v1/settle → {now}: returns once every component has reacted to what came
 * before (no request, queue or delivery in flight), on either clock; on the real clock it is
 * how a client waits for the cluster instead of polling.
 */
export function settleRoute(cluster: Cluster): NonResourceRoute {
  return {
    prefix: '/kubespec/v1/settle',
    untracked: true,
    async handle(req, res, p) {
      if (p !== '/kubespec/v1/settle' || req.method !== 'POST') throw errors.notFound({ kind: 'kubespec', name: p });
      await cluster.settle();
      writeJSON(res, 200, { now: new Date(cluster.clock.now()).toISOString() });
    },
  };
}

/** GET /kubespec/v1/scheduler/decisions?pod=NAMESPACE/NAME → {items}: the scheduler's decisions for the pod, oldest first. */
export function schedulerRoute(cluster: Cluster): NonResourceRoute {
  return {
    prefix: '/kubespec/v1/scheduler',
    untracked: true,
    async handle(req, res, p) {
      if (p !== '/kubespec/v1/scheduler/decisions') throw errors.notFound({ kind: 'kubespec', name: p });
      if (req.method !== 'GET') throw errors.methodNotSupported({ kind: 'decisions' }, req.method ?? '');
      const pod = query(req).get('pod');
      if (!pod || !/^[^/]+\/[^/]+$/.test(pod)) throw errors.badRequest('pod must be NAMESPACE/NAME');
      writeJSON(res, 200, { items: await cluster.schedulerDecisions(pod) });
    },
  };
}

/**
 * The simulated cloud: GET /kubespec/v1/cloud → {provider, machines}; DELETE
 * /kubespec/v1/cloud/machines/{name} → the machine goes (an operator deleting a VM) and its
 * kubelet stops with it; GET /kubespec/v1/cloud/loadbalancers → {items}.
 */
export function cloudRoute(cluster: Cluster): NonResourceRoute {
  return {
    prefix: '/kubespec/v1/cloud',
    untracked: true,
    async handle(req, res, p) {
      const machines = cluster.cloudMachines();
      if (p === '/kubespec/v1/cloud' && req.method === 'GET') {
        return writeJSON(res, 200, { provider: machines ? 'simulated' : null, machines: machines ?? [] });
      }
      if (p === '/kubespec/v1/cloud/loadbalancers' && req.method === 'GET') {
        return writeJSON(res, 200, { items: await cluster.loadBalancers() });
      }
      const m = /^\/kubespec\/v1\/cloud\/machines\/([^/]+)$/.exec(p);
      if (m && req.method === 'DELETE') {
        const name = decodeURIComponent(m[1]);
        if (!machines) throw errors.conflict({ kind: 'cloud', name: 'none' }, new NoCloudProviderError().message);
        if (!(await cluster.deleteMachine(name))) throw errors.notFound({ kind: 'machines', name });
        return writeJSON(res, 200, { name, deleted: true });
      }
      throw errors.notFound({ kind: 'kubespec', name: p });
    },
  };
}

/** GET /kubespec/v1/proxies/{node}/route?ip=&port=[&protocol=] → {backend}: one connection through that node's kube-proxy (null: refused). */
export function proxyRoute(cluster: Cluster): NonResourceRoute {
  return {
    prefix: '/kubespec/v1/proxies',
    untracked: true,
    async handle(req, res, p) {
      const m = /^\/kubespec\/v1\/proxies\/([^/]+)\/route$/.exec(p);
      if (!m || req.method !== 'GET') throw errors.notFound({ kind: 'kubespec', name: p });
      const node = decodeURIComponent(m[1]);
      const proxy = cluster.proxies.get(node);
      if (!proxy) throw errors.notFound({ kind: 'proxies', name: node });
      const q = query(req);
      const ip = q.get('ip');
      const port = Number(q.get('port'));
      if (!ip || !Number.isInteger(port) || port < 1 || port > 65535)
        throw errors.badRequest('ip and port (1-65535) are required');
      await cluster.settle();
      writeJSON(res, 200, { backend: proxy.route(ip, port, q.get('protocol') ?? 'TCP') ?? null });
    },
  };
}

/**
 * GET /kubespec/v1/audit → who wrote through the API server and whether storage moved only
 * by the API server's writes; POST /kubespec/v1/storage/compact → compacts up to now.
 */
export function auditRoutes(cluster: Cluster): NonResourceRoute[] {
  return [
    {
      prefix: '/kubespec/v1/audit',
      untracked: true,
      async handle(req, res, p) {
        if (p !== '/kubespec/v1/audit' || req.method !== 'GET') throw errors.notFound({ kind: 'kubespec', name: p });
        writeJSON(res, 200, await cluster.apiAudit());
      },
    },
    {
      prefix: '/kubespec/v1/storage',
      untracked: true,
      async handle(req, res, p) {
        if (p !== '/kubespec/v1/storage/compact' || req.method !== 'POST')
          throw errors.notFound({ kind: 'kubespec', name: p });
        writeJSON(res, 200, { revision: await cluster.compactStorage() });
      },
    },
  ];
}

/** Most revisions remembered; older ones answer with what is left (a client asks often). */
const MAX_REVISION_TIMES = 500_000;

/**
 * The cluster time each storage revision was written at. Over HTTP a watch delivers changes
 * only after the virtual clock's advance returns; with this log a client places each change
 * at the instant it happened: GET /kubespec/v1/revisions?after=N → {revision, items:
 * [[revision, ms since the epoch, key]…]} for the revisions after N, in order.
 */
export class RevisionTimes {
  private readonly log: [number, number, string][] = [];
  private watch?: Watch;

  constructor(private readonly cluster: Cluster) {}

  async start(): Promise<void> {
    this.watch = await this.cluster.store.watch('/registry/', {}, (events) => {
      const at = this.cluster.clock.now();
      for (const e of events) this.log.push([e.kv.modRevision, at, e.kv.key]);
      if (this.log.length > MAX_REVISION_TIMES) this.log.splice(0, this.log.length - MAX_REVISION_TIMES);
    });
  }

  stop(): void {
    this.watch?.stop();
  }

  route(): NonResourceRoute {
    return {
      prefix: '/kubespec/v1/revisions',
      untracked: true,
      handle: async (req, res, p) => {
        if (p !== '/kubespec/v1/revisions' || req.method !== 'GET')
          throw errors.notFound({ kind: 'kubespec', name: p });
        const raw = query(req).get('after') ?? '0';
        if (!/^\d{1,15}$/.test(raw)) throw errors.badRequest('after must be a revision (a non-negative integer)');
        const after = Number(raw);
        await this.cluster.settle();
        // Binary search: the log is in revision order.
        let lo = 0,
          hi = this.log.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (this.log[mid][0] <= after) lo = mid + 1;
          else hi = mid;
        }
        writeJSON(res, 200, { revision: this.cluster.store.revision(), items: this.log.slice(lo) });
      },
    };
  }
}

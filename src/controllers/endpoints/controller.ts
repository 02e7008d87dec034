import { Pod } from '../../api/core';
import { clone, jsonEqual } from '../../api/meta';
import { isNamespaceTerminating, isStatusError } from '../../api/errors';
import { Endpoints } from '../../api/resources/endpoints';
import { Service } from '../../api/resources/service';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { keyOf, splitKey } from '../ownership';
import {
  computeSubsets,
  EndpointsRules,
  endpointsLabels,
  OVER_CAPACITY_ANNOTATION,
  truncateEndpoints,
} from './subsets';
import { followServicePods, selects } from '../service-pods';
import { ControllerBase } from '../controller-base';

export interface EndpointsControllerOptions {
  /** Which release's rules (see EndpointsRules). */
  rules: EndpointsRules;
}

/** The leader election record's annotation (resourcelock.LeaderElectionRecordAnnotationKey). */
const LEADER_LOCK = 'control-plane.alpha.kubernetes.io/leader';

/**
 * The endpoints controller (pkg/controller/endpoint, syncService): keeps an Endpoints
 * object per service with a selector, named as the service, from the pods it selects;
 * re-syncs every service a pod change touches (before and after the change); deletes the
 * Endpoints with the service and re-creates them if someone deletes them. Services
 * without a selector (their Endpoints are the user's) and ExternalName services are left alone.
 */
export class EndpointsController extends ControllerBase {
  private readonly services: Informer<Service>;
  private readonly pods: Informer<Pod>;
  private readonly endpoints: Informer<Endpoints>;
  private readonly queue: WorkQueue;

  constructor(
    ctx: ControllerContext,
    private readonly options: EndpointsControllerOptions = { rules: 'v1.32' },
  ) {
    super(ctx);
    this.services = ctx.informer<Service>({ resource: 'services' });
    this.pods = ctx.informer<Pod>({ resource: 'pods' });
    this.endpoints = ctx.informer<Endpoints>({ resource: 'endpoints' });
    this.services.addIndexer('namespace', (s) => [s.metadata.namespace ?? '']);
    this.pods.addIndexer('namespace', (p) => [p.metadata.namespace ?? '']);
    this.queue = ctx.workQueue((key) => this.sync(key), { name: 'endpoint', workers: 5 });
  }

  run(): void {
    followServicePods(this.ctx, this.services, this.pods, (s) =>
      this.queue.add(keyOf(s.metadata.namespace, s.metadata.name!)),
    );
    // Upstream onEndpointsDelete and checkLeftoverEndpoints: a deleted or leftover Endpoints is re-checked.
    // A leader election lock (v1.12's Endpoints lock, with the leader annotation) is no leftover:
    // upstream skips it, or a second controller manager coming up would delete the lock its
    // leader holds and force a re-election.
    const ep = (e: Endpoints) => this.queue.add(keyOf(e.metadata.namespace, e.metadata.name!));
    for (const e of this.endpoints.list())
      if (!this.services.getByName(e.metadata.name!, e.metadata.namespace) && !e.metadata.annotations?.[LEADER_LOCK])
        ep(e);
    this.ctx.handle(this.endpoints, { onDelete: ep });
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const ref = { resource: 'endpoints', namespace };
    const svc = this.services.getByName(name, namespace);
    if (!svc) {
      // Only what this controller manages: Endpoints of a service that had a selector are gone with it.
      if (!this.endpoints.getByName(name, namespace)) return;
      try {
        await this.client.delete(ref, name);
      } catch (e) {
        if (!isStatusError(e, 'NotFound')) throw e;
      }
      return;
    }
    if (svc.spec.selector === undefined || svc.spec.type === 'ExternalName') return;
    const pods = this.pods.byIndex('namespace', namespace!).filter((p) => selects(svc, p));
    const computed = computeSubsets(svc, pods, this.options.rules, (_component, e) => this.ctx.report(e));
    // v1.32 caps an Endpoints object at 1000 addresses and says so in an annotation.
    const { subsets, truncated } =
      this.options.rules === 'v1.32' ? truncateEndpoints(computed) : { subsets: computed, truncated: false };
    const labels = endpointsLabels(svc);
    const current = this.endpoints.getByName(name, namespace);
    if (
      current &&
      jsonEqual(current.subsets ?? [], subsets) &&
      jsonEqual(current.metadata.labels ?? {}, labels) &&
      (current.metadata.annotations?.[OVER_CAPACITY_ANNOTATION] !== undefined) === truncated
    )
      return;
    const annotations = { ...current?.metadata.annotations };
    if (truncated) annotations[OVER_CAPACITY_ANNOTATION] = 'truncated';
    else delete annotations[OVER_CAPACITY_ANNOTATION];
    const hasAnnotations = Object.keys(annotations).length > 0;
    try {
      if (!current) {
        // No subsets is no field: upstream's Subsets is `json:"subsets,omitempty"`, so an empty
        // list never reaches a client (found on upstream v1.32.13).
        await this.client.create<Endpoints>(ref, {
          apiVersion: 'v1',
          kind: 'Endpoints',
          metadata: { name, namespace, labels, ...(hasAnnotations ? { annotations } : {}) },
          ...(subsets.length ? { subsets } : {}),
        });
      } else {
        const next = clone(current);
        next.metadata.labels = labels;
        if (hasAnnotations) next.metadata.annotations = annotations;
        else delete next.metadata.annotations;
        if (subsets.length) next.subsets = subsets;
        else delete next.subsets;
        await this.client.update<Endpoints>(ref, next);
      }
    } catch (e) {
      // A terminating namespace refuses new Endpoints: nothing to do (upstream drops the error).
      if (isNamespaceTerminating(e)) return;
      // A write from a stale cache (AlreadyExists, Conflict, NotFound) is retried with backoff, as
      // upstream's syncService returns the error to its queue: no event of the Endpoints would
      // sync the service again (found here: 5 pods of a new service, 1 address listed).
      throw e;
    }
  }
}

import { errors, StatusError } from '../../api/errors';
import { Pod } from '../../api/core';
import { Quantity } from '../../api/quantity';
import { ResourceQuota } from '../../api/resources/resourcequota';
import { formatResourceList } from '../../api/quantity';
import { handledNames, matchesScopes, missingConstraints, prettyPrint, Usage, usageOf } from '../../quota/usage';
import type { ApiServer } from '../apiserver';
import { AdmissionAttributes, AdmissionPlugin } from '../admission';

export interface ResourceQuotaAdmissionOptions {
  /** "must specify limits.memory" (≤ v1.1x) or "must specify limits.memory for: app" (current). */
  constraintMessages: 'legacy' | 'per-container';
}

function refuse(attrs: AdmissionAttributes, why: string): StatusError {
  return errors.forbidden(
    { kind: attrs.resource.resource, group: attrs.resource.group, name: attrs.object?.metadata.name ?? '' },
    why,
  );
}

function parseList(list: Record<string, string> | undefined): Usage {
  return new Map(Object.entries(list ?? {}).map(([k, v]) => [k, Quantity.parse(v)]));
}

/**
 * ResourceQuota admission (plugin/pkg/admission/resourcequota, quotaEvaluator.checkRequest):
 * a new object is checked against every quota of its namespace that tracks what it uses
 * and whose scopes match it; containers must state the compute a quota tracks; a quota
 * whose status is not yet known refuses; exceeding any quota refuses with upstream's
 * "exceeded quota" message; on success each quota's status.used is raised before the
 * object is stored. An update of a Service is charged what it adds (ClusterIP → LoadBalancer:
 * one more services.loadbalancers). Subresources and deletes are never checked.
 */
export function resourceQuotaAdmission(api: ApiServer, options: ResourceQuotaAdmissionOptions): AdmissionPlugin {
  return {
    name: 'ResourceQuota',
    validate(attrs) {
      const updating = attrs.operation === 'UPDATE' && chargedOnUpdate(attrs.resource) && !!attrs.oldObject;
      if (
        (attrs.operation !== 'CREATE' && !updating) ||
        attrs.subresource ||
        !attrs.object ||
        !attrs.namespace ||
        attrs.dryRun
      )
        return;
      const object = attrs.object;
      return (async () => {
        const rt = attrs.resource;
        const handled = handledNames(rt);
        const quotas = (
          await api.storage<ResourceQuota>({ resource: 'resourcequotas' }).list(attrs.namespace)
        ).items.filter(
          (q) =>
            // What the quota tracks is what the controller has put in its status (upstream
            // generic Matches: quota.ResourceNames(Status.Hard)): one not yet synced limits nothing.
            Object.keys(q.status?.hard ?? {}).some((h) => handled.includes(h)) &&
            matchesScopes(rt, attrs.object!, q.spec.scopes),
        );
        if (quotas.length === 0) return;
        const created = usageOf(rt, object, api.clock.now());
        // an update is charged what it adds (SubtractWithNonNegativeResult of the old usage)
        const usage = updating ? growth(created, usageOf(rt, attrs.oldObject!, api.clock.now())) : created;
        for (const q of quotas) {
          const hard = Object.keys(q.status?.hard ?? {});
          if (rt.resource === 'pods' && rt.group === '') {
            const missing = missingConstraints(attrs.object as Pod, hard);
            if (missing.size > 0) {
              const what =
                options.constraintMessages === 'legacy'
                  ? [...missing.keys()].join(',')
                  : [...missing].map(([r, cs]) => `${r} for: ${cs.join(',')}`).join('; ');
              throw refuse(attrs, `failed quota: ${q.metadata.name}: must specify ${what}`);
            }
          }
          const used = q.status?.used ?? {};
          if (Object.keys(q.status?.hard ?? {}).some((h) => used[h] === undefined))
            throw refuse(attrs, `status unknown for quota: ${q.metadata.name}`);
        }
        if ([...usage.values()].every((v) => v.isZero())) return;
        for (const q of quotas) await charge(api, attrs, q, usage);
      })();
    },
  };
}

/**
 * The resources whose evaluator handles UPDATE (v1.32): services (a ClusterIP service turned
 * LoadBalancer or NodePort uses one more); pods only with InPlacePodVerticalScaling (alpha in
 * v1.32, off), object counts never.
 */
function chargedOnUpdate(rt: AdmissionAttributes['resource']): boolean {
  return rt.group === '' && rt.resource === 'services';
}

function growth(now: Usage, before: Usage): Usage {
  return new Map(
    [...now].map(([k, v]) => {
      const grown = v.sub(before.get(k) ?? Quantity.zero());
      return [k, grown.cmp(Quantity.zero()) > 0 ? grown : Quantity.zero()];
    }),
  );
}

/** Re-reads the quota and raises status.used, or refuses (retried on conflicting writes). */
async function charge(api: ApiServer, attrs: AdmissionAttributes, quota: ResourceQuota, usage: Usage): Promise<void> {
  await api
    .storage<ResourceQuota>({ resource: 'resourcequotas' })
    .guaranteedUpdate(attrs.namespace, quota.metadata.name!, (q) => {
      const hard = parseList(q.status?.hard ?? q.spec.hard);
      const used = parseList(q.status?.used);
      const requested: Usage = new Map([...usage].filter(([k, v]) => hard.has(k) && !v.isZero()));
      const exceeded = [...requested.keys()].filter(
        (k) => (used.get(k) ?? Quantity.zero()).add(requested.get(k)!).cmp(hard.get(k)!) > 0,
      );
      if (exceeded.length > 0) {
        const pick = (m: Usage) => new Map(exceeded.map((k) => [k, m.get(k) ?? Quantity.zero()]));
        throw refuse(
          attrs,
          `exceeded quota: ${q.metadata.name}, requested: ${prettyPrint(pick(requested))}, used: ${prettyPrint(pick(used))}, limited: ${prettyPrint(pick(hard))}`,
        );
      }
      for (const [k, v] of requested) used.set(k, (used.get(k) ?? Quantity.zero()).add(v));
      q.status = { ...q.status, used: formatResourceList(used) };
      return q;
    });
}

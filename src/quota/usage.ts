import { Pod } from '../api/core';
import { KubeObject } from '../api/meta';
import { Quantity } from '../api/quantity';
import { ResourceType } from '../api/registry';
import { qosClass } from '../api/resources/pod';
import { QuotaScope } from '../api/resources/resourcequota';
import { Service } from '../api/resources/service';

export type Usage = Map<string, Quantity>;

const ONE = () => Quantity.fromValue(1);

/** Compute names a quota on pods may track (upstream podResources). */
const POD_COMPUTE = [
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
  'ephemeral-storage',
  'requests.ephemeral-storage',
  'limits.ephemeral-storage',
];
/** Names whose tracking obliges every container to state the value (upstream validationSet). */
const VALIDATION_SET = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];
/** Object counts with a legacy short name (upstream's evaluators for these kinds). */
const LEGACY_COUNTS: Record<string, string> = {
  pods: 'pods',
  services: 'services',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas',
  secrets: 'secrets',
  configmaps: 'configmaps',
  persistentvolumeclaims: 'persistentvolumeclaims',
};

/** `count/<resource>[.<group>]`, upstream's generic object count name. */
export function countName(rt: Pick<ResourceType, 'resource' | 'group'>): string {
  return rt.group ? `count/${rt.resource}.${rt.group}` : `count/${rt.resource}`;
}

/** Upstream podComputeUsageHelper over requests and limits. */
function computeUsage(requests: Usage, limits: Usage): Usage {
  const out: Usage = new Map();
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  return out;
}

function parse(list: Record<string, string> | undefined): Usage {
  const out: Usage = new Map();
  for (const [k, v] of Object.entries(list ?? {})) out.set(k, Quantity.parse(v));
  return out;
}

function addInto(sum: Usage, more: Usage): void {
  for (const [k, q] of more) sum.set(k, sum.get(k)?.add(q) ?? q);
}

function maxInto(acc: Usage, other: Usage): void {
  for (const [k, q] of other) {
    const cur = acc.get(k);
    if (!cur || q.cmp(cur) > 0) acc.set(k, q);
  }
}

/** A pod's requests and limits: sum over containers, then the max with each init container (upstream PodRequests). */
export function podRequestsAndLimits(pod: Pod): { requests: Usage; limits: Usage } {
  const requests: Usage = new Map();
  const limits: Usage = new Map();
  for (const c of pod.spec.containers ?? []) {
    addInto(requests, parse(c.resources?.requests));
    addInto(limits, parse(c.resources?.limits));
  }
  for (const c of pod.spec.initContainers ?? []) {
    maxInto(requests, parse(c.resources?.requests));
    maxInto(limits, parse(c.resources?.limits));
  }
  return { requests, limits };
}

/** Upstream QuotaV1Pod: terminal pods (and those deleted past their grace) no longer use compute. */
export function podCountsForCompute(pod: Pod, now: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const due = pod.metadata.deletionTimestamp ? Date.parse(pod.metadata.deletionTimestamp) : undefined;
  return !(due !== undefined && now > due);
}

/**
 * What one object uses of a namespace's quota (upstream evaluators: PodUsageFunc, the
 * service evaluator, object-count evaluators): always its `count/<resource>`; the legacy
 * count name for the core kinds; for pods that still run, `pods` and compute; for
 * services, node ports and load balancers.
 */
export function usageOf(rt: Pick<ResourceType, 'resource' | 'group'>, obj: KubeObject, now: number): Usage {
  const out: Usage = new Map([[countName(rt), ONE()]]);
  const legacy = rt.group === '' ? LEGACY_COUNTS[rt.resource] : undefined;
  if (rt.resource === 'pods' && rt.group === '') {
    const pod = obj as Pod;
    if (!podCountsForCompute(pod, now)) return out;
    out.set('pods', ONE());
    const { requests, limits } = podRequestsAndLimits(pod);
    for (const [k, q] of computeUsage(requests, limits)) out.set(k, q);
    return out;
  }
  if (legacy) out.set(legacy, ONE());
  if (rt.resource === 'services' && rt.group === '') {
    const svc = obj as Service;
    const nodePorts =
      svc.spec.type === 'NodePort' || svc.spec.type === 'LoadBalancer' ? (svc.spec.ports ?? []).length : 0;
    out.set('services.nodeports', Quantity.fromValue(nodePorts));
    out.set('services.loadbalancers', Quantity.fromValue(svc.spec.type === 'LoadBalancer' ? 1 : 0));
  }
  return out;
}

/** The names an evaluator for this resource can count, so a quota tracking none of them is not consulted. */
export function handledNames(rt: Pick<ResourceType, 'resource' | 'group'>): string[] {
  const names = [countName(rt)];
  if (rt.group === '' && LEGACY_COUNTS[rt.resource]) names.push(LEGACY_COUNTS[rt.resource]);
  if (rt.group === '' && rt.resource === 'pods') names.push(...POD_COMPUTE);
  if (rt.group === '' && rt.resource === 'services') names.push('services.nodeports', 'services.loadbalancers');
  return names;
}

/** Upstream podMatchesScopeFunc. Scopes apply to pods only; other objects match no scoped quota. */
export function matchesScopes(
  rt: Pick<ResourceType, 'resource' | 'group'>,
  obj: KubeObject,
  scopes: readonly QuotaScope[] | undefined,
): boolean {
  if (!scopes || scopes.length === 0) return true;
  if (rt.resource !== 'pods' || rt.group !== '') return false;
  const pod = obj as Pod;
  return scopes.every((s) => {
    switch (s) {
      case 'Terminating':
        return pod.spec.activeDeadlineSeconds !== undefined && pod.spec.activeDeadlineSeconds >= 0;
      case 'NotTerminating':
        return pod.spec.activeDeadlineSeconds === undefined;
      case 'BestEffort':
        return qosClass(pod.spec) === 'BestEffort';
      case 'NotBestEffort':
        return qosClass(pod.spec) !== 'BestEffort';
      default:
        return false;
    }
  });
}

/**
 * Upstream podEvaluator.Constraints: when a quota tracks cpu or memory (requests or
 * limits), every container and init container must state them. Returns, per missing
 * name, the containers that lack it (sorted).
 */
export function missingConstraints(pod: Pod, hard: readonly string[]): Map<string, string[]> {
  const required = hard.filter((h) => VALIDATION_SET.includes(h));
  const missing = new Map<string, string[]>();
  if (required.length === 0) return missing;
  for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) {
    const have = computeUsage(parse(c.resources?.requests), parse(c.resources?.limits));
    for (const r of required) if (!have.has(r)) missing.set(r, [...(missing.get(r) ?? []), c.name].sort());
  }
  return new Map([...missing].sort(([a], [b]) => a.localeCompare(b)));
}

/** Total usage of objects, masked to the quota's hard names (upstream CalculateUsage + Mask). */
export function totalUsage(
  items: { rt: Pick<ResourceType, 'resource' | 'group'>; obj: KubeObject }[],
  hard: readonly string[],
  scopes: readonly QuotaScope[] | undefined,
  now: number,
): Usage {
  const out: Usage = new Map(hard.map((h) => [h, Quantity.zero()]));
  for (const { rt, obj } of items) {
    if (!matchesScopes(rt, obj, scopes)) continue;
    for (const [k, q] of usageOf(rt, obj, now)) if (out.has(k)) out.set(k, out.get(k)!.add(q));
  }
  return out;
}

/** name=quantity pairs sorted by name, joined by "," (upstream prettyPrint). */
export function prettyPrint(usage: Usage): string {
  return [...usage]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, q]) => `${k}=${q.toString()}`)
    .join(',');
}

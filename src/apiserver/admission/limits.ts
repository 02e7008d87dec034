import { Container, Pod } from '../../api/core';
import { Quantity } from '../../api/quantity';
import { LimitRangeItem } from '../../api/resources/limitrange';
import { podRequestsAndLimits } from '../../quota/usage';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

type List = Record<string, string>;

/**
 * Upstream defaultContainerResourceRequirements + mergeContainerResources: fills each
 * container's missing requests from defaultRequest and missing limits from default, key
 * by key, and returns the annotation text naming what was set (empty when nothing was).
 */
export function applyDefaults(pod: Pod, items: readonly LimitRangeItem[]): string {
  const defaults: { requests: List; limits: List } = { requests: {}, limits: {} };
  for (const item of items) {
    if (item.type !== 'Container') continue;
    Object.assign(defaults.requests, item.defaultRequest);
    Object.assign(defaults.limits, item.default);
  }
  const notes: string[] = [];
  const merge = (c: Container, label: string) => {
    const setReq: string[] = [];
    const setLim: string[] = [];
    const res = (c.resources ??= {});
    for (const [k, v] of Object.entries(defaults.limits))
      if (res.limits?.[k] === undefined) {
        res.limits = { ...res.limits, [k]: v };
        setLim.push(k);
      }
    for (const [k, v] of Object.entries(defaults.requests)) {
      if (res.requests?.[k] !== undefined) continue;
      // A container with only a limit gets the limit as its request (API defaulting ran before admission upstream too).
      res.requests = { ...res.requests, [k]: v };
      setReq.push(k);
    }
    if (setReq.length) notes.push(`${setReq.sort().join(', ')} request for ${label} ${c.name}`);
    if (setLim.length) notes.push(`${setLim.sort().join(', ')} limit for ${label} ${c.name}`);
  };
  for (const c of pod.spec.containers ?? []) merge(c, 'container');
  for (const c of pod.spec.initContainers ?? []) merge(c, 'init container');
  return notes.length ? `LimitRanger plugin set: ${notes.join('; ')}` : '';
}

function q(s: string): Quantity {
  return Quantity.parse(s);
}

/** Upstream minConstraint / maxConstraint / limitRequestRatioConstraint for one resource. */
function checkResource(
  type: string,
  res: string,
  item: LimitRangeItem,
  request: Quantity | undefined,
  limit: Quantity | undefined,
): string[] {
  const errs: string[] = [];
  const min = item.min?.[res];
  if (min !== undefined) {
    if (!request) errs.push(`minimum ${res} usage per ${type} is ${min}.  No request is specified`);
    else if (request.cmp(q(min)) < 0)
      errs.push(`minimum ${res} usage per ${type} is ${min}, but request is ${request.toString()}`);
    if (limit && limit.cmp(q(min)) < 0)
      errs.push(`minimum ${res} usage per ${type} is ${min}, but limit is ${limit.toString()}`);
  }
  const max = item.max?.[res];
  if (max !== undefined) {
    if (!limit) errs.push(`maximum ${res} usage per ${type} is ${max}.  No limit is specified`);
    else if (limit.cmp(q(max)) > 0)
      errs.push(`maximum ${res} usage per ${type} is ${max}, but limit is ${limit.toString()}`);
    if (request && request.cmp(q(max)) > 0)
      errs.push(`maximum ${res} usage per ${type} is ${max}, but request is ${request.toString()}`);
  }
  const ratio = item.maxLimitRequestRatio?.[res];
  if (ratio !== undefined) {
    if (!request || request.isZero())
      errs.push(
        `${res} max limit to request ratio per ${type} is ${ratio}, but no request is specified or request is 0`,
      );
    else if (!limit || limit.isZero())
      errs.push(`${res} max limit to request ratio per ${type} is ${ratio}, but no limit is specified or limit is 0`);
    else {
      const observed = limit.milliValue() / request.milliValue();
      if (observed > q(ratio).milliValue() / 1000)
        errs.push(
          `${res} max limit to request ratio per ${type} is ${ratio}, but provided ratio is ${observed.toFixed(6)}`,
        );
    }
  }
  return errs;
}

function keysOf(item: LimitRangeItem): string[] {
  return [
    ...new Set([
      ...Object.keys(item.min ?? {}),
      ...Object.keys(item.max ?? {}),
      ...Object.keys(item.maxLimitRequestRatio ?? {}),
    ]),
  ];
}

/**
 * Upstream PodValidateLimitFunc: Container items bound every container (and init
 * container); Pod items bound the pod's totals (sum of containers, or an init container
 * if larger). Returns every violation, in item order.
 */
export function validateLimits(pod: Pod, items: readonly LimitRangeItem[]): string[] {
  const errs: string[] = [];
  for (const item of items) {
    if (item.type === 'Container') {
      for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) {
        for (const res of keysOf(item)) {
          const r = c.resources?.requests?.[res];
          const l = c.resources?.limits?.[res];
          errs.push(
            ...checkResource(
              'Container',
              res,
              item,
              r !== undefined ? q(r) : undefined,
              l !== undefined ? q(l) : undefined,
            ),
          );
        }
      }
    } else if (item.type === 'Pod') {
      const { requests, limits } = podRequestsAndLimits(pod);
      for (const res of keysOf(item)) errs.push(...checkResource('Pod', res, item, requests.get(res), limits.get(res)));
    }
  }
  return errs;
}

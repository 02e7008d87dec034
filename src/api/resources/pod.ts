import { Container, Pod } from '../core';
import { defineResource } from '../registry';
import { jsonEqual } from '../meta';
import { fieldError, FieldErrors } from '../validation/field';
import { dns1123LabelErrors, qualifiedNameErrors } from '../validation/names';
import { validateResourceList } from './node';
import { ResourceType } from '../registry';

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];

function defaultContainer(c: Container): void {
  if (!c.imagePullPolicy && c.image) {
    const tag = c.image.includes('@') ? 'digest' : c.image.split('/').pop()!.split(':')[1];
    c.imagePullPolicy = tag === undefined || tag === 'latest' ? 'Always' : 'IfNotPresent';
  }
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  for (const p of c.ports ?? []) p.protocol ??= 'TCP';
  // JSON numbers are quantities too (upstream Quantity.UnmarshalJSON); store them as strings.
  for (const list of [c.resources?.requests, c.resources?.limits]) {
    for (const [k, v] of Object.entries(list ?? {})) if (typeof v === 'number') list![k] = String(v);
  }
  // Upstream defaults requests to limits when only limits are given.
  if (c.resources?.limits) {
    c.resources.requests ??= {};
    for (const [k, v] of Object.entries(c.resources.limits)) c.resources.requests[k] ??= v;
  }
}

export function defaultPodSpec(spec: Pod['spec']): void {
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.securityContext ??= {};
  spec.enableServiceLinks ??= true;
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
  spec.priority ??= 0;
  for (const c of spec.containers ?? []) defaultContainer(c);
  for (const c of spec.initContainers ?? []) defaultContainer(c);
}

function validateContainers(
  field: string,
  containers: Container[] | undefined,
  required: boolean,
  names: Set<string>,
): FieldErrors {
  const errs: FieldErrors = [];
  if (!containers || containers.length === 0) {
    if (required) errs.push(fieldError.required(field));
    return errs;
  }
  containers.forEach((c, i) => {
    const f = `${field}[${i}]`;
    if (!c.name) errs.push(fieldError.required(`${f}.name`));
    else {
      for (const e of dns1123LabelErrors(c.name)) errs.push(fieldError.invalid(`${f}.name`, c.name, e));
      if (names.has(c.name)) errs.push(fieldError.duplicate(`${f}.name`, c.name));
      names.add(c.name);
    }
    if (!c.image) errs.push(fieldError.required(`${f}.image`));
    (c.ports ?? []).forEach((p, j) => {
      const pf = `${f}.ports[${j}]`;
      if (!(Number.isInteger(p.containerPort) && p.containerPort >= 1 && p.containerPort <= 65535)) {
        errs.push(fieldError.invalid(`${pf}.containerPort`, p.containerPort, 'must be between 1 and 65535, inclusive'));
      }
      if (p.hostPort !== undefined && !(Number.isInteger(p.hostPort) && p.hostPort >= 0 && p.hostPort <= 65535)) {
        errs.push(fieldError.invalid(`${pf}.hostPort`, p.hostPort, 'must be between 1 and 65535, inclusive'));
      }
      if (p.protocol && !PROTOCOLS.includes(p.protocol))
        errs.push(fieldError.notSupported(`${pf}.protocol`, p.protocol, PROTOCOLS));
    });
    errs.push(...validateResourceList(`${f}.resources.requests`, c.resources?.requests));
    errs.push(...validateResourceList(`${f}.resources.limits`, c.resources?.limits));
  });
  return errs;
}

export function validatePodSpec(field: string, spec: Pod['spec'] | undefined): FieldErrors {
  if (!spec) return [fieldError.required(field)];
  const names = new Set<string>();
  const errs = [
    ...validateContainers(`${field}.containers`, spec.containers, true, names),
    ...validateContainers(`${field}.initContainers`, spec.initContainers, false, names),
  ];
  if (spec.restartPolicy && !RESTART_POLICIES.includes(spec.restartPolicy)) {
    errs.push(fieldError.notSupported(`${field}.restartPolicy`, spec.restartPolicy, RESTART_POLICIES));
  }
  // ValidatePodSpec: a deadline is at least a second and fits an int32
  const deadline = spec.activeDeadlineSeconds;
  if (deadline !== undefined && (deadline < 1 || deadline > 2 ** 31 - 1))
    errs.push(
      fieldError.invalid(`${field}.activeDeadlineSeconds`, deadline, 'must be between 1 and 2147483647, inclusive'),
    );
  const volumes = new Set<string>();
  (spec.volumes ?? []).forEach((v, i) => {
    if (!v.name) errs.push(fieldError.required(`${field}.volumes[${i}].name`));
    else if (volumes.has(v.name)) errs.push(fieldError.duplicate(`${field}.volumes[${i}].name`, v.name));
    volumes.add(v.name);
  });
  (spec.tolerations ?? []).forEach((t, i) => {
    if (t.operator === 'Exists' && t.value)
      errs.push(
        fieldError.invalid(
          `${field}.tolerations[${i}].operator`,
          t.value,
          "value must be empty when `operator` is 'Exists'",
        ),
      );
    if (t.operator && !['Exists', 'Equal'].includes(t.operator))
      errs.push(fieldError.notSupported(`${field}.tolerations[${i}].operator`, t.operator, ['Equal', 'Exists']));
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      errs.push(
        fieldError.invalid(
          `${field}.tolerations[${i}].effect`,
          t.effect,
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      );
    }
  });
  errs.push(...validateSchedulingGates(`${field}.schedulingGates`, spec.schedulingGates));
  return errs;
}

/**
 * validateSchedulingGates (v1.32 pkg/apis/core/validation, called from ValidatePodSpec):
 * each gate's name is a qualified name, and no name appears twice. A release without the
 * field drops it before validation runs (podsResource).
 */
export function validateSchedulingGates(field: string, gates: Pod['spec']['schedulingGates']): FieldErrors {
  const errs: FieldErrors = [];
  const seen = new Set<string>();
  (gates ?? []).forEach((g, i) => {
    const name = g?.name ?? '';
    for (const e of qualifiedNameErrors(name)) errs.push(fieldError.invalid(`${field}[${i}]`, name, e));
    if (seen.has(name)) errs.push(fieldError.duplicate(`${field}[${i}]`, name));
    seen.add(name);
  });
  return errs;
}

/**
 * validateOnlyDeletedSchedulingGates (v1.32 ValidatePodUpdate): after creation gates may
 * only be removed; every gate the old pod lacks is refused at its index. Upstream walks a
 * map (random order); the index order is kept here so the answer repeats.
 */
export function validateOnlyDeletedSchedulingGates(
  field: string,
  gates: Pod['spec']['schedulingGates'],
  old: Pod['spec']['schedulingGates'],
): FieldErrors {
  const before = new Set((old ?? []).map((g) => g.name));
  const errs: FieldErrors = [];
  (gates ?? []).forEach((g, i) => {
    if (!before.has(g.name))
      errs.push(
        fieldError.forbidden(
          `${field}[${i}].name`,
          `only deletion is allowed, but found new scheduling gate '${g.name}'`,
        ),
      );
  });
  return errs;
}

/** Upstream GetPodQOS, simplified to cpu and memory of app and init containers. */
export function qosClass(spec: Pod['spec'] | undefined): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers = [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    for (const r of ['cpu', 'memory']) {
      if (req[r] !== undefined || lim[r] !== undefined) any = true;
      if (lim[r] === undefined || (req[r] !== undefined && req[r] !== lim[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/**
 * Pods. With `schedulingGates` (v1.26+, GA v1.30) the API server keeps spec.schedulingGates,
 * validates it (validateSchedulingGates; nodeName must wait until every gate is cleared,
 * ValidatePodCreate; gates may only be removed, validateOnlyDeletedSchedulingGates) and a
 * new gated pod gets PodScheduled=False reason SchedulingGated (applySchedulingGatedCondition
 * in the pod strategy's PrepareForCreate). Without it (v1.12) the field is unknown to the
 * Go types and dropped on decode, as Go's JSON decoder drops every unknown field.
 */
export function podsResource(options: { schedulingGates: boolean }): ResourceType<Pod> {
  return defineResource<Pod>({
    group: '',
    version: 'v1',
    resource: 'pods',
    kind: 'Pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status', 'binding', 'eviction', 'log', 'proxy', 'exec', 'attach', 'portforward'],
    hasStatus: true,
    defaults(pod) {
      if (!pod.spec) return;
      if (!options.schedulingGates) delete pod.spec.schedulingGates;
      defaultPodSpec(pod.spec);
    },
    prepareForCreate(pod) {
      pod.status = { phase: 'Pending', qosClass: qosClass(pod.spec) };
      if (options.schedulingGates && pod.spec?.schedulingGates?.length)
        pod.status.conditions = [
          {
            type: 'PodScheduled',
            status: 'False',
            lastProbeTime: null,
            // UpdatePodCondition stamps "now": the server's clock, as creationTimestamp was just set.
            lastTransitionTime: pod.metadata.creationTimestamp,
            reason: 'SchedulingGated',
            message: 'Scheduling is blocked due to non-empty scheduling gates',
          },
        ];
    },
    validate(pod) {
      const errs = validatePodSpec('spec', pod.spec);
      if (pod.spec?.nodeName && pod.spec.schedulingGates?.length)
        errs.push(fieldError.forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
      return errs;
    },
    validateUpdate(pod, old) {
      const gates = validateOnlyDeletedSchedulingGates(
        'spec.schedulingGates',
        pod.spec.schedulingGates,
        old.spec.schedulingGates,
      );
      if (gates.length) return gates;
      // Pod spec is immutable apart from a few fields (upstream ValidatePodUpdate).
      const mutable = (s: Pod['spec']) => ({
        ...s,
        containers: s.containers.map((c) => ({ ...c, image: undefined })),
        initContainers: s.initContainers?.map((c) => ({ ...c, image: undefined })),
        activeDeadlineSeconds: undefined,
        tolerations: undefined,
        terminationGracePeriodSeconds: undefined,
        schedulingGates: undefined,
      });
      // jsonEqual: the same answer as comparing the two JSON texts, without making them.
      if (!jsonEqual(mutable(pod.spec), mutable(old.spec))) {
        return [
          fieldError.forbidden(
            'spec',
            'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
          ),
        ];
      }
      return [];
    },
    fields(pod) {
      return {
        'spec.nodeName': pod.spec.nodeName ?? '',
        'spec.restartPolicy': pod.spec.restartPolicy ?? '',
        'spec.schedulerName': pod.spec.schedulerName ?? '',
        'spec.serviceAccountName': pod.spec.serviceAccountName ?? '',
        'spec.hostNetwork': String(pod.spec.hostNetwork ?? false),
        'status.phase': pod.status?.phase ?? '',
        'status.podIP': pod.status?.podIP ?? '',
        'status.nominatedNodeName': pod.status?.nominatedNodeName ?? '',
      };
    },
    gracePeriod(pod, requested) {
      // Upstream CheckGracefulDelete: unscheduled or finished pods go at once.
      if (!pod.spec.nodeName) return 0;
      if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return 0;
      return requested ?? pod.spec.terminationGracePeriodSeconds ?? 30;
    },
  });
}

/** The pods resource of a release with scheduling gates (v1.32). */
export const pods = podsResource({ schedulingGates: true });

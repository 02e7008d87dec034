import { errors } from '../errors';
import { Quantity, QuantityParseError } from '../quantity';

/**
 * The Go types of the built-in kinds, as far as decoding needs them: upstream decodes a
 * body into typed structs, so `spec.containers: "x"` is a 400 naming the field
 * ("json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type
 * []v1.Container") before any defaulting or validation runs. Fields not listed here are
 * kept as sent (and left to each resource's validation); null is Go's zero value (unset).
 * Upstream: k8s.io/api/*\/v1/types.go, encoding/json's UnmarshalTypeError.
 */
export type Type =
  | 'string'
  | 'int'
  | 'int32'
  | 'bool'
  | 'quantity'
  | 'intOrString'
  | 'object'
  | 'any'
  | { list: Type; go: string }
  | { map: Type; go: string }
  | { struct: string; fields: Record<string, Type> };

const S: Type = 'string';
const I: Type = 'int';
/** Go's int32 (replicas, ports, counts): a number past ±2^31 is a decoding error, "number 2147483648". */
const I32: Type = 'int32';
const B: Type = 'bool';
const Q: Type = 'quantity';
const list = (t: Type, go: string): Type => ({ list: t, go });
const map = (t: Type, go: string): Type => ({ map: t, go });
const struct = (name: string, fields: Record<string, Type>): Type => ({ struct: name, fields });
const strings = list(S, '[]string');
const labels = map(S, 'map[string]string');
const quantities = map(Q, 'v1.ResourceList');

const labelSelector = struct('LabelSelector', {
  matchLabels: labels,
  matchExpressions: list(
    struct('LabelSelectorRequirement', { key: S, operator: S, values: strings }),
    '[]v1.LabelSelectorRequirement',
  ),
});
const container = struct('Container', {
  name: S,
  image: S,
  command: strings,
  args: strings,
  workingDir: S,
  imagePullPolicy: S,
  ports: list(
    struct('ContainerPort', { name: S, hostPort: I32, containerPort: I32, protocol: S, hostIP: S }),
    '[]v1.ContainerPort',
  ),
  env: list(struct('EnvVar', { name: S, value: S, valueFrom: 'object' }), '[]v1.EnvVar'),
  resources: struct('ResourceRequirements', { limits: quantities, requests: quantities }),
  volumeMounts: list(struct('VolumeMount', { name: S, mountPath: S, readOnly: B, subPath: S }), '[]v1.VolumeMount'),
  livenessProbe: 'object',
  readinessProbe: 'object',
  startupProbe: 'object',
  lifecycle: 'object',
  securityContext: 'object',
  terminationMessagePath: S,
  terminationMessagePolicy: S,
  stdin: B,
  tty: B,
});
const toleration = struct('Toleration', { key: S, operator: S, value: S, effect: S, tolerationSeconds: I });
const podSpec = struct('PodSpec', {
  containers: list(container, '[]v1.Container'),
  initContainers: list(container, '[]v1.Container'),
  volumes: list(struct('Volume', { name: S }), '[]v1.Volume'),
  restartPolicy: S,
  terminationGracePeriodSeconds: I,
  activeDeadlineSeconds: I,
  dnsPolicy: S,
  nodeSelector: labels,
  serviceAccountName: S,
  serviceAccount: S,
  automountServiceAccountToken: B,
  nodeName: S,
  hostNetwork: B,
  hostPID: B,
  hostIPC: B,
  hostname: S,
  subdomain: S,
  schedulerName: S,
  affinity: 'object',
  tolerations: list(toleration, '[]v1.Toleration'),
  priorityClassName: S,
  priority: I32,
  securityContext: 'object',
  imagePullSecrets: list(struct('LocalObjectReference', { name: S }), '[]v1.LocalObjectReference'),
});
const podTemplate = struct('PodTemplateSpec', { metadata: 'object', spec: podSpec });
const taint = struct('Taint', { key: S, value: S, effect: S, timeAdded: S });
const policyRule = struct('PolicyRule', {
  verbs: strings,
  apiGroups: strings,
  resources: strings,
  resourceNames: strings,
  nonResourceURLs: strings,
});

/** Top-level fields of each kind (apiVersion, kind and metadata are decoded elsewhere). */
export const KIND_FIELDS: Record<string, Record<string, Type>> = {
  Pod: { spec: podSpec, status: 'object' },
  ReplicationController: {
    spec: struct('ReplicationControllerSpec', {
      replicas: I32,
      minReadySeconds: I32,
      selector: labels,
      template: podTemplate,
    }),
    status: 'object',
  },
  Job: {
    spec: struct('JobSpec', {
      parallelism: I32,
      completions: I32,
      activeDeadlineSeconds: I,
      backoffLimit: I32,
      ttlSecondsAfterFinished: I32,
      selector: labelSelector,
      manualSelector: B,
      template: podTemplate,
      completionMode: S,
      suspend: B,
    }),
    status: 'object',
  },
  Deployment: {
    spec: struct('DeploymentSpec', {
      replicas: I32,
      selector: labelSelector,
      template: podTemplate,
      strategy: 'object',
      minReadySeconds: I32,
      revisionHistoryLimit: I32,
      paused: B,
      progressDeadlineSeconds: I32,
    }),
    status: 'object',
  },
  ReplicaSet: {
    spec: struct('ReplicaSetSpec', {
      replicas: I32,
      minReadySeconds: I32,
      selector: labelSelector,
      template: podTemplate,
    }),
    status: 'object',
  },
  StatefulSet: {
    spec: struct('StatefulSetSpec', {
      replicas: I32,
      selector: labelSelector,
      template: podTemplate,
      serviceName: S,
      podManagementPolicy: S,
      updateStrategy: 'object',
      revisionHistoryLimit: I32,
      minReadySeconds: I32,
    }),
    status: 'object',
  },
  DaemonSet: {
    spec: struct('DaemonSetSpec', {
      selector: labelSelector,
      template: podTemplate,
      minReadySeconds: I32,
      revisionHistoryLimit: I32,
      updateStrategy: 'object',
    }),
    status: 'object',
  },
  Service: {
    spec: struct('ServiceSpec', {
      ports: list(
        struct('ServicePort', { name: S, protocol: S, port: I32, targetPort: 'intOrString', nodePort: I32 }),
        '[]v1.ServicePort',
      ),
      selector: labels,
      clusterIP: S,
      clusterIPs: strings,
      type: S,
      externalIPs: strings,
      sessionAffinity: S,
      loadBalancerIP: S,
      externalName: S,
      externalTrafficPolicy: S,
      publishNotReadyAddresses: B,
    }),
    status: 'object',
  },
  Node: {
    spec: struct('NodeSpec', {
      podCIDR: S,
      podCIDRs: strings,
      providerID: S,
      unschedulable: B,
      taints: list(taint, '[]v1.Taint'),
    }),
    status: 'object',
  },
  Namespace: { spec: struct('NamespaceSpec', { finalizers: strings }), status: 'object' },
  Secret: { data: labels, stringData: labels, type: S, immutable: B },
  ConfigMap: { data: labels, binaryData: labels, immutable: B },
  ServiceAccount: {
    secrets: list('object', '[]v1.ObjectReference'),
    imagePullSecrets: list('object', '[]v1.LocalObjectReference'),
    automountServiceAccountToken: B,
  },
  ResourceQuota: {
    spec: struct('ResourceQuotaSpec', { hard: quantities, scopes: strings, scopeSelector: 'object' }),
    status: 'object',
  },
  LimitRange: {
    spec: struct('LimitRangeSpec', {
      limits: list(
        struct('LimitRangeItem', {
          type: S,
          max: quantities,
          min: quantities,
          default: quantities,
          defaultRequest: quantities,
          maxLimitRequestRatio: quantities,
        }),
        '[]v1.LimitRangeItem',
      ),
    }),
  },
  Role: { rules: list(policyRule, '[]v1.PolicyRule') },
  ClusterRole: { rules: list(policyRule, '[]v1.PolicyRule'), aggregationRule: 'object' },
  RoleBinding: {
    subjects: list(struct('Subject', { kind: S, apiGroup: S, name: S, namespace: S }), '[]v1.Subject'),
    roleRef: struct('RoleRef', { apiGroup: S, kind: S, name: S }),
  },
  ClusterRoleBinding: {
    subjects: list(struct('Subject', { kind: S, apiGroup: S, name: S, namespace: S }), '[]v1.Subject'),
    roleRef: struct('RoleRef', { apiGroup: S, kind: S, name: S }),
  },
  Endpoints: { subsets: list('object', '[]v1.EndpointSubset') },
  Event: {
    involvedObject: 'object',
    reason: S,
    message: S,
    type: S,
    count: I32,
    source: 'object',
    firstTimestamp: S,
    lastTimestamp: S,
    eventTime: 'any',
    series: 'object',
    action: S,
    related: 'object',
    reportingComponent: S,
    reportingInstance: S,
  },
  Lease: {
    spec: struct('LeaseSpec', {
      holderIdentity: S,
      leaseDurationSeconds: I32,
      acquireTime: S,
      renewTime: S,
      leaseTransitions: I32,
    }),
  },
};

/** What UnmarshalTypeError names: a number that does not fit an integer field by its literal ("number 2147483648"). */
function unmarshalled(v: unknown, t: Type): string {
  return typeof v === 'number' && (t === 'int' || t === 'int32') ? `number ${v}` : jsonType(v);
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return v === null ? 'null' : typeof v === 'object' ? 'object' : typeof v === 'number' ? 'number' : typeof v;
}

function goName(t: Type): string {
  if (typeof t === 'string')
    return (
      {
        string: 'string',
        int: 'int64',
        int32: 'int32',
        bool: 'bool',
        quantity: 'resource.Quantity',
        intOrString: 'intstr.IntOrString',
        object: 'object',
        any: 'any',
      } as Record<string, string>
    )[t];
  if ('struct' in t) return `v1.${t.struct}`;
  return t.go;
}

/**
 * Checks (and normalises null to unset in) value against t; `owner` and `path` name the
 * Go struct field as encoding/json does. Returns the value to keep.
 */
type Fail = (owner: string, path: string, v: unknown, t: Type, message?: string) => never;

function check(value: unknown, t: Type, owner: string, path: string, fail: Fail): unknown {
  if (value === null || value === undefined) return undefined;
  const bad = () => fail(owner, path, value, t);
  if (typeof t === 'string') {
    switch (t) {
      case 'string':
        if (typeof value !== 'string') bad();
        break;
      case 'int':
        if (typeof value !== 'number' || !Number.isSafeInteger(value)) bad();
        break;
      case 'int32':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31) bad();
        break;
      case 'bool':
        if (typeof value !== 'boolean') bad();
        break;
      case 'quantity':
        if (typeof value !== 'string' && (typeof value !== 'number' || !Number.isFinite(value))) bad();
        // Quantity's UnmarshalJSON parses as it decodes: a bad quantity is a decoding error.
        try {
          Quantity.parse(String(value));
        } catch (e) {
          if (e instanceof QuantityParseError) fail(owner, path, value, t, e.message);
          throw e;
        }
        break;
      case 'intOrString':
        if (typeof value !== 'string' && (typeof value !== 'number' || !Number.isSafeInteger(value))) bad();
        break;
      case 'object':
        if (jsonType(value) !== 'object') bad();
        break;
      case 'any':
        break;
    }
    return value;
  }
  if ('list' in t) {
    if (!Array.isArray(value)) bad();
    const arr = value as unknown[];
    for (let i = 0; i < arr.length; i++) {
      const v = check(arr[i], t.list, owner, path, fail);
      arr[i] =
        v === undefined ? (typeof t.list === 'object' && 'struct' in t.list ? {} : t.list === 'string' ? '' : v) : v;
    }
    return arr;
  }
  if ('map' in t) {
    if (jsonType(value) !== 'object') bad();
    const m = value as Record<string, unknown>;
    for (const k of Object.keys(m)) {
      const v = check(m[k], t.map, owner, path, fail);
      if (v === undefined) m[k] = t.map === 'string' ? '' : undefined;
      if (m[k] === undefined) delete m[k];
    }
    return m;
  }
  if (jsonType(value) !== 'object') bad();
  const o = value as Record<string, unknown>;
  for (const [k, ft] of Object.entries(t.fields)) {
    if (!(k in o)) continue;
    const v = check(o[k], ft, t.struct, `${path}.${k}`, fail);
    if (v === undefined) delete o[k];
  }
  return o;
}

/** Decodes obj's typed fields in place: 400 BadRequest naming the first field of a wrong type. */
export function decodeTyped(obj: Record<string, unknown>, kind: string, version: string): void {
  const fields = KIND_FIELDS[kind];
  if (!fields) return;
  const fail: Fail = (owner, path, v, t, message) => {
    if (message) throw errors.badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${message}`);
    throw errors.badRequest(
      `${kind} in version "${version}" cannot be handled as a ${kind}: json: cannot unmarshal ${unmarshalled(v, t)} into Go struct field ${owner}.${path.replace(/^\./, '')} of type ${goName(t)}`,
    );
  };
  for (const [k, t] of Object.entries(fields)) {
    if (!(k in obj) || t === 'any') continue;
    const v = check(obj[k], t, kind, k, fail);
    if (v === undefined) delete obj[k];
  }
}

const OBJECT_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);
const META_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

/**
 * Fields of a body its kind does not have, at the object's top level and in metadata (the
 * levels whose fields are known completely here): what ?fieldValidation reports or refuses.
 */
export function unknownFields(kind: string, obj: unknown): string[] {
  const fields = KIND_FIELDS[kind];
  if (!fields || obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [];
  const out = Object.keys(obj).filter((k) => !OBJECT_FIELDS.has(k) && !(k in fields));
  const meta = (obj as { metadata?: unknown }).metadata;
  if (meta && typeof meta === 'object' && !Array.isArray(meta))
    out.push(
      ...Object.keys(meta)
        .filter((k) => !META_FIELDS.has(k))
        .map((k) => `metadata.${k}`),
    );
  return out;
}

/** Drops the fields unknownFields reports at the top level (metadata's are dropped as it decodes). */
export function pruneUnknownFields(kind: string, obj: Record<string, unknown>): void {
  const fields = KIND_FIELDS[kind];
  if (!fields) return;
  for (const k of Object.keys(obj)) if (!OBJECT_FIELDS.has(k) && !(k in fields)) delete obj[k];
}

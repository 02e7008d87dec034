/*
 * Strategic merge patch metadata: per field, its patchStrategy and patchMergeKey, as the Go
 * struct tags of k8s.io/api (core/v1, apps/v1, batch/v1) and metav1.ObjectMeta give them
 * (the same facts upstream's OpenAPI carries as x-kubernetes-patch-strategy and
 * x-kubernetes-patch-merge-key).
 */

/** Patch metadata of one field, from its Go struct tags. */
export interface StrategicField {
  /** patchStrategy: "merge" merges lists (by mergeKey for lists of objects); "replace" replaces maps. */
  strategy?: 'merge' | 'replace';
  mergeKey?: string;
  /** patchStrategy "retainKeys" (only affects patch generation, kept for completeness). */
  retainKeys?: boolean;
  /** The schema of the field's object, or of the list's elements. */
  schema?: StrategicSchema;
}

/** Field name → metadata; fields not listed merge as maps and replace as lists. */
export type StrategicSchema = { readonly [field: string]: StrategicField };

// Patch metadata of the built-in kinds, from the patchStrategy/patchMergeKey
// tags of k8s.io/api (core/v1, apps/v1, batch/v1) and metav1.ObjectMeta.
// Only fields with tags are listed; the rest follow the defaults.

const mergeBy = (mergeKey: string, schema?: StrategicSchema): StrategicField => ({
  strategy: 'merge',
  mergeKey,
  schema,
});
const conditions: StrategicField = mergeBy('type');

const OBJECT_META: StrategicSchema = {
  finalizers: { strategy: 'merge' },
  ownerReferences: mergeBy('uid'),
};

const CONTAINER: StrategicSchema = {
  ports: mergeBy('containerPort'),
  env: mergeBy('name'),
  volumeMounts: mergeBy('mountPath'),
  volumeDevices: mergeBy('devicePath'),
};

const POD_SPEC: StrategicSchema = {
  volumes: { ...mergeBy('name'), retainKeys: true },
  initContainers: mergeBy('name', CONTAINER),
  containers: mergeBy('name', CONTAINER),
  ephemeralContainers: mergeBy('name', CONTAINER),
  imagePullSecrets: mergeBy('name'),
  hostAliases: mergeBy('ip'),
  topologySpreadConstraints: mergeBy('topologyKey'),
  schedulingGates: mergeBy('name'),
  resourceClaims: { ...mergeBy('name'), retainKeys: true },
};

const POD_STATUS: StrategicSchema = {
  conditions,
  podIPs: mergeBy('ip'),
  hostIPs: mergeBy('ip'),
  resourceClaimStatuses: { ...mergeBy('name'), retainKeys: true },
};

const POD_TEMPLATE_SPEC: StrategicSchema = {
  metadata: { schema: OBJECT_META },
  spec: { schema: POD_SPEC },
};

const withMeta = (fields: StrategicSchema): StrategicSchema => ({ metadata: { schema: OBJECT_META }, ...fields });
const statusConditions: StrategicField = { schema: { conditions } };
/** A workload whose spec holds a pod template and whose status has conditions. */
const workload = (spec: StrategicSchema = {}): StrategicSchema =>
  withMeta({ spec: { schema: { template: { schema: POD_TEMPLATE_SPEC }, ...spec } }, status: statusConditions });

const JOB_SPEC: StrategicSchema = { template: { schema: POD_TEMPLATE_SPEC } };

export const STRATEGIC_SCHEMAS: ReadonlyMap<string, StrategicSchema> = new Map<string, StrategicSchema>([
  ['Pod', withMeta({ spec: { schema: POD_SPEC }, status: { schema: POD_STATUS } })],
  ['PodTemplate', withMeta({ template: { schema: POD_TEMPLATE_SPEC } })],
  ['ReplicationController', workload()],
  ['ReplicaSet', workload()],
  ['Deployment', workload({ strategy: { retainKeys: true } })],
  ['StatefulSet', workload()],
  ['DaemonSet', workload()],
  ['Job', workload()],
  [
    'CronJob',
    withMeta({
      spec: { schema: { jobTemplate: { schema: { metadata: { schema: OBJECT_META }, spec: { schema: JOB_SPEC } } } } },
    }),
  ],
  [
    'Node',
    withMeta({
      spec: { schema: { podCIDRs: { strategy: 'merge' } } },
      status: { schema: { conditions, addresses: mergeBy('type') } },
    }),
  ],
  ['Service', withMeta({ spec: { schema: { ports: mergeBy('port') } }, status: statusConditions })],
  ['ServiceAccount', withMeta({ secrets: mergeBy('name') })],
  ['Namespace', withMeta({ status: statusConditions })],
  ['PersistentVolumeClaim', withMeta({ status: statusConditions })],
  ['ComponentStatus', withMeta({ conditions })],
  ['Endpoints', withMeta({})],
  ['ConfigMap', withMeta({})],
  ['Secret', withMeta({})],
  ['ConfigMap', withMeta({})],
  ['Event', withMeta({})],
  ['LimitRange', withMeta({})],
  ['ResourceQuota', withMeta({})],
  ['PersistentVolume', withMeta({})],
  ['Binding', withMeta({})],
  ['Lease', withMeta({})],
]);

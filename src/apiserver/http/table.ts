import { Event, Lease, Namespace, Node, Pod } from '../../api/core';
import { KubeObject } from '../../api/meta';
import { ReplicationController } from '../../api/resources/replicationcontroller';
import { apiVersionOf, ResourceType } from '../../api/registry';

/**
 * Server-side printing (meta.k8s.io/v1 Table) for `kubectl get`: kubectl v1.32 has no
 * client-side printers, so these columns are what users see. Columns and cell rules follow
 * upstream's pkg/printers/internalversion/printers.go (printNode, printPod, …); priority 1
 * columns appear with -o wide. Ages are HumanDuration of the server clock.
 */

export interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

interface Printer<T extends KubeObject = KubeObject> {
  columns: ColumnDefinition[];
  cells(obj: T, now: number): (string | number)[];
}

const col = (name: string, description: string, priority = 0, type = 'string', format = ''): ColumnDefinition => ({
  name,
  type,
  format,
  description,
  priority,
});
const NAME = col('Name', 'Name must be unique within a namespace.', 0, 'string', 'name');
const AGE = col('Age', 'CreationTimestamp is a timestamp representing the server time when this object was created.');

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8)
    return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 365 * 8)
    return days % 365 === 0 ? `${Math.floor(days / 365)}y` : `${Math.floor(days / 365)}y${days % 365}d`;
  return `${Math.floor(days / 365)}y`;
}

/** translateTimestampSince: "<unknown>" without a timestamp. */
export function age(timestamp: string | undefined | null, now: number): string {
  if (!timestamp) return '<unknown>';
  return humanDuration(now - Date.parse(timestamp));
}

const nodePrinter: Printer<Node> = {
  columns: [
    NAME,
    col('Status', 'The status of the node'),
    col('Roles', 'The roles of the node'),
    AGE,
    col('Version', 'Kubelet Version reported by the node.'),
    col('Internal-IP', 'List of internal IPs in the cluster.', 1),
    col('External-IP', 'List of external IPs in the cluster.', 1),
    col('OS-Image', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
    col('Kernel-Version', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
    col(
      'Container-Runtime',
      'Container Runtime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
      1,
    ),
  ],
  cells(node, now) {
    const status: string[] = [];
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
    if (status.length === 0) status.push('Unknown');
    if (node.spec?.unschedulable) status.push('SchedulingDisabled');
    const info = node.status?.nodeInfo;
    const address = (type: string) => node.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
    const orUnknown = (s: string | undefined) => (s ? s : '<unknown>');
    return [
      node.metadata.name ?? '',
      status.join(','),
      nodeRoles(node).join(',') || '<none>',
      age(node.metadata.creationTimestamp, now),
      info?.kubeletVersion ?? '',
      address('InternalIP'),
      address('ExternalIP'),
      orUnknown(info?.osImage),
      orUnknown(info?.kernelVersion),
      orUnknown(info?.containerRuntimeVersion),
    ];
  },
};

/** findNodeRoles: node-role.kubernetes.io/<role> labels and the kubernetes.io/role label. */
export function nodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return [...roles].sort();
}

const podPrinter: Printer<Pod> = {
  columns: [
    NAME,
    col('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
    col('Status', 'The aggregate status of the containers in this pod.'),
    col(
      'Restarts',
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    ),
    AGE,
    col('IP', 'IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
    col('Node', 'NodeName is a request to schedule this pod onto a specific node.', 1),
    col('Nominated Node', 'nominatedNodeName is set only when this pod preempts other pods on the node.', 1),
    col('Readiness Gates', 'If specified, all readiness gates will be evaluated for pod readiness.', 1),
  ],
  cells(pod, now) {
    const statuses = pod.status?.containerStatuses ?? [];
    let reason = pod.status?.reason || pod.status?.phase || '';
    let restarts = 0;
    let ready = 0;
    for (const c of statuses) {
      restarts += c.restartCount ?? 0;
      const state = c.state as
        | { waiting?: { reason?: string }; terminated?: { reason?: string; signal?: number; exitCode?: number } }
        | undefined;
      if (state?.waiting?.reason) reason = state.waiting.reason;
      else if (state?.terminated?.reason) reason = state.terminated.reason;
      if (c.ready && (c.state as { running?: unknown } | undefined)?.running) ready++;
    }
    if (pod.metadata.deletionTimestamp) reason = pod.status?.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
    const gates = (pod.spec as { readinessGates?: unknown }).readinessGates as { conditionType: string }[] | undefined;
    const gatesCell = gates?.length
      ? `${gates.filter((g) => pod.status?.conditions?.some((c) => c.type === g.conditionType && c.status === 'True')).length}/${gates.length}`
      : '<none>';
    return [
      pod.metadata.name ?? '',
      `${ready}/${pod.spec.containers?.length ?? 0}`,
      reason,
      String(restarts),
      age(pod.metadata.creationTimestamp, now),
      pod.status?.podIP || '<none>',
      pod.spec.nodeName || '<none>',
      pod.status?.nominatedNodeName || '<none>',
      gatesCell,
    ];
  },
};

const namespacePrinter: Printer<Namespace> = {
  columns: [NAME, col('Status', 'The status of the namespace'), AGE],
  cells: (ns, now) => [ns.metadata.name ?? '', ns.status?.phase ?? '', age(ns.metadata.creationTimestamp, now)],
};

const eventPrinter: Printer<Event> = {
  columns: [
    col('Last Seen', 'Time when last event from this object was seen.'),
    col('Type', 'Type of this event (Normal, Warning), new types could be added in the future.'),
    col('Reason', 'The reason this event is generated.'),
    col('Object', 'The object that this event is about.'),
    col('Subobject', 'The subobject that this event is about.', 1),
    col('Source', 'Source of this event.', 1),
    col('Message', 'A human-readable description of the status of this operation.'),
    col('First Seen', 'Time when first event from this object was seen.', 1),
    col('Count', 'The number of times this event has occurred.', 1),
    NAME,
  ],
  cells(ev, now) {
    const o = ev.involvedObject ?? {};
    const last = ev.lastTimestamp ?? ev.eventTime ?? ev.metadata.creationTimestamp;
    const first = ev.firstTimestamp ?? ev.eventTime ?? ev.metadata.creationTimestamp;
    return [
      age(last, now),
      ev.type ?? '',
      ev.reason ?? '',
      `${(o.kind ?? '').toLowerCase()}/${o.name ?? ''}`,
      o.fieldPath ?? '',
      [ev.source?.component, ev.source?.host].filter(Boolean).join(', '),
      ev.message ?? '',
      age(first, now),
      ev.count ?? 1,
      ev.metadata.name ?? '',
    ];
  },
};

const leasePrinter: Printer<Lease> = {
  columns: [NAME, col('Holder', 'HolderIdentity of the lease'), AGE],
  cells: (l, now) => [l.metadata.name ?? '', l.spec?.holderIdentity ?? '', age(l.metadata.creationTimestamp, now)],
};

/** Upstream printReplicationController: NAME DESIRED CURRENT READY AGE (-o wide adds the template). */
const replicationControllerPrinter: Printer<ReplicationController> = {
  columns: [
    NAME,
    col('Desired', 'Number of desired pods.'),
    col('Current', 'Number of actual pods.'),
    col('Ready', 'Number of ready pods.'),
    AGE,
    col('Containers', 'Names of each container in the template.', 1),
    col('Images', 'Images referenced by each container in the template.', 1),
    col('Selector', 'Label selector for pods.', 1),
  ],
  cells: (rc, now) => {
    const containers = rc.spec?.template?.spec?.containers ?? [];
    return [
      rc.metadata.name ?? '',
      rc.spec?.replicas ?? 1,
      rc.status?.replicas ?? 0,
      rc.status?.readyReplicas ?? 0,
      age(rc.metadata.creationTimestamp, now),
      containers.map((c) => c.name).join(','),
      containers.map((c) => c.image ?? '').join(','),
      Object.entries(rc.spec?.selector ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(','),
    ];
  },
};

/** Resources without a printer of their own (upstream's default table convertor). */
const defaultPrinter: Printer = {
  columns: [
    NAME,
    col(
      'Created At',
      'CreationTimestamp is a timestamp representing the server time when this object was created.',
      0,
      'date',
    ),
  ],
  cells: (o) => [o.metadata.name ?? '', o.metadata.creationTimestamp ?? ''],
};

const PRINTERS: Record<string, Printer<never>> = {
  'nodes.': nodePrinter,
  'pods.': podPrinter,
  'namespaces.': namespacePrinter,
  'events.': eventPrinter,
  'leases.coordination.k8s.io': leasePrinter,
  'replicationcontrollers.': replicationControllerPrinter,
};

function printerFor(rt: ResourceType): Printer {
  return (PRINTERS[`${rt.resource}.${rt.group}`] as unknown as Printer) ?? defaultPrinter;
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

function rowObject(obj: KubeObject, include: IncludeObject): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  const { managedFields: _m, ...metadata } = obj.metadata;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata };
}

export function toTable(
  rt: ResourceType,
  items: readonly KubeObject[],
  now: number,
  options: { resourceVersion?: string; continue?: string; include?: IncludeObject; withColumns?: boolean } = {},
) {
  const printer = printerFor(rt);
  const include = options.include ?? 'Metadata';
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: {
      resourceVersion: options.resourceVersion ?? '',
      ...(options.continue ? { continue: options.continue } : {}),
    },
    columnDefinitions: options.withColumns === false ? null : printer.columns,
    rows: items.map((obj) => ({
      cells: printer.cells(obj as never, now),
      object: rowObject({ ...obj, apiVersion: obj.apiVersion ?? apiVersionOf(rt) }, include),
    })),
  };
}

/** Whether an Accept header asks for a meta.k8s.io Table (kubectl get). */
export function wantsTable(accept: string | undefined): boolean {
  // Every request asks: most Accept headers (application/json) have no Table in them at all.
  if (!accept?.includes('as=Table')) return false;
  return accept.split(',').some((part) => {
    const params = part.split(';').map((p) => p.trim());
    return params.includes('as=Table') && params.includes('g=meta.k8s.io');
  });
}

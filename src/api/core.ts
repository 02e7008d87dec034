/** core/v1 and coordination.k8s.io/v1 types used by the control plane. */
import { KubeObject } from './meta';
import type { LabelSelector } from './labels/selector';

export type ConditionStatus = 'True' | 'False' | 'Unknown';
export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: string;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: TaintEffect | '';
  tolerationSeconds?: number;
}

export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface NodeAddress {
  type: 'InternalIP' | 'ExternalIP' | 'Hostname' | 'InternalDNS' | 'ExternalDNS';
  address: string;
}

export interface NodeSystemInfo {
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
  osImage: string;
  containerRuntimeVersion: string;
  kubeletVersion: string;
  kubeProxyVersion: string;
  operatingSystem: string;
  architecture: string;
}

export type ResourceList = Record<string, string>;

export interface Node extends KubeObject {
  spec?: {
    podCIDR?: string;
    podCIDRs?: string[];
    providerID?: string;
    unschedulable?: boolean;
    taints?: Taint[];
  };
  status?: {
    capacity?: ResourceList;
    allocatable?: ResourceList;
    phase?: string;
    conditions?: NodeCondition[];
    addresses?: NodeAddress[];
    daemonEndpoints?: { kubeletEndpoint?: { Port: number } };
    nodeInfo?: NodeSystemInfo;
    images?: { names: string[]; sizeBytes?: number }[];
  };
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

export interface ResourceRequirements {
  requests?: ResourceList;
  limits?: ResourceList;
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  ports?: ContainerPort[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  resources?: ResourceRequirements;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  readinessProbe?: unknown;
  livenessProbe?: unknown;
  imagePullPolicy?: string;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  /** Init containers only, v1.28+: Always makes a restartable init (sidecar) container. */
  restartPolicy?: 'Always';
}

export interface Volume {
  name: string;
  [source: string]: unknown;
}

export interface PodCondition {
  type: string;
  status: ConditionStatus;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ContainerStatus {
  name: string;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
  state?: Record<string, Record<string, unknown>>;
  lastState?: Record<string, Record<string, unknown>>;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: Record<string, unknown>;
  tolerations?: Toleration[];
  schedulerName?: string;
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: string;
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  hostNetwork?: boolean;
  priority?: number;
  priorityClassName?: string;
  securityContext?: Record<string, unknown>;
  enableServiceLinks?: boolean;
  preemptionPolicy?: string;
  /** v1.26+ (GA v1.30): the pod is not scheduled while any gate remains. */
  schedulingGates?: { name: string }[] | null;
  /** v1.18+: resources the pod's sandbox uses beyond its containers' (RuntimeClass overhead). */
  overhead?: ResourceList;
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: {
    phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
    conditions?: PodCondition[];
    message?: string;
    reason?: string;
    hostIP?: string;
    hostIPs?: { ip: string }[];
    podIP?: string;
    podIPs?: { ip: string }[];
    startTime?: string;
    containerStatuses?: ContainerStatus[];
    initContainerStatuses?: ContainerStatus[];
    qosClass?: string;
    nominatedNodeName?: string;
  };
}

export interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: {
    phase?: 'Active' | 'Terminating';
    conditions?: {
      type: string;
      status: ConditionStatus;
      reason?: string;
      message?: string;
      lastTransitionTime?: string;
    }[];
  };
}

export interface Lease extends KubeObject {
  spec: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface Event extends KubeObject {
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  source?: { component?: string; host?: string };
  firstTimestamp?: string;
  lastTimestamp?: string;
  count?: number;
  type?: 'Normal' | 'Warning';
  eventTime?: string | null;
  reportingComponent?: string;
  reportingInstance?: string;
}

/** apps/v1 DaemonSet (the fields the reference's DaemonSet controller uses). */
export interface DaemonSet extends KubeObject {
  spec: {
    selector: LabelSelector;
    template: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
    updateStrategy?: {
      type?: 'RollingUpdate' | 'OnDelete';
      rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string };
    };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: {
    currentNumberScheduled: number;
    numberMisscheduled: number;
    desiredNumberScheduled: number;
    numberReady: number;
    observedGeneration?: number;
    updatedNumberScheduled?: number;
    numberAvailable?: number;
    numberUnavailable?: number;
    collisionCount?: number;
  };
}

export interface Binding extends KubeObject {
  target: ObjectReference;
}

export function nodeCondition(node: Node | undefined, type: string): NodeCondition | undefined {
  return node?.status?.conditions?.find((c) => c.type === type);
}

export function podCondition(pod: Pod | undefined, type: string): PodCondition | undefined {
  return pod?.status?.conditions?.find((c) => c.type === type);
}

export function isNodeReady(node: Node): boolean {
  return nodeCondition(node, 'Ready')?.status === 'True';
}

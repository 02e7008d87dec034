import * as fs from 'node:fs';
import { isIP } from 'node:net';
import { dns1123SubdomainErrors } from '../api/validation/names';
import { NodeLifecycleOptions } from '../controllers/nodelifecycle/options';
import { CONDITIONS_SET_UNKNOWN, LEGACY_CONDITIONS_SET_UNKNOWN } from '../controllers/nodelifecycle/health';
import { KubeletConfig } from '../kubelet/config';
import { Component, Profile } from '../profile/profile';
import { parseFlags } from '../profile/flags';
import { ClusterConfig } from '../profile/config';
import { algorithmFromPolicy, parsePolicy } from '../scheduler/policy';
import { frameworkPlugins, legacyProvider } from '../scheduler/providers';
import { SchedulerOptions } from '../scheduler/scheduler';

/*
 * Each component's options in the words of its flags: the cluster's translation from a
 * ClusterConfig (profile + flags) to what a controller, the scheduler, the API server's
 * serving or a kubelet is constructed with. The only module that reads flags: every default
 * is the profile's (profiles/*.yaml states each flag read here, test/profile-flags.test.ts
 * checks it), so a flag the profile does not state is an error, never a value made up here.
 */

function required<T>(value: T | undefined, flag: string, profile: Profile): T {
  if (value === undefined) throw new Error(`profile ${profile.name} sets no value for --${flag}`);
  return value;
}

/**
 * Flags with no default: unset means the feature is off or the file absent (as upstream's
 * empty string or zero). Everything else a translation below reads, each profile states.
 */
export const UNSET_FLAGS: Readonly<Record<Component, readonly string[]>> = {
  'kube-apiserver': [
    'token-auth-file',
    'basic-auth-file',
    'kubelet-certificate-authority',
    'kubelet-client-certificate',
    'kubelet-client-key',
    'enable-admission-plugins',
    // Unset: the API server's serving keeps its own limits (src/apiserver/http).
    'max-requests-inflight',
    'max-mutating-requests-inflight',
    'request-timeout',
  ],
  'kube-controller-manager': [
    'cluster-cidr',
    'cloud-provider',
    'controllers',
    // Off unless a scenario asks: the reference runs one controller manager (upstream's default is on).
    'leader-elect',
  ],
  // --algorithm-provider: refused by the framework releases when given; the legacy ones
  // require the profile's (schedulerOptions).
  'kube-scheduler': ['policy-config-file', 'algorithm-provider'],
  kubelet: ['cloud-provider'],
};

/**
 * Flags a later release removed. A profile that states no value for one describes a release
 * without it, whose component refuses to start when given it (pflag's "unknown flag") instead
 * of running with it ignored: --pod-eviction-timeout went with eviction by deletion in v1.27
 * (kubernetes/kubernetes#115840; v1.32.13's kube-controller-manager exits 1).
 */
export const REMOVED_FLAGS: Readonly<Record<Component, readonly string[]>> = {
  'kube-apiserver': [],
  'kube-controller-manager': ['pod-eviction-timeout'],
  'kube-scheduler': [],
  kubelet: [],
};

function refuseRemoved(c: ClusterConfig, component: Component): void {
  const set = c.flags[component] as Record<string, unknown>;
  for (const flag of REMOVED_FLAGS[component])
    if (set[flag] !== undefined && c.profile.flags[component]?.[flag] === undefined)
      throw new Error(`unknown flag: --${flag}`);
}

export function nodeLifecycleOptions(c: ClusterConfig): NodeLifecycleOptions {
  const f = c.flags['kube-controller-manager'];
  const p = c.profile;
  // Before v1.18 taint-based eviction needed the TaintBasedEvictions gate and the taint manager.
  const taintBased = p.features.taintBasedEvictions && required(f['enable-taint-manager'], 'enable-taint-manager', p);
  refuseRemoved(c, 'kube-controller-manager');
  return {
    nodeMonitorPeriod: required(f['node-monitor-period'], 'node-monitor-period', p),
    nodeMonitorGracePeriod: required(f['node-monitor-grace-period'], 'node-monitor-grace-period', p),
    nodeStartupGracePeriod: required(f['node-startup-grace-period'], 'node-startup-grace-period', p),
    // Read only for eviction by deletion: v1.27 removed the flag with that path (the
    // kubernetes-1.32 profile states none).
    ...(taintBased ? {} : { podEvictionTimeout: required(f['pod-eviction-timeout'], 'pod-eviction-timeout', p) }),
    nodeEvictionRate: required(f['node-eviction-rate'], 'node-eviction-rate', p),
    secondaryNodeEvictionRate: required(f['secondary-node-eviction-rate'], 'secondary-node-eviction-rate', p),
    largeClusterSizeThreshold: required(f['large-cluster-size-threshold'], 'large-cluster-size-threshold', p),
    unhealthyZoneThreshold: required(f['unhealthy-zone-threshold'], 'unhealthy-zone-threshold', p),
    taintBasedEvictions: taintBased,
    taintNodesByCondition: p.features.taintNodesByCondition,
    conditionTypes: p.kubelet.conditions.includes('OutOfDisk') ? LEGACY_CONDITIONS_SET_UNKNOWN : CONDITIONS_SET_UNKNOWN,
  };
}

/** The node-side controllers' settings beside the lifecycle's (src/cluster/node-controllers.ts). */
export interface NodeControllerOptions {
  /** kube-apiserver's DefaultTolerationSeconds admission plugin. */
  defaultTolerations: { notReadySeconds: number; unreachableSeconds: number };
  /** --enable-taint-manager (v1.6–v1.26; always on since). */
  taintManager: boolean;
  /** --allocate-node-cidrs with --cluster-cidr: the node IPAM controller's range. */
  ipam?: { clusterCIDR: string; nodeCIDRMaskSize: number };
  /** --cloud-provider simulated: the cloud node lifecycle controller's cloud. */
  simulatedCloud: boolean;
}

export function nodeControllerOptions(c: ClusterConfig): NodeControllerOptions {
  const api = c.flags['kube-apiserver'];
  const kcm = c.flags['kube-controller-manager'];
  const p = c.profile;
  const cloud = kcm['cloud-provider'];
  if (cloud && cloud !== 'simulated')
    throw new Error(`unknown cloud provider "${cloud}" (the reference knows: simulated)`);
  const allocate = required(kcm['allocate-node-cidrs'], 'allocate-node-cidrs', p);
  return {
    defaultTolerations: {
      notReadySeconds: required(api['default-not-ready-toleration-seconds'], 'default-not-ready-toleration-seconds', p),
      unreachableSeconds: required(
        api['default-unreachable-toleration-seconds'],
        'default-unreachable-toleration-seconds',
        p,
      ),
    },
    taintManager: required(kcm['enable-taint-manager'], 'enable-taint-manager', p),
    ...(allocate && kcm['cluster-cidr']
      ? {
          ipam: {
            clusterCIDR: kcm['cluster-cidr'],
            nodeCIDRMaskSize: required(kcm['node-cidr-mask-size'], 'node-cidr-mask-size', p),
          },
        }
      : {}),
    simulatedCloud: cloud === 'simulated',
  };
}

/** The controller manager's and the API server's settings that ControllerManager builds with. */
export interface ControllerManagerOptions {
  /** kube-apiserver --service-cluster-ip-range */
  serviceClusterIPRange: string;
  /** kube-apiserver --secure-port: the `kubernetes` service's port (0: no service). */
  securePort: number;
  /** kube-apiserver --advertise-address: the `kubernetes` service's endpoint. */
  advertiseAddress: string;
  /** --cluster-name: load balancers' names. */
  clusterName: string;
  /** --resource-quota-sync-period, ms */
  resourceQuotaSyncPeriod: number;
}

export function controllerManagerOptions(c: ClusterConfig): ControllerManagerOptions {
  const api = c.flags['kube-apiserver'];
  const kcm = c.flags['kube-controller-manager'];
  const p = c.profile;
  return {
    serviceClusterIPRange: required(api['service-cluster-ip-range'], 'service-cluster-ip-range', p),
    securePort: required(api['secure-port'], 'secure-port', p),
    advertiseAddress: required(api['advertise-address'], 'advertise-address', p),
    clusterName: required(kcm['cluster-name'], 'cluster-name', p),
    resourceQuotaSyncPeriod: required(kcm['resource-quota-sync-period'], 'resource-quota-sync-period', p),
  };
}

/** kube-apiserver's serving, authentication and authorization flags (src/cluster/serving.ts). */
export interface ServingOptions {
  authorizationMode: string;
  anonymousAuth: boolean;
  tokenAuthFile?: string;
  basicAuthFile?: string;
  bindAddress: string;
  securePort: number;
  insecurePort: number;
  insecureBindAddress: string;
  kubeletCertificateAuthority?: string;
  kubeletClientCertificate?: string;
  kubeletClientKey?: string;
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
  requestTimeout?: number;
}

export function servingOptions(c: ClusterConfig): ServingOptions {
  const f = c.flags['kube-apiserver'];
  const p = c.profile;
  // --basic-auth-file exists only in releases before v1.19: a later kube-apiserver does not
  // know the flag and refuses to start (pflag's "unknown flag").
  if (f['basic-auth-file'] && !p.features.basicAuth) throw new Error('unknown flag: --basic-auth-file');
  return {
    authorizationMode: required(f['authorization-mode'], 'authorization-mode', p),
    anonymousAuth: required(f['anonymous-auth'], 'anonymous-auth', p),
    tokenAuthFile: f['token-auth-file'],
    basicAuthFile: f['basic-auth-file'],
    bindAddress: required(f['bind-address'], 'bind-address', p),
    securePort: required(f['secure-port'], 'secure-port', p),
    insecurePort: required(f['insecure-port'], 'insecure-port', p),
    insecureBindAddress: required(f['insecure-bind-address'], 'insecure-bind-address', p),
    kubeletCertificateAuthority: f['kubelet-certificate-authority'],
    kubeletClientCertificate: f['kubelet-client-certificate'],
    kubeletClientKey: f['kubelet-client-key'],
    maxRequestsInflight: f['max-requests-inflight'],
    maxMutatingRequestsInflight: f['max-mutating-requests-inflight'],
    requestTimeout: f['request-timeout'],
  };
}

/** kube-controller-manager's leader election (--leader-elect and its timings), when on. */
export interface LeaderElectionOptions {
  lock: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

export function leaderElectionOptions(c: ClusterConfig): LeaderElectionOptions | undefined {
  return c.flags['kube-controller-manager']['leader-elect'] ? leaderElectionSettings(c) : undefined;
}

/**
 * The lock and timings the flags state, whether --leader-elect is on or not: what a target
 * that turns the election on itself (an HA pair of masters) runs its components with.
 */
export function leaderElectionSettings(c: ClusterConfig): LeaderElectionOptions {
  const kcm = c.flags['kube-controller-manager'];
  const p = c.profile;
  return {
    lock: required(kcm['leader-elect-resource-lock'], 'leader-elect-resource-lock', p),
    leaseDurationMs: required(kcm['leader-elect-lease-duration'], 'leader-elect-lease-duration', p),
    renewDeadlineMs: required(kcm['leader-elect-renew-deadline'], 'leader-elect-renew-deadline', p),
    retryPeriodMs: required(kcm['leader-elect-retry-period'], 'leader-elect-retry-period', p),
  };
}

/**
 * The scheduler's configuration from the profile and the kube-scheduler flags. The seed
 * profile (v1.12) runs the legacy predicates and priorities: --algorithm-provider
 * (DefaultProvider in the profile) or --policy-config-file. The kubernetes-1.32 profile runs
 * the framework's default plugins; those releases have neither flag (the Policy API was
 * removed in v1.23, algorithm providers in v1.22).
 */
export function schedulerOptions(c: ClusterConfig): SchedulerOptions {
  const f = c.flags['kube-scheduler'];
  const p = c.profile;
  const framework = p.features.schedulerFramework ?? false;
  const name = required(f['scheduler-name'], 'scheduler-name', p);
  if (framework) {
    if (f['policy-config-file'] || f['algorithm-provider']) {
      throw new Error(
        `kube-scheduler ${p.kubernetesVersion} has no --policy-config-file or --algorithm-provider (removed in v1.23 and v1.22)`,
      );
    }
    return {
      schedulerName: name,
      algorithm: frameworkPlugins(),
      percentageOfNodesToScore: 0,
      alwaysCheckAllPredicates: false,
      recordDecisions: true,
    };
  }
  const file = f['policy-config-file'];
  if (file) {
    const policy = parsePolicy(fs.readFileSync(file, 'utf8'));
    return {
      schedulerName: name,
      algorithm: algorithmFromPolicy(policy, p.features.taintNodesByCondition),
      percentageOfNodesToScore: 50,
      alwaysCheckAllPredicates: policy.alwaysCheckAllPredicates ?? false,
      recordDecisions: true,
    };
  }
  return {
    schedulerName: name,
    algorithm: legacyProvider(
      required(f['algorithm-provider'], 'algorithm-provider', p),
      p.features.taintNodesByCondition,
    ),
    percentageOfNodesToScore: 50,
    alwaysCheckAllPredicates: false,
    recordDecisions: true,
  };
}

/** What a hollow kubelet is asked to be, in the words of the kubelet's flags. */
export interface KubeletSpec {
  name: string;
  labels?: Record<string, string>;
  taints?: KubeletConfig['registerWithTaints'];
  capacity?: Record<string, string>;
  allocatable?: Record<string, string>;
  /** --system-reserved: subtracted from capacity for allocatable. */
  reserved?: Record<string, string>;
  nodeIP?: string;
  externalIP?: string;
  hostnameOverride?: string;
  podCIDR?: string;
  /** Per-kubelet flag overrides (node-status-update-frequency, register-node, …). */
  flags?: Record<string, string>;
}

export function kubeletConfig(c: ClusterConfig, spec: KubeletSpec): KubeletConfig {
  // What the kubelet refuses at start-up (a node name the API would refuse; --node-ip that is not an IP).
  const nameErrs = dns1123SubdomainErrors(spec.name ?? '');
  if (!spec.name || nameErrs.length)
    throw new Error(`invalid node name ${JSON.stringify(spec.name)}: ${nameErrs.join('; ') || 'required'}`);
  for (const [flag, ip] of [
    ['node-ip', spec.nodeIP],
    ['external-ip', spec.externalIP],
  ] as const) {
    if (ip !== undefined && isIP(String(ip)) === 0)
      throw new Error(`failed to parse --${flag} ${JSON.stringify(ip)}: not a valid IP address`);
  }
  const f = { ...c.flags.kubelet, ...parseFlags({ kubelet: spec.flags ?? {} }).kubelet };
  const p = c.profile;
  return {
    nodeName: spec.name,
    hostnameOverride: spec.hostnameOverride,
    nodeIP: spec.nodeIP,
    externalIP: spec.externalIP,
    labels: spec.labels,
    registerWithTaints: spec.taints,
    registerNode: required(f['register-node'], 'register-node', p),
    nodeStatusUpdateFrequency: required(f['node-status-update-frequency'], 'node-status-update-frequency', p),
    nodeStatusReportFrequency: required(f['node-status-report-frequency'], 'node-status-report-frequency', p),
    nodeLeaseDurationSeconds: required(f['node-lease-duration-seconds'], 'node-lease-duration-seconds', p),
    useLease: p.features.nodeLease,
    imagePullDurations: p.features.imagePullDurations ?? true,
    podCIDR: spec.podCIDR,
    capacity: spec.capacity,
    allocatable: spec.allocatable,
    machine: spec.reserved ? { ...p.kubelet, reserved: spec.reserved } : p.kubelet,
    anonymousAuth: required(f['anonymous-auth'], 'anonymous-auth', p),
    authenticationTokenWebhook: required(f['authentication-token-webhook'], 'authentication-token-webhook', p),
    authorizationMode: authorizationMode(required(f['authorization-mode'], 'authorization-mode', p)),
    enableDebuggingHandlers: required(f['enable-debugging-handlers'], 'enable-debugging-handlers', p),
    ...(kubeletCloudProvider(f['cloud-provider']) ? { externalCloudProvider: true } : {}),
  };
}

/** The kubelet's --cloud-provider: "" or "external" since the in-tree providers went (v1.31). */
function kubeletCloudProvider(name: string | undefined): boolean {
  if (!name) return false;
  if (name !== 'external')
    throw new Error(`unknown --cloud-provider "${name}" for the kubelet: want "external" or none`);
  return true;
}

function authorizationMode(mode: string): KubeletConfig['authorizationMode'] {
  if (mode !== 'AlwaysAllow' && mode !== 'Webhook')
    throw new Error(
      `invalid value "${mode}" for flag --authorization-mode of the kubelet: want AlwaysAllow or Webhook`,
    );
  return mode;
}

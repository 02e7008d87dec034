import { isIP } from 'node:net';
import { dns1123SubdomainErrors } from '../api/validation/names';
import { NodeLifecycleOptions } from '../controllers/nodelifecycle/options';
import { CONDITIONS_SET_UNKNOWN, LEGACY_CONDITIONS_SET_UNKNOWN } from '../controllers/nodelifecycle/health';
import { KubeletConfig } from '../kubelet/config';
import { Profile } from '../profile/profile';
import { parseFlags } from '../profile/flags';
import { ClusterConfig } from '../profile/config';

/*
 * Each component's options in the words of its flags: the cluster's translation from a
 * ClusterConfig (profile + flags) to what a controller or kubelet is constructed with.
 */

function required<T>(value: T | undefined, flag: string, profile: Profile): T {
  if (value === undefined) throw new Error(`profile ${profile.name} sets no value for --${flag}`);
  return value;
}

export function nodeLifecycleOptions(c: ClusterConfig): NodeLifecycleOptions {
  const f = c.flags['kube-controller-manager'];
  const p = c.profile;
  // Before v1.18 taint-based eviction needed the TaintBasedEvictions gate and the taint manager.
  const taintBased = p.features.taintBasedEvictions && (f['enable-taint-manager'] ?? true);
  return {
    nodeMonitorPeriod: required(f['node-monitor-period'], 'node-monitor-period', p),
    nodeMonitorGracePeriod: required(f['node-monitor-grace-period'], 'node-monitor-grace-period', p),
    nodeStartupGracePeriod: required(f['node-startup-grace-period'], 'node-startup-grace-period', p),
    podEvictionTimeout: f['pod-eviction-timeout'] ?? 5 * 60_000,
    nodeEvictionRate: required(f['node-eviction-rate'], 'node-eviction-rate', p),
    secondaryNodeEvictionRate: required(f['secondary-node-eviction-rate'], 'secondary-node-eviction-rate', p),
    largeClusterSizeThreshold: required(f['large-cluster-size-threshold'], 'large-cluster-size-threshold', p),
    unhealthyZoneThreshold: required(f['unhealthy-zone-threshold'], 'unhealthy-zone-threshold', p),
    taintBasedEvictions: taintBased,
    taintNodesByCondition: p.features.taintNodesByCondition,
    conditionTypes: p.kubelet.conditions.includes('OutOfDisk') ? LEGACY_CONDITIONS_SET_UNKNOWN : CONDITIONS_SET_UNKNOWN,
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
    registerNode: f['register-node'] ?? true,
    nodeStatusUpdateFrequency: required(f['node-status-update-frequency'], 'node-status-update-frequency', p),
    nodeStatusReportFrequency: f['node-status-report-frequency'] ?? f['node-status-update-frequency']!,
    nodeLeaseDurationSeconds: f['node-lease-duration-seconds'] ?? 40,
    useLease: p.features.nodeLease,
    podCIDR: spec.podCIDR,
    capacity: spec.capacity,
    allocatable: spec.allocatable,
    machine: spec.reserved ? { ...p.kubelet, reserved: spec.reserved } : p.kubelet,
    // The kubelet binary's flag defaults when the profile says nothing.
    anonymousAuth: f['anonymous-auth'] ?? true,
    authenticationTokenWebhook: f['authentication-token-webhook'] ?? false,
    authorizationMode: authorizationMode(f['authorization-mode'] ?? 'AlwaysAllow'),
    enableDebuggingHandlers: f['enable-debugging-handlers'] ?? true,
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

import { Flags } from '../../profile/profile';
import { parseFlags } from '../../profile/flags';
import { NotApplicableError } from '../driver';

/** What the scenario's flags become on upstream's command lines (ports and files are added at start). */
export interface UpstreamCommand {
  apiserver: string[];
  kcm: string[];
  scheduler: string[];
  /** --scheduler-name, which kube-scheduler v1.32 takes as a KubeSchedulerConfiguration profile. */
  schedulerName?: string;
  /** The scenario names a cloud: our external cloud-controller-manager runs (see upstream/cloud.ts). */
  cloud?: boolean;
}

/**
 * Translates the merged flags (profile and scenario) to kube-apiserver's,
 * kube-controller-manager's and kube-scheduler's v1.32 flags. A flag upstream v1.32 no longer
 * has, or a value it cannot take on loopback, throws NotApplicableError with the reason;
 * `own` (the scenario's flags alone) tells a value the scenario asks for from the profile's default,
 * `profile` (the profile's alone) whether the profile's release has the flag at all.
 */
export function translateFlags(all: Flags, own: Flags, profile: Flags): UpstreamCommand {
  parseFlags(all);
  const api = all['kube-apiserver'] ?? {};
  const kcm = all['kube-controller-manager'] ?? {};
  const sch = all['kube-scheduler'] ?? {};
  const out: UpstreamCommand = { apiserver: [], kcm: [], scheduler: [] };
  const na = (why: string) => {
    throw new NotApplicableError(`upstream v1.32: ${why}`);
  };
  for (const [flag, value] of Object.entries(api)) {
    switch (flag) {
      case 'secure-port':
      case 'bind-address':
        break; // a free loopback port, set at start
      case 'insecure-bind-address':
        break; // meaningless without an insecure port
      case 'authorization-mode':
      case 'anonymous-auth':
        // The profile states kube-apiserver's own defaults; unless the scenario names a value,
        // the target's setup decides (Node,RBAC, or the default for a scenario judging it).
        if (own['kube-apiserver']?.[flag] !== undefined) out.apiserver.push(`--${flag}=${value}`);
        break;
      case 'insecure-port':
        // The seed profile's 8080 is its release's default; only a port the scenario asks for is judged.
        if (value !== '0' && own['kube-apiserver']?.['insecure-port'] !== undefined)
          na(`--insecure-port=${value}: kube-apiserver has no insecure port since v1.24 (the flag was removed)`);
        break;
      case 'advertise-address':
      case 'service-cluster-ip-range':
      case 'default-not-ready-toleration-seconds':
      case 'default-unreachable-toleration-seconds':
      case 'enable-admission-plugins':
      case 'token-auth-file':
      case 'kubelet-certificate-authority':
      // Removed in v1.19: passed on, so kube-apiserver itself refuses it ("unknown flag"),
      // which the scenario that names it judges.
      case 'basic-auth-file':
        out.apiserver.push(`--${flag}=${value}`);
        break;
      default:
        na(`kube-apiserver flag --${flag} has no translation`);
    }
  }
  for (const [flag, value] of Object.entries(kcm)) {
    switch (flag) {
      case 'pod-eviction-timeout':
        // Removed in v1.27 with the non-taint eviction path; only its default meaning survives
        // (the DefaultTolerationSeconds admission plugin's 300 s). A profile that states it (the
        // seed's) expects its effect: an explicit value is not applicable. One that does not
        // (kubernetes-1.32) expects kube-controller-manager to refuse it ("unknown flag"):
        // passed on, which the scenario that names it judges.
        if (own['kube-controller-manager']?.['pod-eviction-timeout'] === undefined) break;
        if (profile['kube-controller-manager']?.['pod-eviction-timeout'] !== undefined)
          na(
            `--pod-eviction-timeout=${value}: removed from kube-controller-manager in v1.27 (eviction is taint-based only)`,
          );
        out.kcm.push(`--${flag}=${value}`);
        break;
      case 'enable-taint-manager':
        if (value !== 'true') na(`--enable-taint-manager=${value}: removed in v1.27; the taint manager always runs`);
        break;
      case 'cloud-provider':
        // The reference's simulated cloud is, on v1.32, an external one: our cloud-controller-manager
        // with the same simulated provider, kube-controller-manager with --cloud-provider=external
        // (set by the driver; in-tree providers were removed in v1.31, "external" is all it takes).
        if (value !== '' && value !== 'external' && value !== 'simulated')
          na(`--cloud-provider=${value}: in-tree cloud providers were removed (v1.31); only "external" remains`);
        if (value) out.cloud = true;
        break;
      case 'node-monitor-period':
      case 'node-monitor-grace-period':
      case 'node-startup-grace-period':
      case 'node-eviction-rate':
      case 'secondary-node-eviction-rate':
      case 'large-cluster-size-threshold':
      case 'unhealthy-zone-threshold':
      case 'allocate-node-cidrs':
      case 'cluster-cidr':
      case 'node-cidr-mask-size':
      case 'controllers':
      case 'resource-quota-sync-period':
      case 'cluster-name':
      // Leader election: the timings pass through; --leader-elect itself is off unless the
      // scenario turns it on (one controller manager per scenario, as the reference runs).
      case 'leader-elect':
      case 'leader-elect-lease-duration':
      case 'leader-elect-renew-deadline':
      case 'leader-elect-retry-period':
      case 'leader-elect-resource-lock':
        out.kcm.push(`--${flag}=${value}`);
        break;
      default:
        na(`kube-controller-manager flag --${flag} has no translation`);
    }
  }
  // The controller manager allocates service IPs nowhere, but the node IPAM controller
  // keeps the service range out of the pod CIDRs: same value as the API server's.
  if (api['service-cluster-ip-range']) out.kcm.push(`--service-cluster-ip-range=${api['service-cluster-ip-range']}`);
  for (const [flag, value] of Object.entries(sch)) {
    switch (flag) {
      case 'algorithm-provider':
        // The seed profile's DefaultProvider is moot; a scenario asking for a provider is not.
        if (own['kube-scheduler']?.['algorithm-provider'] === undefined) break;
        na(
          `--algorithm-provider=${value}: removed in v1.23 (the scheduler framework's profiles replaced algorithm providers)`,
        );
        break;
      case 'policy-config-file':
        na(`--policy-config-file: scheduler Policy files were removed in v1.23`);
        break;
      case 'scheduler-name':
        // a KubeSchedulerConfiguration profile, when the scenario names another scheduler than the default
        if (own['kube-scheduler']?.['scheduler-name'] !== undefined) out.schedulerName = value;
        break;
      default:
        na(`kube-scheduler flag --${flag} has no translation`);
    }
  }
  return out;
}

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';

export type Component = 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kubelet';
export const COMPONENTS: Component[] = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubelet'];

export type Flags = Partial<Record<Component, Record<string, string>>>;

export interface MachineProfile {
  version: string;
  osImage: string;
  kernelVersion: string;
  containerRuntimeVersion: string;
  operatingSystem: string;
  architecture: string;
  conditions: string[];
  capacity: Record<string, string>;
  reserved: Record<string, string>;
}

/** A release's defaults and semantics, as data: which rules apply and every flag's value. */
export interface Profile {
  name: string;
  kubernetesVersion: string;
  description: string;
  features: {
    nodeLease: boolean;
    taintBasedEvictions: boolean;
    taintNodesByCondition: boolean;
    /** Pod GC waits 40 s and re-checks before deleting pods of a vanished node (v1.19+). */
    orphanPodQuarantine?: boolean;
    /** The scheduler framework's default plugins (0-100 scores), not the legacy predicates. */
    schedulerFramework?: boolean;
    /** Token secrets made for every service account and mounted into pods (before v1.22/v1.24). */
    legacyServiceAccountTokens?: boolean;
    /** The root-ca-cert-publisher controller: kube-root-ca.crt in every namespace (v1.20+). */
    rootCACertPublisher?: boolean;
    /**
     * The kubelet reads its node's metadata from the cloud itself (in-tree providers, until
     * v1.30); without them it registers with --cloud-provider=external and the cloud node
     * controller of the cloud-controller-manager writes the metadata.
     */
    inTreeCloudProviders?: boolean;
    /** The kubelet's image events: "Pulling image", and durations and size in Pulled (v1.30+), not v1.12's "pulling image". */
    imagePullDurations?: boolean;
    /** Load balancers keep NotReady nodes (KEP-3458, v1.30+). */
    stableLoadBalancerNodeSet?: boolean;
    /** ResourceQuota's "must specify … for: <containers>" wording (newer releases). */
    perContainerQuotaMessages?: boolean;
    /**
     * A Job whose pods would restart Always (or unset) is refused with "Required value: valid
     * values: …" (ValidateJobSpec since the pod failure policy, v1.26+), not "Unsupported value".
     */
    jobRestartPolicyRequired?: boolean;
    /**
     * A DELETE on a Terminating namespace whose finalizers remain is answered with the
     * namespace (200, v1.32's REST.Delete), not refused with 409 Conflict (v1.12).
     */
    namespaceRepeatDeleteAnswered?: boolean;
    /** DaemonSet rollingUpdate.maxSurge and the surge rules (DaemonSetUpdateSurge, v1.22+; absent in v1.12). */
    daemonSetMaxSurge?: boolean;
    /**
     * The Node authorizer lets a node read only its own Node object (AuthorizeNodeWithSelectors,
     * beta and on in v1.32); v1.12 let every node read every Node.
     */
    authorizeNodeWithSelectors?: boolean;
    /** kube-apiserver's --basic-auth-file (HTTP basic auth; removed in v1.19). */
    basicAuth?: boolean;
    /**
     * ReplicaSet/RC scale-down ranks victims by ActivePodsWithRanks (pod-deletion-cost, related
     * pods per node, log2 ages; v1.21+), not by ActivePods (v1.12).
     */
    activePodsWithRanks?: boolean;
    /** spec.schedulingGates (v1.26+, GA v1.30): kept, validated, and gated pods are not scheduled; v1.12 drops the field. */
    podSchedulingGates?: boolean;
    /**
     * The discovery.k8s.io/v1 EndpointSlice API and the EndpointSlice and EndpointSliceMirroring
     * controllers (GA in v1.21; absent in v1.12).
     */
    endpointSlices?: boolean;
    /**
     * The watch cache serves a watch from any resourceVersion since the list it began from
     * until it has dropped an event (watchCache.listResourceVersion, v1.13+); v1.12 served
     * one only from the first event it holds on.
     */
    watchCacheFromList?: boolean;
  };
  flags: Flags;
  kubelet: MachineProfile;
  /**
   * Older group/versions the API server serves workload resources at besides their storage
   * version (v1.12: apps/v1beta1, apps/v1beta2, extensions/v1beta1), by resource name.
   */
  olderApiVersions?: Record<string, string[]>;
}

export const PROFILE_DIR = path.resolve(__dirname, '../../profiles');

export function profileNames(): string[] {
  return fs
    .readdirSync(PROFILE_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.replace(/\.yaml$/, ''))
    .sort();
}

/** Loads profiles/<name>.yaml (or a path), checking its shape so a typo fails loudly. */
export function loadProfile(nameOrPath: string): Profile {
  const file = nameOrPath.endsWith('.yaml') ? nameOrPath : path.join(PROFILE_DIR, `${nameOrPath}.yaml`);
  if (!fs.existsSync(file)) {
    throw new Error(
      `unknown profile "${nameOrPath}": choose one of ${profileNames().join(', ')} or give a path to a profile YAML`,
    );
  }
  const doc = yaml.load(fs.readFileSync(file, 'utf8')) as Partial<Profile> | undefined;
  const where = path.relative(process.cwd(), file) || file;
  const need = (cond: unknown, what: string) => {
    if (!cond) throw new Error(`${where}: ${what}`);
  };
  need(doc && typeof doc === 'object', 'not a YAML mapping');
  need(typeof doc!.name === 'string', 'missing "name"');
  need(typeof doc!.kubernetesVersion === 'string', 'missing "kubernetesVersion"');
  need(
    doc!.features &&
      ['nodeLease', 'taintBasedEvictions', 'taintNodesByCondition'].every(
        (k) => typeof (doc!.features as Record<string, unknown>)[k] === 'boolean',
      ),
    '"features" needs booleans nodeLease, taintBasedEvictions, taintNodesByCondition',
  );
  need(doc!.flags && typeof doc!.flags === 'object', 'missing "flags"');
  for (const c of Object.keys(doc!.flags!))
    need(COMPONENTS.includes(c as Component), `flags: unknown component "${c}" (one of ${COMPONENTS.join(', ')})`);
  need(doc!.kubelet && typeof doc!.kubelet === 'object', 'missing "kubelet"');
  for (const k of [
    'version',
    'osImage',
    'kernelVersion',
    'containerRuntimeVersion',
    'operatingSystem',
    'architecture',
  ]) {
    need(typeof (doc!.kubelet as unknown as Record<string, unknown>)[k] === 'string', `kubelet.${k} must be a string`);
  }
  need(Array.isArray(doc!.kubelet!.conditions), 'kubelet.conditions must be a list');
  const older = doc!.olderApiVersions ?? {};
  need(
    typeof older === 'object' &&
      Object.values(older).every((r) => Array.isArray(r) && r.every((x) => typeof x === 'string')),
    'olderApiVersions must map group/version to a list of resource names',
  );
  const flags: Flags = {};
  for (const [c, f] of Object.entries(doc!.flags!))
    flags[c as Component] = Object.fromEntries(Object.entries(f ?? {}).map(([k, v]) => [k, String(v)]));
  return {
    description: '',
    ...doc,
    flags,
    kubelet: { ...doc!.kubelet!, reserved: doc!.kubelet!.reserved ?? {}, capacity: doc!.kubelet!.capacity ?? {} },
  } as Profile;
}

/** Profile flags with overrides applied (later wins). */
export function mergeFlags(...layers: Flags[]): Flags {
  const out: Flags = {};
  for (const layer of layers) {
    for (const [c, f] of Object.entries(layer)) out[c as Component] = { ...out[c as Component], ...f };
  }
  return out;
}

// `kubespec init-target --kubeconfig K`: a target declaration written from what a cluster
// reveals about itself — its version (→ the profile), its nodes and zones, and the
// kube-controller-manager flags of a control plane that runs as static pods (kubeadm) — with
// every flag it could not see left at the profile's default and marked for the user to confirm.
import type { Client } from '../client/client';
import type { KubeObject } from '../api/meta';
import { loadProfile, type Profile } from '../profile/profile';

/** The profiles by Kubernetes minor release; the newest one older than a cluster stands in for it. */
const PROFILES_BY_MINOR: [number, string][] = [
  [12, 'seed'],
  [32, 'kubernetes-1.32'],
];

/** The node-controller flags a declaration states: the ones the node features judge. */
const JUDGED_FLAGS = [
  'node-monitor-period',
  'node-monitor-grace-period',
  'node-startup-grace-period',
  'pod-eviction-timeout',
  'node-eviction-rate',
  'secondary-node-eviction-rate',
  'large-cluster-size-threshold',
  'unhealthy-zone-threshold',
];

export interface ClusterFacts {
  gitVersion: string;
  profile: string;
  /** why this profile, when the version has none of its own */
  profileNote?: string;
  nodes: string[];
  zones: string[];
  /** flags read from a kube-controller-manager pod's command line */
  seenFlags: Record<string, string>;
  /** where the flags came from, or why none were seen */
  flagSource: string;
}

interface VersionInfo {
  gitVersion?: string;
  major?: string;
  minor?: string;
}
interface PodLike extends KubeObject {
  spec?: { containers?: { command?: string[]; args?: string[] }[] };
}

export function profileForVersion(gitVersion: string): { profile: string; note?: string } {
  const m = /^v?(\d+)\.(\d+)/.exec(gitVersion);
  if (m?.[1] !== '1')
    return { profile: 'kubernetes-1.32', note: `version "${gitVersion}" is not 1.x: kubernetes-1.32 assumed` };
  const minor = Number(m[2]);
  const exact = PROFILES_BY_MINOR.find(([v]) => v === minor);
  if (exact) return { profile: exact[1] };
  const older = PROFILES_BY_MINOR.filter(([v]) => v < minor).pop() ?? PROFILES_BY_MINOR[0];
  return {
    profile: older[1],
    note: `no profile for v1.${minor}; ${older[1]} (v1.${older[0]}) is the nearest older release: check the scenarios of releases in between`,
  };
}

/** Flags of a command line (--name=value or --name value) that the declaration states. */
export function judgedFlags(commandLine: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < commandLine.length; i++) {
    const m = /^--([a-z0-9-]+)(?:=(.*))?$/.exec(commandLine[i]);
    if (!m || !JUDGED_FLAGS.includes(m[1])) continue;
    out[m[1]] = m[2] ?? commandLine[++i] ?? '';
  }
  return out;
}

export async function discover(
  client: Client & { request<T>(method: string, path: string): Promise<T> },
): Promise<ClusterFacts> {
  const version = await client.request<VersionInfo>('GET', '/version');
  const gitVersion = version.gitVersion ?? `v${version.major}.${version.minor}`;
  const { profile, note } = profileForVersion(gitVersion);
  const nodes = await client.list<KubeObject>({ resource: 'nodes' });
  const zoneOf = (n: KubeObject) =>
    n.metadata.labels?.['topology.kubernetes.io/zone'] ?? n.metadata.labels?.['failure-domain.beta.kubernetes.io/zone'];
  let seenFlags: Record<string, string> = {};
  let flagSource =
    'no kube-controller-manager pod in kube-system (a managed or k3s control plane): every flag is the profile default';
  try {
    const pods = await client.list<PodLike>({ resource: 'pods', namespace: 'kube-system' });
    const kcm = pods.items.find((p) => p.metadata.name?.startsWith('kube-controller-manager'));
    if (kcm) {
      const c = kcm.spec?.containers?.[0];
      seenFlags = judgedFlags([...(c?.command ?? []), ...(c?.args ?? [])]);
      flagSource = `read from pod kube-system/${kcm.metadata.name}`;
    }
  } catch (err) {
    flagSource = `kube-system pods not readable (${(err as Error).message}): every flag is the profile default`;
  }
  return {
    gitVersion,
    profile,
    ...(note ? { profileNote: note } : {}),
    nodes: nodes.items.map((n) => n.metadata.name ?? ''),
    zones: [...new Set(nodes.items.map(zoneOf).filter((z): z is string => !!z))],
    seenFlags,
    flagSource,
  };
}

/** The declaration as YAML text, commented: what was seen, what is assumed, what to confirm. */
export function declarationYaml(
  name: string,
  facts: ClusterFacts,
  profile: Profile = loadProfile(facts.profile),
): string {
  const defaults = profile.flags['kube-controller-manager'] ?? {};
  const flagLines = JUDGED_FLAGS.filter((f) => f in facts.seenFlags || f in defaults).map((f) => {
    const seen = facts.seenFlags[f];
    const value = seen ?? String(defaults[f]);
    return `    ${f}: ${JSON.stringify(value)}${seen !== undefined ? '   # seen on the cluster' : '   # CONFIRM: the profile default, not seen'}`;
  });
  return `# Written by kubespec init-target from what the cluster revealed; review every CONFIRM line.
#   server version ${facts.gitVersion} → profile ${facts.profile}${facts.profileNote ? ` (${facts.profileNote})` : ''}
#   ${facts.nodes.length} node(s)${facts.nodes.length ? `: ${facts.nodes.slice(0, 10).join(', ')}${facts.nodes.length > 10 ? ', …' : ''}` : ''}
#   zones: ${facts.zones.length ? facts.zones.join(', ') : 'none labelled'}
#   flags: ${facts.flagSource}
# Judge it with: kubespec run --target kube --kubeconfig KUBECONFIG --target-config THIS_FILE
name: ${name}
profile: ${facts.profile}
description: >-
  ${name}, ${facts.gitVersion}, judged as it runs: its flags cannot be changed per scenario, so
  scenarios that state other values are not applicable; time is real.
configurableFlags: false
shared: true
capabilities:
  virtualTime: false
  hollowKubelets: true
  cloudProvider: false
maxScenarioTime: 6m
flags:
  kube-controller-manager:
${flagLines.join('\n')}
`;
}

import type { LeaderElectionOptions } from '../../cluster/config';
import { UpstreamCommand } from './flags';

/**
 * The command lines of upstream's four components, in one place for every target that starts
 * them: the upstream target (processes on this machine) and the container target (the same
 * processes in upstream/image/, whose entrypoint takes these lists from its environment).
 * Pure: ports and paths are given — paths on this machine or inside the container — and the
 * scenario's translated flags (translateFlags) are appended last, so they win.
 */

/** A file of the control plane's PKI by name (ca.crt, ca.key, apiserver.crt, apiserver.key, sa.key, sa.pub). */
export type PkiFile = (name: string) => string;

/** etcd: one member, no fsync (a scratch store per scenario). */
export function etcdArgs(dataDir: string, clientPort: number, peerPort: number): string[] {
  return [
    '--name=kubespec',
    `--data-dir=${dataDir}`,
    `--listen-client-urls=http://127.0.0.1:${clientPort}`,
    `--advertise-client-urls=http://127.0.0.1:${clientPort}`,
    `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-cluster=kubespec=http://127.0.0.1:${peerPort}`,
    '--unsafe-no-fsync',
    '--log-level=warn',
  ];
}

/**
 * The upstream targets' --authorization-mode where the scenario names none (kubeadm's): the
 * target's own choice, not kube-apiserver's default (the profile's AlwaysAllow), which only a
 * scenario judging the defaults gets.
 */
export const TARGET_AUTHORIZATION_MODE = 'Node,RBAC';

/**
 * kube-apiserver. `judgesDefaults`: a scenario judging kube-apiserver's own defaults gets its
 * default bind address (0.0.0.0) and authorization (AlwaysAllow) instead of loopback and
 * Node,RBAC. `extra`: what the target adds (its audit log, the egress to the hollow kubelets).
 */
export function apiServerArgs(
  at: {
    etcdClientPort: number;
    port: number;
    certDir: string;
    pki: PkiFile;
    judgesDefaults?: boolean;
    extra?: readonly string[];
  },
  cmd: UpstreamCommand,
): string[] {
  const { pki } = at;
  return [
    `--etcd-servers=http://127.0.0.1:${at.etcdClientPort}`,
    ...(at.judgesDefaults ? [] : ['--bind-address=127.0.0.1']),
    `--secure-port=${at.port}`,
    `--cert-dir=${at.certDir}`,
    `--tls-cert-file=${pki('apiserver.crt')}`,
    `--tls-private-key-file=${pki('apiserver.key')}`,
    `--client-ca-file=${pki('ca.crt')}`,
    `--service-account-key-file=${pki('sa.pub')}`,
    `--service-account-signing-key-file=${pki('sa.key')}`,
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    '--allow-privileged=true',
    ...(at.extra ?? []),
    // Node,RBAC unless the scenario names its modes (a list flag: repeating it appends), or
    // judges kube-apiserver's default (AlwaysAllow).
    ...(cmd.apiserver.some((a) => a.startsWith('--authorization-mode=')) || at.judgesDefaults
      ? []
      : [`--authorization-mode=${TARGET_AUTHORIZATION_MODE}`]),
    ...cmd.apiserver,
  ];
}

/** kube-controller-manager. `extra`: what the target adds (`--cloud-provider=external` beside our cloud-controller-manager). */
export function controllerManagerArgs(
  at: { kubeconfig: string; port: number; certDir: string; pki: PkiFile; extra?: readonly string[] },
  cmd: UpstreamCommand,
): string[] {
  const { pki } = at;
  return [
    `--kubeconfig=${at.kubeconfig}`,
    `--authentication-kubeconfig=${at.kubeconfig}`,
    `--authorization-kubeconfig=${at.kubeconfig}`,
    ...(cmd.kcm.some((a) => a.startsWith('--leader-elect=')) ? [] : ['--leader-elect=false']),
    '--bind-address=127.0.0.1',
    `--secure-port=${at.port}`,
    `--cert-dir=${at.certDir}`,
    '--use-service-account-credentials=true',
    `--service-account-private-key-file=${pki('sa.key')}`,
    `--root-ca-file=${pki('ca.crt')}`,
    `--cluster-signing-cert-file=${pki('ca.crt')}`,
    `--cluster-signing-key-file=${pki('ca.key')}`,
    ...(at.extra ?? []),
    ...cmd.kcm,
  ];
}

export function schedulerArgs(at: { config: string; kubeconfig: string; port: number; certDir: string }): string[] {
  return [
    `--config=${at.config}`,
    `--authentication-kubeconfig=${at.kubeconfig}`,
    `--authorization-kubeconfig=${at.kubeconfig}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${at.port}`,
    `--cert-dir=${at.certDir}`,
    // prioritizeNodes logs each plugin's score at verbosity 10 (the driver's schedulerDecisions
    // read them back); that file only, as -v=10 would log every request body too.
    '--vmodule=schedule_one=10',
  ];
}

/** kube-scheduler's leader election, as kube-controller-manager's flags state it (an HA pair runs both elected). */
export type SchedulerElection = Pick<LeaderElectionOptions, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>;

/** Milliseconds as a Go duration string ("15s", "1500ms"), as KubeSchedulerConfiguration takes them. */
function goDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/**
 * kube-scheduler's configuration file: its kubeconfig, no leader election unless `election`
 * (then the Lease kube-system/kube-scheduler, its default), a profile for schedulerName when
 * given. `qps` lifts client-go's default client rate (50/s, burst 100), which otherwise caps
 * bindings at about 50 pods/s; scheduler_perf lifts it the same way.
 */
export function schedulerConfigYaml(
  kubeconfig: string,
  schedulerName?: string,
  qps?: number,
  election?: SchedulerElection,
): string {
  return [
    'apiVersion: kubescheduler.config.k8s.io/v1',
    'kind: KubeSchedulerConfiguration',
    `clientConnection: { kubeconfig: ${JSON.stringify(kubeconfig)}${qps ? `, qps: ${qps}, burst: ${qps}` : ''} }`,
    election
      ? `leaderElection: { leaderElect: true, leaseDuration: ${goDuration(election.leaseDurationMs)}, renewDeadline: ${goDuration(election.renewDeadlineMs)}, retryPeriod: ${goDuration(election.retryPeriodMs)}, resourceLock: leases, resourceNamespace: kube-system, resourceName: kube-scheduler }`
      : 'leaderElection: { leaderElect: false }',
    ...(schedulerName ? [`profiles: [ { schedulerName: ${JSON.stringify(schedulerName)} } ]`] : []),
    '',
  ].join('\n');
}

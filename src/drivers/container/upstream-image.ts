import * as fs from 'node:fs';
import {
  apiServerArgs,
  controllerManagerArgs,
  etcdArgs,
  schedulerArgs,
  schedulerConfigYaml,
} from '../upstream/commands';
import { UpstreamCommand } from '../upstream/flags';
import { upstreamPki } from '../upstream/pki';

/**
 * What upstream/image/ is given at start (see its entrypoint.sh): the four components'
 * command lines (src/drivers/upstream/commands.ts, as the upstream target starts them, with
 * paths inside the container) and the PKI. The PKI is this process's (upstream/pki.ts), made
 * on this machine and copied in, not made in the image: the busybox userland has no openssl, a
 * key baked into an image layer is everybody's who has the image, and the driver needs the CA
 * here anyway, to issue the certificates of the users a scenario acts as.
 */

const ETC = '/etc/kubespec';
const PKI = `${ETC}/pki`;
const VAR = '/var/lib/kubespec';

/** The admin kubeconfig the entrypoint writes (the declaration's container.kubeconfig). */
export const IMAGE_ADMIN_KUBECONFIG = `${ETC}/admin.kubeconfig`;

export interface UpstreamImagePorts {
  etcdClient: number;
  etcdPeer: number;
  apiserver: number;
  kcm: number;
  scheduler: number;
}

/** The identities of the kubeconfigs the entrypoint writes (NAME.crt/.key → NAME.kubeconfig). */
const CLIENTS: [string, string, string[]][] = [
  ['admin', 'kubespec-admin', ['system:masters']],
  ['kcm', 'system:kube-controller-manager', []],
  ['scheduler', 'system:kube-scheduler', []],
];

export function upstreamImageInputs(
  cmd: UpstreamCommand,
  ports: UpstreamImagePorts,
): { env: Record<string, string>; files: { target: string; content: string; mode?: number }[] } {
  const pki = upstreamPki();
  const inside = (name: string) => `${PKI}/${name}`;
  const lines = (args: string[]) => args.join('\n');
  const env = {
    KUBESPEC_ETCD_PORT: String(ports.etcdClient),
    KUBESPEC_APISERVER_PORT: String(ports.apiserver),
    KUBESPEC_KCM_PORT: String(ports.kcm),
    KUBESPEC_SCHEDULER_PORT: String(ports.scheduler),
    KUBESPEC_ETCD_ARGS: lines(etcdArgs(`${VAR}/etcd`, ports.etcdClient, ports.etcdPeer)),
    KUBESPEC_APISERVER_ARGS: lines(
      apiServerArgs(
        { etcdClientPort: ports.etcdClient, port: ports.apiserver, certDir: `${VAR}/apiserver-certs`, pki: inside },
        cmd,
      ),
    ),
    KUBESPEC_KCM_ARGS: lines(
      controllerManagerArgs(
        { kubeconfig: `${ETC}/kcm.kubeconfig`, port: ports.kcm, certDir: `${VAR}/kcm-certs`, pki: inside },
        cmd,
      ),
    ),
    KUBESPEC_SCHEDULER_ARGS: lines(
      schedulerArgs({
        config: `${ETC}/kube-scheduler.yaml`,
        kubeconfig: `${ETC}/scheduler.kubeconfig`,
        port: ports.scheduler,
        certDir: `${VAR}/scheduler-certs`,
      }),
    ),
  };
  const secret = 0o600;
  const files = [
    ...['ca.crt', 'ca.key', 'apiserver.crt', 'apiserver.key', 'sa.key', 'sa.pub'].map((name) => ({
      target: inside(name),
      content: fs.readFileSync(pki.file(name), 'utf8'),
      mode: name.endsWith('.key') ? secret : 0o644,
    })),
    ...CLIENTS.flatMap(([name, user, groups]) => {
      const pair = pki.client(user, groups);
      return [
        { target: inside(`${name}.crt`), content: pair.certPem, mode: 0o644 },
        { target: inside(`${name}.key`), content: pair.keyPem, mode: secret },
      ];
    }),
    {
      target: `${ETC}/kube-scheduler.yaml`,
      content: schedulerConfigYaml(`${ETC}/scheduler.kubeconfig`, cmd.schedulerName),
    },
    ...namedFiles(cmd),
  ];
  return { env, files };
}

/**
 * Files a scenario's flags name on this machine (--token-auth-file=/tmp/…): copied to the same
 * path inside, so the flag means there what it means here.
 */
function namedFiles(cmd: UpstreamCommand): { target: string; content: string; mode: number }[] {
  const out = new Map<string, string>();
  for (const arg of [...cmd.apiserver, ...cmd.kcm, ...cmd.scheduler]) {
    const value = /^--[a-z0-9-]+=(\/.+)$/.exec(arg)?.[1];
    if (value && fs.existsSync(value) && fs.statSync(value).isFile()) out.set(value, fs.readFileSync(value, 'utf8'));
  }
  return [...out].map(([target, content]) => ({ target, content, mode: 0o600 }));
}

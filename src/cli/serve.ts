import * as os from 'node:os';
import * as path from 'node:path';
import { Cluster } from '../cluster/cluster';
import { clusterConfig } from '../cluster/config';
import { componentOf } from '../cluster/flags';
import { Component, Flags, loadProfile } from '../cluster/profile';
import { ClusterServer } from '../cluster/serving';
import { one, parseArgs } from './args';
import { SERVE_HELP } from './help';

const OWN = ['profile', 'clock', 'store', 'data-dir', 'help'];

export async function serveCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['help']);
  if (args.flags.has('help')) { console.log(SERVE_HELP); return 0; }
  const profile = loadProfile(one(args, 'profile', 'seed')!);
  const clock = one(args, 'clock', 'virtual')!;
  if (clock !== 'virtual' && clock !== 'real') throw new Error(`--clock must be virtual or real, got "${clock}"`);
  const store = one(args, 'store', 'memory')!;
  if (store !== 'memory') throw new Error(`--store ${store} is not available (known: memory)`);
  const flags: Flags = {};
  for (const [name, values] of args.flags) {
    if (OWN.includes(name)) continue;
    const c: Component | undefined = componentOf(name);
    if (!c) throw new Error(`unknown flag --${name} for "kubespec serve" (see kubespec serve --help)`);
    flags[c] = { ...flags[c], [name]: values[values.length - 1] };
  }
  const portOff = (v: string | undefined, dflt: string) => Number(v ?? dflt) === 0;
  if (portOff(flags['kube-apiserver']?.['secure-port'], '6443') && portOff(flags['kube-apiserver']?.['insecure-port'], '0')) {
    throw new Error('--secure-port 0 turns HTTPS off; give --insecure-port PORT to serve plain HTTP instead (both off leaves nothing to serve)');
  }
  const apiserverDefaults = { 'authorization-mode': 'RBAC' };
  const config = clusterConfig(profile, { ...flags, 'kube-apiserver': { ...apiserverDefaults, ...flags['kube-apiserver'] } });
  guardProcess();
  const cluster = new Cluster({ config, clock, startTime: clock === 'virtual' ? undefined : Date.now() });
  await cluster.start();
  const dir = path.resolve(one(args, 'data-dir', path.join(os.homedir(), '.kubespec'))!);
  const server = new ClusterServer(cluster, { dir });
  const endpoints = await server.start();
  if (endpoints.secure) console.log(`secure port: https://${endpoints.secure.host}:${endpoints.secure.port}`);
  if (endpoints.insecure) console.log(`insecure port: http://${endpoints.insecure.host}:${endpoints.insecure.port} (no authentication)`);
  console.log(`profile ${profile.name}, ${clock} clock, ${store} store`);
  console.log(`kubeconfig: ${endpoints.kubeconfig}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.stop();
  await cluster.stop();
  return 0;
}

/**
 * The last line of defence of a long-running control plane: an error no component caught
 * (a bug, or an object some code did not expect) is reported on stderr and the process
 * keeps serving, as kube-apiserver's and the controllers' panic handlers log and go on.
 * The API server itself answers every request with a Status; this is only for the rest.
 */
export function guardProcess(): void {
  let count = 0;
  const report = (what: string) => (e: unknown) => {
    count++;
    console.error(`kubespec serve: ${what} #${count} (the process keeps serving): ${(e as Error)?.stack ?? String(e)}`);
  };
  process.on('uncaughtException', report('uncaught exception'));
  process.on('unhandledRejection', report('unhandled rejection'));
}

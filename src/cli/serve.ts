import * as os from 'node:os';
import * as path from 'node:path';
import { Cluster } from '../cluster/cluster';
import { clusterConfig } from '../profile/config';
import { componentOf } from '../profile/flags';
import { Component, Flags, loadProfile } from '../profile/profile';
import { ClusterServer } from '../cluster/serving';
import { servingOptions } from '../cluster/config';
import { one, parseArgs } from './args';
import { parseDuration } from '../api/duration';
import { Quiescence } from '../clock';
import { describeStore, openStore, parseStoreSpec } from '../store/open';
import { Store } from '../store';
import { Compactor } from '../store/compactor';
import { loadOrCreateServiceAccountKey } from '../serviceaccount/keyfile';
import { loadOrCreateCA } from '../cluster/pki-files';
import { securePkiDir } from '../apiserver/auth/pki';
import { SERVE_HELP } from './help';

const OWN = [
  'profile',
  'clock',
  'store',
  'data-dir',
  'etcd-servers',
  'etcd-compaction-interval',
  'store-key-prefix',
  'sqlite-sync',
  'help',
];

export async function serveCommand(argv: string[]): Promise<number> {
  const args = parseArgs(
    argv.map((a) => (a === '-h' ? '--help' : a)),
    ['help'],
  );
  if (args.flags.has('help')) {
    console.log(SERVE_HELP);
    return 0;
  }
  const profile = loadProfile(one(args, 'profile', 'seed')!);
  const clock = one(args, 'clock', 'virtual')!;
  if (clock !== 'virtual' && clock !== 'real') throw new Error(`--clock must be virtual or real, got "${clock}"`);
  const dir = path.resolve(one(args, 'data-dir', path.join(os.homedir(), '.kubespec'))!);
  const etcdServers = one(args, 'etcd-servers', undefined);
  const storeArg = one(args, 'store', undefined);
  if (etcdServers && storeArg) throw new Error('give either --store or --etcd-servers, not both');
  const storeSpec = parseStoreSpec(etcdServers ?? storeArg ?? 'sqlite', dir);
  const keyPrefix = one(args, 'store-key-prefix', undefined);
  if (keyPrefix !== undefined) {
    if (storeSpec.kind !== 'etcd') throw new Error('--store-key-prefix is for an etcd store');
    if (!/^\/[A-Za-z0-9._/-]*[A-Za-z0-9._-]$/.test(keyPrefix))
      throw new Error(`--store-key-prefix ${keyPrefix}: want a path such as /cluster-a`);
    storeSpec.keyPrefix = keyPrefix;
  }
  const sqliteSync = one(args, 'sqlite-sync', undefined);
  if (sqliteSync !== undefined) {
    if (sqliteSync !== 'full' && sqliteSync !== 'normal')
      throw new Error(`--sqlite-sync must be full or normal, got "${sqliteSync}"`);
    if (storeSpec.kind !== 'sqlite') throw new Error('--sqlite-sync is for a sqlite store');
    storeSpec.sync = sqliteSync;
  }
  const compactionInterval = parseDuration(one(args, 'etcd-compaction-interval', '5m')!);
  const flags: Flags = {};
  for (const [name, values] of args.flags) {
    if (OWN.includes(name)) continue;
    const c: Component | undefined = componentOf(name);
    if (!c) throw new Error(`unknown flag --${name} for "kubespec serve" (see kubespec serve --help)`);
    flags[c] = { ...flags[c], [name]: values[values.length - 1] };
  }
  const apiserverDefaults = { 'authorization-mode': 'RBAC' };
  const config = clusterConfig(profile, {
    ...flags,
    'kube-apiserver': { ...apiserverDefaults, ...flags['kube-apiserver'] },
  });
  // The ports as the profile's defaults and the command line make them (the seed's 8080).
  const ports = servingOptions(config);
  if (ports.securePort === 0 && ports.insecurePort === 0) {
    throw new Error(
      '--secure-port 0 turns HTTPS off; give --insecure-port PORT to serve plain HTTP instead (both off leaves nothing to serve)',
    );
  }
  guardProcess();
  const quiescence = new Quiescence();
  const store = await openStore(storeSpec, quiescence);
  // The signing key lives with the CA: tokens issued before a restart still verify after it.
  const pkiDir = path.join(dir, 'pki');
  securePkiDir(pkiDir);
  const serviceAccountKey = loadOrCreateServiceAccountKey(pkiDir);
  // The CA the API server is served with (ClusterServer loads the same one) is the cluster's
  // root CA, which the controller manager hands to pods (upstream: --root-ca-file).
  const rootCA = loadOrCreateCA(pkiDir, 'ca', 'kubernetes', false).keyPair.certPem;
  // A virtual clock goes on from the latest instant the stored objects record, not back to
  // its epoch: timestamps never run backwards across a restart (nor collide: event names).
  const startTime = clock === 'real' ? Date.now() : await latestRecordedTime(store);
  // Several servers may share an etcd (an HA pair): then the scheduler is elected as well.
  const cluster = new Cluster({
    config,
    clock,
    store,
    quiescence,
    serviceAccountKey,
    rootCA,
    startTime,
    electScheduler: storeSpec.kind === 'etcd',
  });
  await cluster.start();
  // Only a store that keeps history for long needs compacting (memory trims its own).
  const compactor =
    storeSpec.kind === 'memory'
      ? undefined
      : new Compactor(store, cluster.clock, compactionInterval, cluster.background.reportTo('compactor'), (p) =>
          quiescence.track(p),
        );
  compactor?.start();
  const server = new ClusterServer(cluster, { dir });
  const endpoints = await server.start();
  if (endpoints.secure) console.log(`secure port: https://${endpoints.secure.host}:${endpoints.secure.port}`);
  if (endpoints.insecure)
    console.log(`insecure port: http://${endpoints.insecure.host}:${endpoints.insecure.port} (no authentication)`);
  console.log(`profile ${profile.name}, ${clock} clock, ${describeStore(storeSpec)} store`);
  if (cluster.leaderElector)
    console.log(
      `leader election identity: ${cluster.leaderElector.config.identity}${cluster.schedulerElector ? ` (scheduler: ${cluster.schedulerElector.config.identity})` : ''}`,
    );
  console.log(`kubeconfig: ${endpoints.kubeconfig}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  compactor?.stop();
  await server.stop();
  await cluster.stop();
  return 0;
}

/** The latest time any stored object records (plus a second), or undefined for an empty store. */
export async function latestRecordedTime(store: Store): Promise<number | undefined> {
  let latest = -Infinity;
  const see = (v: unknown) => {
    if (typeof v !== 'string' || !/^\d{4}-\d\d-\d\dT/.test(v)) return;
    const t = Date.parse(v);
    if (t > latest) latest = t;
  };
  // Every field that holds an instant a component wrote: metadata times, lease renewals,
  // heartbeats and transitions, event times.
  const visit = (v: unknown, depth: number) => {
    if (depth > 6 || v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (typeof x === 'string') {
        if (/(Timestamp|Time)$/.test(k)) see(x);
      } else visit(x, depth + 1);
    }
  };
  for (const kv of (await store.range('/registry/')).items) visit(kv.value, 0);
  return Number.isFinite(latest) ? Math.ceil(latest / 1000) * 1000 + 1000 : undefined;
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

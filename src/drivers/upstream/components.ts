import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { WatchedProcess } from '../../util/process';

/** Where `npm run upstream:build` puts the binaries (KUBESPEC_UPSTREAM_CACHE overrides the cache). */
export function upstreamBinDir(): string {
  const cache = process.env.KUBESPEC_UPSTREAM_CACHE ?? path.join(os.homedir(), '.cache', 'kubespec-upstream');
  return path.join(cache, 'bin');
}

const BINARIES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;
/** Ours (upstream/ccm), started only for the scenarios that name a cloud. */
export const CLOUD_CONTROLLER_MANAGER = 'cloud-controller-manager';
export type Binary = (typeof BINARIES)[number] | typeof CLOUD_CONTROLLER_MANAGER;

/** The binaries every scenario of the target needs that are not in binDir. */
export function missingBinaries(binDir = upstreamBinDir()): string[] {
  return BINARIES.filter((b) => !fs.existsSync(path.join(binDir, b)));
}

/**
 * One upstream component, started in its own process group (so stopping it ends anything it
 * started) with its output in `<workDir>/<name>.log`, whose tail a failure shows.
 */
export function startComponent(binDir: string, workDir: string, name: Binary, args: string[]): WatchedProcess {
  const bin = path.join(binDir, name);
  if (!fs.existsSync(bin))
    throw new Error(
      `no ${name} in ${binDir}: run \`npm run upstream:build\` first (KUBESPEC_UPSTREAM_CACHE sets the cache)`,
    );
  return new WatchedProcess(name, bin, args, {
    logFile: path.join(workDir, `${name}.log`),
    group: true,
    // kube-controller-manager (and kube-scheduler) exit when they lose the leader lock, by
    // design (OnStoppedLeading: "leaderelection lost"; a supervisor restarts them): that is
    // the behaviour a leader-election scenario judges, not a crash.
    exitIsDesign: name === 'etcd' || name === 'kube-apiserver' ? undefined : (out) => /leaderelection lost/.test(out),
  });
}

/** GET url once: true on 200, else what it answered (for the error when it never does). */
export function answers200(url: string, tls?: https.RequestOptions): Promise<true | string> {
  return new Promise((resolve) => {
    const mod = url.startsWith('https:') ? https : http;
    const req = mod.get(url, { ...(tls ?? {}), timeout: 5000 }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve(res.statusCode === 200 ? true : `${res.statusCode}: ${body.slice(0, 500)}`));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve(e.message));
  });
}

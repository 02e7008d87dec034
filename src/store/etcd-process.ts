import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WatchedProcess } from '../util/process';
import { freePort } from '../util/ports';

export { freePort };

/**
 * A throwaway etcd for tests and for the serve target's etcd-backed servers: loopback only,
 * free ports, a temporary data dir, stopped (and its dir removed) by stop(). Debian's
 * etcd-server package (etcd on PATH) is preferred; the etcd built by `npm run
 * upstream:build` is used when that is missing; KUBESPEC_ETCD names another binary.
 */
export function etcdBinary(): string | undefined {
  const candidates = [
    process.env.KUBESPEC_ETCD,
    ...(process.env.PATH ?? '').split(':').map((d) => path.join(d, 'etcd')),
    path.join(os.homedir(), '.cache/kubespec-upstream/bin/etcd'),
  ];
  return candidates.find((c): c is string => !!c && fs.existsSync(c));
}

/** Why the etcd tests cannot run here, or undefined; CI (KUBESPEC_REQUIRE_ETCD=1) turns a skip into a failure. */
export function etcdMissing(): string | undefined {
  if (etcdBinary()) return undefined;
  if (process.env.KUBESPEC_REQUIRE_ETCD === '1')
    throw new Error('no etcd binary (apt-get install etcd-server) and KUBESPEC_REQUIRE_ETCD=1');
  return 'no etcd binary: apt-get install etcd-server';
}

export class EtcdServer {
  private proc?: WatchedProcess;
  endpoint = '';
  readonly dir: string;

  constructor(dir?: string) {
    this.dir = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-etcd-'));
  }

  private peerPort?: number;

  /**
   * Starts etcd on its data dir (kept across kill() and a start again, as a restarted
   * machine's); on a free client port, or on clientPort (a restart where clients wait).
   */
  async start(clientPort?: number): Promise<string> {
    const bin = etcdBinary();
    if (!bin) throw new Error('no etcd binary');
    const client = clientPort ?? (await freePort());
    const peer = (this.peerPort ??= await freePort());
    this.endpoint = `http://127.0.0.1:${client}`;
    const args = [
      '--name=kubespec-test',
      `--data-dir=${path.join(this.dir, 'data')}`,
      `--listen-client-urls=${this.endpoint}`,
      `--advertise-client-urls=${this.endpoint}`,
      `--listen-peer-urls=http://127.0.0.1:${peer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
      `--initial-cluster=kubespec-test=http://127.0.0.1:${peer}`,
      '--log-level=error',
      '--logger=zap',
    ];
    const proc = new WatchedProcess('etcd', bin, args);
    this.proc = proc;
    await proc.waitUntil(
      'etcd /health',
      async () => {
        try {
          return (await fetch(`${this.endpoint}/health`)).ok;
        } catch (e) {
          return (e as Error).message; // not listening yet
        }
      },
      30_000,
      100,
    );
    return this.endpoint;
  }

  /** Lets this process exit while etcd runs (then an exit handler calls killNow). */
  unref(): void {
    this.proc?.child.unref();
    for (const s of [this.proc?.child.stdout, this.proc?.child.stderr])
      (s as unknown as { unref?: () => void } | null | undefined)?.unref?.();
  }

  /** SIGKILL, keeping the data dir (start() again brings the same data back). */
  async kill(): Promise<void> {
    await this.proc?.kill();
    this.proc = undefined;
  }

  get clientPort(): number {
    return Number(new URL(this.endpoint).port);
  }

  /** For process exit handlers, which cannot wait: SIGKILL and remove the data dir. */
  killNow(): void {
    if (this.proc && this.proc.child.exitCode === null) this.proc.child.kill('SIGKILL');
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  async stop(): Promise<void> {
    if (this.proc) await this.proc.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

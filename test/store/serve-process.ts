import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';

/**
 * `kubespec serve` as a child process for the store tests (the kill -9 test, the HA pair):
 * started with the given flags, resolved once it prints its kubeconfig line.
 */
const BIN = path.resolve(__dirname, '../../bin/kubespec');

export interface Served {
  child: ChildProcess;
  kubeconfig: string;
  output: () => string;
}

export function serve(
  dataDir: string,
  port: number,
  store: string,
  extra: string[] = [],
  profile = 'seed',
): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        BIN,
        'serve',
        '--profile',
        profile,
        '--data-dir',
        dataDir,
        '--store',
        store,
        '--secure-port',
        String(port),
        '--bind-address',
        '127.0.0.1',
        ...extra,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' } },
    );
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kubespec serve did not start:\n${out}`));
    }, 120_000);
    const on = (c: Buffer) => {
      out += c.toString();
      const m = /^kubeconfig: (.+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ child, kubeconfig: m[1].trim(), output: () => out });
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kubespec serve exited with ${code}:\n${out}`));
    });
  });
}

export function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

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
    let started = false;
    const exitedEarly = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`kubespec serve exited with ${code}:\n${out}`));
    };
    const on = (c: Buffer) => {
      out += c.toString();
      if (started) return;
      const m = /^kubeconfig: (.+)$/m.exec(out);
      if (m) {
        // Once only, and only its own listener: this ran again on every later chunk of
        // output and took away every 'exit' listener, stop()'s included, so a clean-up
        // waited for ever on a server that printed while it shut down.
        started = true;
        clearTimeout(timer);
        child.removeListener('exit', exitedEarly);
        resolve({ child, kubeconfig: m[1].trim(), output: () => out });
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', exitedEarly);
  });
}

/** Resolves once the child has ended (at once when it already has). */
function ended(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

export function kill9(child: ChildProcess): Promise<void> {
  const end = ended(child);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  return end;
}

export function stop(child: ChildProcess): Promise<void> {
  const end = ended(child);
  if (child.exitCode !== null || child.signalCode !== null) return end;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  return end.finally(() => clearTimeout(killer));
}

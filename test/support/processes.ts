// Child processes for the tests that start servers (kubespec serve, kubectl proxy): a free
// loopback port, start-and-wait-for-a-line, and stop.
import { ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../../src/util/ports';

export { freePort };

/** Starts a process and resolves once its output matches `ready`. */
export function startProcess(
  cmd: string,
  args: string[],
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${cmd} did not start within 300 s:\n${out}`));
    }, 300_000);
    const on = (c: Buffer) => {
      out += c.toString();
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m });
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited with ${code}:\n${out}`));
    });
  });
}

export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  child.removeAllListeners('exit');
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

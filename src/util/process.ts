import type { ChildProcess } from 'node:child_process';

/**
 * Stops a child process as a supervisor would: SIGTERM, then SIGKILL if it is still running
 * after `graceMs`; resolves once it has exited (at once if it already had).
 */
export async function terminate(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => { if (child.exitCode === null) child.kill('SIGKILL'); }, graceMs).unref();
  });
}

// Child processes for the tests that start servers (kubespec serve, kubectl proxy): a free
// loopback port, and start-and-wait-for-a-line on the project's own WatchedProcess.
import * as path from 'node:path';
import { freePort } from '../../src/util/ports';
import { WatchedProcess } from '../../src/util/process';

export { freePort };

/**
 * Starts a process and resolves once its output matches `ready`: within 300 s, and failing at
 * once (with its output's tail) if it exits first. A start that fails stops the process.
 */
export async function startProcess(
  cmd: string,
  args: string[],
  ready: RegExp,
): Promise<{ process: WatchedProcess; match: RegExpExecArray }> {
  const proc = new WatchedProcess(path.basename(cmd), cmd, args, {
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
  });
  let match: RegExpExecArray | null = null;
  try {
    await proc.waitUntil(
      `${path.basename(cmd)} to print ${ready}`,
      () => (match = ready.exec(proc.output())) !== null,
      300_000,
      50,
    );
  } catch (e) {
    await proc.stop();
    throw e;
  }
  return { process: proc, match: match! };
}

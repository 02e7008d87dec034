import * as https from 'node:https';
import * as path from 'node:path';
import { answers200, answers200AsItself, Component } from './components';

const flag = (args: string[], name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/**
 * Waits until a component started again from its command line serves: etcd's /health on
 * its client URL, kube-apiserver's /readyz (as the admin), the others' /healthz on their
 * --secure-port (always allowed), answered with the self-signed certificate each wrote.
 */
export async function waitServing(
  proc: Component,
  args: string[],
  server: string,
  adminTls: https.RequestOptions,
  timeoutMs: number,
): Promise<void> {
  if (proc.name === 'etcd') {
    const url = flag(args, 'listen-client-urls')!.split(',')[0];
    await proc.waitUntil('etcd', () => answers200(`${url}/health`), timeoutMs);
  } else if (proc.name === 'kube-apiserver') {
    await proc.waitUntil('kube-apiserver /readyz', () => answers200(`${server}/readyz`, adminTls), timeoutMs);
  } else {
    const port = flag(args, 'secure-port');
    const certDir = flag(args, 'cert-dir');
    if (!port || !certDir)
      throw new Error(
        `${proc.name} was started without --secure-port and --cert-dir: cannot tell when it serves again`,
      );
    // Answered by itself (the certificate it wrote), not by another process that took the port while it was down.
    await proc.waitUntil(
      `${proc.name} /healthz`,
      () => answers200AsItself(`https://127.0.0.1:${port}/healthz`, path.join(certDir, `${proc.name}.crt`)),
      timeoutMs,
    );
  }
}

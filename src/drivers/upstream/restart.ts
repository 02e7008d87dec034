import * as https from 'node:https';
import { answers200, Component } from './components';

const flag = (args: string[], name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/**
 * Waits until a component started again from its command line serves: etcd's /health on
 * its client URL, kube-apiserver's /readyz (as the admin), the others' /healthz on their
 * --secure-port (always allowed; their serving certificates are self-signed).
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
    if (!port) throw new Error(`${proc.name} was started without --secure-port: cannot tell when it serves again`);
    await proc.waitUntil(
      `${proc.name} /healthz`,
      () => answers200(`https://127.0.0.1:${port}/healthz`, { rejectUnauthorized: false }),
      timeoutMs,
    );
  }
}

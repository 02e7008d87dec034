import type * as https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Pod } from '../api/core';
import { Clock, isoTime } from '../clock';
import type { HollowKubelet } from './kubelet';
import { KubeletStreaming, refuseUpgrade } from './streaming';
import { debuggingDisabled, guard, KubeletReviews } from './auth';
import { splitSchemeNamePort } from '../api/scheme-name-port';
import { hollowPodAnswer } from './hollow-pod';
import { createHttpsServer } from '../util/https-server';

/**
 * The hollow kubelet's HTTPS API (port 10250 upstream), what the API server reaches for
 * logs and the node proxy: /healthz, /pods (the kubelet's own view of its pods),
 * /containerLogs/{ns}/{pod}/{container}, /stats/summary (a small part of it) and
 * /hollowPods/… (what a hollow pod answers through pods/{name}/proxy). Its certificate is
 * its own; the API server checks it only with --kubelet-certificate-authority.
 * Upstream: pkg/kubelet/server/server.go.
 */
export interface KubeletServing {
  certPem: string;
  keyPem: string;
  /** --client-ca-file: the CA whose client certificates authenticate (the cluster's). */
  clientCA?: string;
  /** How the kubelet asks the API server about tokens and access (webhook modes). */
  reviews?: KubeletReviews;
}

/**
 * A hollow container's log: the lines its simulated process wrote. It writes one line when
 * it starts; timestamps (RFC 3339 with nanoseconds) are those of the kubelet's clock.
 */
export function containerLog(pod: Pod, container: string): { time: string; line: string }[] {
  const status = pod.status?.containerStatuses?.find((c) => c.name === container);
  const started = (status?.state as { running?: { startedAt?: string } } | undefined)?.running?.startedAt;
  if (!started) return [];
  const spec = pod.spec.containers.find((c) => c.name === container);
  return [
    {
      time: started,
      line: `hollow container ${container} (image ${spec?.image ?? ''}) of pod ${pod.metadata.namespace}/${pod.metadata.name} started on node ${pod.spec.nodeName}`,
    },
  ];
}

function nanoTime(iso: string): string {
  return iso.replace(
    /(\.\d+)?Z$/,
    (_, frac: string | undefined) => `.${(`${(frac ?? '.').slice(1)}000000000`).slice(0, 9)}Z`,
  );
}

export class KubeletServer {
  private server?: https.Server;
  port = 0;
  private readonly streaming: KubeletStreaming;

  constructor(
    private readonly kubelet: HollowKubelet,
    private readonly clock: Clock,
    private readonly tls: KubeletServing,
  ) {
    this.streaming = new KubeletStreaming({
      nodeName: kubelet.name,
      pod: (ns, name) => this.pods().find((x) => x.metadata.namespace === ns && x.metadata.name === name),
    });
  }

  async start(host = '127.0.0.1'): Promise<number> {
    // Client certificates are asked for, not required: tokens and anonymous requests connect too.
    this.server = createHttpsServer(
      {
        cert: this.tls.certPem,
        key: this.tls.keyPem,
        ca: this.tls.clientCA,
        requestCert: true,
        rejectUnauthorized: false,
      },
      (req, res) => {
        void this.guarded(req, res).catch((e) => {
          if (!res.headersSent) {
            res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
          }
          res.end(`Authorization error: ${(e as Error).message}`);
        });
      },
    );
    // exec, attach and port-forward arrive as upgrade requests (WebSocket or SPDY/3.1).
    this.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      void this.guardedUpgrade(req, socket, head).catch((e) =>
        refuseUpgrade(socket, 500, `Authorization error: ${(e as Error).message}`),
      );
    });
    await new Promise<void>((resolve, reject) => this.server!.once('error', reject).listen(0, host, () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  async stop(): Promise<void> {
    const srv = this.server;
    if (!srv) return;
    srv.closeAllConnections();
    await new Promise<void>((resolve) => srv.close(() => resolve()));
  }

  private pods(): Pod[] {
    return this.kubelet.isRunning ? this.kubelet.pods.running() : [];
  }

  private async guarded(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'https://kubelet').pathname;
    if (debuggingDisabled(this.kubelet.config, path)) {
      res.writeHead(405, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end('Debug endpoints are disabled.\n');
      return;
    }
    const d = await guard(req, this.kubelet.config, this.tls.reviews);
    if (!d.allowed) {
      res.writeHead(d.code, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(d.message);
      return;
    }
    this.handle(req, res);
  }

  private async guardedUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const path = new URL(req.url ?? '/', 'https://kubelet').pathname;
    if (debuggingDisabled(this.kubelet.config, path))
      return refuseUpgrade(socket, 405, 'Debug endpoints are disabled.\n');
    const d = await guard(req, this.kubelet.config, this.tls.reviews);
    if (!d.allowed) return refuseUpgrade(socket, d.code, d.message);
    this.streaming.upgrade(req, socket, head);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const json = (code: number, body: unknown) => {
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const text = (code: number, body: string) => {
      res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(body);
    };
    const p = url.pathname;
    if (p === '/healthz') return text(200, 'ok');
    if (p === '/pods' || p === '/pods/')
      return json(200, {
        kind: 'PodList',
        apiVersion: 'v1',
        metadata: {},
        items: this.kubelet.isRunning ? this.kubelet.pods.view() : [],
      });
    if (p === '/stats/summary') {
      return json(200, {
        node: {
          nodeName: this.kubelet.name,
          startTime: isoTime(this.clock.now()),
          cpu: { time: isoTime(this.clock.now()), usageNanoCores: 0 },
          memory: { time: isoTime(this.clock.now()), workingSetBytes: 0 },
        },
        pods: this.pods().map((pod) => ({
          podRef: { name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid },
          startTime: pod.status?.startTime,
          containers: pod.spec.containers.map((c) => ({ name: c.name })),
        })),
      });
    }
    const logs = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(p);
    if (logs) {
      const [, ns, name, container] = logs.map(decodeURIComponent);
      const pod = this.pods().find((x) => x.metadata.namespace === ns && x.metadata.name === name);
      if (!pod) return text(404, `pod ${ns}/${name} not found`);
      if (!pod.spec.containers.some((c) => c.name === container))
        return text(404, `container ${container} is not valid for pod ${name}`);
      let lines = containerLog(pod, container);
      const tail = url.searchParams.get('tailLines');
      if (tail !== null) lines = lines.slice(Math.max(0, lines.length - Number(tail)));
      const stamped = url.searchParams.get('timestamps') === 'true';
      return text(200, lines.map((l) => `${stamped ? `${nanoTime(l.time)} ` : ''}${l.line}\n`).join(''));
    }
    const hollow = /^\/hollowPods\/([^/]+)\/([^/]+)(\/.*)?$/.exec(p);
    if (hollow) {
      // [scheme:]{pod}[:{port}] reaches the pod, or one port of it, over that scheme: the
      // kubelet stands for the pod network (hollow-pod.ts). What the API server sends the
      // pod arrives here as it would there: its own client certificate is the kubelet
      // connection's, not the pod's (the reference's proxy presents none to a pod), but an
      // Authorization header it passed on would be the pod's to see.
      const [, ns, target] = hollow;
      const id = splitSchemeNamePort(decodeURIComponent(target));
      if (!id) return text(400, `invalid hollow pod ${target}`);
      const pod = this.pods().find((x) => x.metadata.namespace === ns && x.metadata.name === id.name);
      if (!pod) return text(404, `pod ${ns}/${id.name} not found`);
      const port = id.port === '' ? undefined : Number(id.port);
      const a = hollowPodAnswer(this.kubelet.name, pod, port, req.method ?? 'GET', hollow[3] ?? '/', {
        scheme: id.scheme === 'https' ? 'https' : 'http',
        authorization: req.headers.authorization !== undefined,
      });
      res.writeHead(a.code, { 'Content-Type': a.contentType });
      res.end(a.body);
      return;
    }
    return text(404, '404 page not found\n');
  }
}

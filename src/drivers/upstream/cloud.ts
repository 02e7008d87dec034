import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { answers200, Binary, CLOUD_CONTROLLER_MANAGER, Component } from './components';

/** One load balancer of the simulated cloud, as ClusterDriver.loadBalancers() gives it. */
export interface CloudLoadBalancer {
  name: string;
  service: string;
  nodes: string[];
  ingress: { ip?: string; hostname?: string }[];
}

export interface CloudStartOptions {
  workDir: string;
  /** Starts a component (the driver's, so that it is stopped with the others). */
  spawn: (name: Binary, args: string[]) => Component;
  /** A free loopback port for its secure port. */
  port: number;
  /** The kubeconfig it speaks to the API server with (kube-controller-manager's identity). */
  kubeconfig: string;
  /** kube-controller-manager's flags it shares: --node-monitor-period, --cluster-name. */
  nodeMonitorPeriod?: string;
  clusterName?: string;
  timeoutMs: number;
}

/**
 * Upstream's external cloud-controller-manager (upstream/ccm: k8s.io/cloud-provider's app with
 * our simulated provider "kubespec") for one scenario, and the simulated cloud's console it
 * serves on loopback: machines (one per hollow kubelet; deleting one is an operator deleting
 * a VM) and the load balancers the service controller made. It runs the cloud node controller
 * (initializes nodes registered with --cloud-provider=external), the cloud node lifecycle
 * controller (deletes a NotReady node whose machine is gone) and the service controller;
 * kube-controller-manager runs with --cloud-provider=external beside it, as v1.32 requires.
 */
export class UpstreamCloud {
  private constructor(
    private readonly console: string,
    readonly proc: Component,
  ) {}

  /** Starts it on options.port and waits for its /healthz and its console's address. */
  static async start(o: CloudStartOptions): Promise<UpstreamCloud> {
    const addressFile = path.join(o.workDir, 'cloud-console.address');
    fs.rmSync(addressFile, { force: true });
    const proc = o.spawn(CLOUD_CONTROLLER_MANAGER, [
      '--cloud-provider=kubespec',
      `--kubeconfig=${o.kubeconfig}`,
      `--authentication-kubeconfig=${o.kubeconfig}`,
      `--authorization-kubeconfig=${o.kubeconfig}`,
      // As kube-controller-manager's: each controller with its own service account, whose
      // roles (system:controller:node-controller, …:service-controller) RBAC bootstraps.
      '--use-service-account-credentials=true',
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${o.port}`,
      `--cert-dir=${path.join(o.workDir, 'ccm-certs')}`,
      // Its webhook server would take port 10260 (one per machine); no webhook is registered.
      '--webhook-secure-port=0',
      '--controllers=cloud-node-controller,cloud-node-lifecycle-controller,service-lb-controller',
      '--configure-cloud-routes=false',
      ...(o.nodeMonitorPeriod ? [`--node-monitor-period=${o.nodeMonitorPeriod}`] : []),
      ...(o.clusterName ? [`--cluster-name=${o.clusterName}`] : []),
      `--kubespec-api-address-file=${addressFile}`,
    ]);
    await proc.waitUntil(
      'cloud-controller-manager /healthz and its console',
      async () => {
        const healthy = await answers200(`https://127.0.0.1:${o.port}/healthz`, { rejectUnauthorized: false });
        if (healthy !== true) return healthy;
        return fs.existsSync(addressFile) || `no console address in ${addressFile} yet`;
      },
      o.timeoutMs,
    );
    return new UpstreamCloud(`http://${fs.readFileSync(addressFile, 'utf8').trim()}`, proc);
  }

  /** The machine a hollow kubelet runs on (made before the kubelet registers). */
  async addMachine(name: string): Promise<void> {
    await this.request('PUT', `/machines/${encodeURIComponent(name)}`);
  }

  /** An operator deletes the machine (the kubelet on it is the driver's to stop). */
  async deleteMachine(name: string): Promise<void> {
    const r = await this.request('DELETE', `/machines/${encodeURIComponent(name)}`, [404]);
    if (r.status === 404) throw new Error(`the cloud has no machine "${name}"`);
  }

  async loadBalancers(): Promise<CloudLoadBalancer[]> {
    const r = await this.request('GET', '/loadbalancers');
    return (r.body as { items: CloudLoadBalancer[] }).items.map((lb) => ({
      name: lb.name,
      service: lb.service,
      nodes: lb.nodes ?? [],
      ingress: lb.ingress ?? [],
    }));
  }

  /** One request to the console; a status other than 2xx (or one of `expected`) throws with its Status message. */
  private request(method: string, p: string, expected: number[] = []): Promise<{ status: number; body: unknown }> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${this.console}${p}`, { method, timeout: 10_000 }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            reject(
              new Error(`the cloud console answered ${method} ${p} with ${status} and no JSON: ${text.slice(0, 200)}`),
            );
            return;
          }
          if ((status >= 200 && status < 300) || expected.includes(status)) resolve({ status, body });
          else
            reject(
              new Error(
                `the cloud console refused ${method} ${p}: ${status} ${(body as { message?: string }).message ?? text.slice(0, 200)}`,
              ),
            );
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`the cloud console did not answer ${method} ${p} within 10 s`)));
      req.on('error', (e) => reject(new Error(`the cloud console (${this.console}): ${method} ${p}: ${e.message}`)));
      req.end();
    });
  }
}

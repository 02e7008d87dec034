import * as fs from 'node:fs';
import { isStatusError } from '../../api/errors';
import { KubeObject } from '../../api/meta';
import { KubeconfigClient } from '../../client/kubeconfig';
import { HttpEndpoint } from '../driver';
import type { KubeletNetwork } from '../kubelet-network';
import type { Component } from './components';

/**
 * Reusing an upstream control plane across scenarios. Starting kube-apiserver costs several
 * CPU-seconds (storage, RBAC bootstrap, the OpenAPI spec), so on two cores a full run that
 * started one per scenario would spend much of its time starting them. What is kept between
 * scenarios is only etcd and kube-apiserver; kube-controller-manager and kube-scheduler are
 * stopped after each scenario and started fresh for the next, so no in-memory state of a
 * controller (the node lifecycle controller's per-node health and zone states, rate
 * limiters, the taint manager's timers, the event correlator, the scheduler's cache and
 * round-robin index) outlives its scenario. The API state is restored to what the fresh
 * control plane held (its baseline): every object made since is deleted, and a control plane
 * whose baseline objects changed is not reused. Names stay the feature's own (no scoping),
 * so kubectl and every other HTTP client see exactly what the scenario wrote.
 *
 * The pool is per process: a cucumber worker runs one scenario at a time, so each control
 * plane serves one scenario at a time. Keyed by kube-apiserver's command line (the flags the
 * scenario states for it): the controllers' flags do not matter, their processes are new.
 */

/** What a fresh control plane held, object by object: uid and resourceVersion by key. */
export type Baseline = Map<string, { uid: string; rv: string }>;

/** An API server (with its etcd) between two scenarios. */
export interface IdleControlPlane {
  key: string;
  procs: Component[];
  workDir: string;
  server: string;
  endpoint: HttpEndpoint;
  etcdClientUrl: string;
  baseline: Baseline;
  /** How many scenarios it has served (for the run's figures). */
  served: number;
  /** The egress proxy its API server dials the hollow kubelets through (kept with it: its socket is in the API server's flags). */
  kubeletNetwork: KubeletNetwork;
}

interface ApiResource {
  name: string;
  namespaced: boolean;
  verbs: string[];
}

/** A listable, deletable resource: its list path and its group (for the key). */
interface Listable {
  path: string;
  group: string;
  resource: string;
  namespaced: boolean;
}

/** Resources whose objects change by themselves (renewals, reconcilers): not a sign a scenario changed them. */
const SELF_CHANGING = new Set([
  '/leases',
  '/events',
  'events.k8s.io/events',
  '/endpoints',
  'discovery.k8s.io/endpointslices',
  'flowcontrol.apiserver.k8s.io/flowschemas',
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations',
  'coordination.k8s.io/leases',
]);

/** Every resource the server lists and deletes, admission configuration first (a webhook left could block the rest). */
async function discover(api: KubeconfigClient): Promise<Listable[]> {
  const out: Listable[] = [];
  const add = async (base: string, group: string) => {
    const list = await api.request<{ resources: ApiResource[] }>('GET', base);
    for (const r of list.resources) {
      if (r.name.includes('/') || !r.verbs.includes('list') || !r.verbs.includes('delete')) continue;
      // events.k8s.io serves the core events again.
      if (group === 'events.k8s.io') continue;
      out.push({ path: `${base}/${r.name}`, group, resource: r.name, namespaced: r.namespaced });
    }
  };
  await add('/api/v1', '');
  const groups = await api.request<{ groups: { name: string; preferredVersion: { groupVersion: string } }[] }>(
    'GET',
    '/apis',
  );
  for (const g of groups.groups) await add(`/apis/${g.preferredVersion.groupVersion}`, g.name);
  const rank = (l: Listable) =>
    l.group === 'admissionregistration.k8s.io' ? 0 : l.resource === 'namespaces' ? 3 : l.resource === 'events' ? 2 : 1;
  return out.sort((a, b) => rank(a) - rank(b));
}

const keyOf = (l: Listable, o: KubeObject) =>
  `${l.group}/${l.resource}/${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

async function listAll(api: KubeconfigClient, l: Listable): Promise<KubeObject[]> {
  try {
    return (await api.request<{ items: KubeObject[] }>('GET', l.path)).items ?? [];
  } catch (e) {
    // A custom resource whose definition went between discovery and the list.
    if (isStatusError(e) && (e.code === 404 || e.code === 405)) return [];
    throw e;
  }
}

/** Every object the API server holds now. */
export async function snapshot(api: KubeconfigClient): Promise<Baseline> {
  const b: Baseline = new Map();
  for (const l of await discover(api))
    for (const o of await listAll(api, l))
      b.set(keyOf(l, o), { uid: o.metadata.uid!, rv: o.metadata.resourceVersion! });
  return b;
}

const sameIgnoringSelfChanging = (a: Baseline, b: Baseline): boolean => {
  if (a.size !== b.size) return false;
  for (const [k, x] of a) {
    const [group, resource] = k.split('/');
    const y = b.get(k);
    if (!y || y.uid !== x.uid) return false;
    if (y.rv !== x.rv && !SELF_CHANGING.has(`${group}/${resource}`)) return false;
  }
  return true;
};

/**
 * The baseline of a fresh control plane, once its controllers are done making their
 * objects (two snapshots a second apart agree, or after `timeoutMs`): a controller still
 * aggregating a ClusterRole after the snapshot would otherwise read as a scenario's change.
 */
export async function settledSnapshot(api: KubeconfigClient, timeoutMs = 15_000): Promise<Baseline> {
  const deadline = Date.now() + timeoutMs;
  let last = await snapshot(api);
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await snapshot(api);
    if (sameIgnoringSelfChanging(last, now) || Date.now() > deadline) return now;
    last = now;
  }
}

function objectPath(l: Listable, o: KubeObject): string {
  const name = encodeURIComponent(o.metadata.name!);
  if (!l.namespaced) return `${l.path}/${name}`;
  const slash = l.path.lastIndexOf('/');
  return `${l.path.slice(0, slash)}/namespaces/${encodeURIComponent(o.metadata.namespace!)}/${l.resource}/${name}`;
}

/**
 * Deletes every object made since the baseline, with the controllers stopped (nothing
 * recreates what is deleted): finalizers are cleared (no controller is left to honour
 * them) and namespaces finalized once their content is gone. Answers undefined when the
 * API server holds its baseline again, else why it cannot be reused (a baseline object
 * changed or removed, or the clean-up did not converge).
 */
export async function restore(
  api: KubeconfigClient,
  baseline: Baseline,
  timeoutMs = 60_000,
): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  const gone = (e: unknown) => {
    if (!isStatusError(e) || (e.code !== 404 && e.code !== 409)) throw e;
  };
  for (let round = 0; ; round++) {
    let left = 0;
    const resources = await discover(api);
    for (const l of resources) {
      for (const o of await listAll(api, l)) {
        const k = keyOf(l, o);
        const base = baseline.get(k);
        if (base && base.uid === o.metadata.uid) continue;
        left++;
        const path = objectPath(l, o);
        // A definition's own finalizer (its instances' clean-up) is the API server's, which runs.
        if (o.metadata.finalizers?.length && l.resource !== 'customresourcedefinitions')
          await api
            .request('PATCH', path, {
              body: { metadata: { finalizers: null } },
              contentType: 'application/merge-patch+json',
            })
            .catch(gone);
        if (l.resource === 'namespaces' && o.metadata.deletionTimestamp) {
          const ns = o as KubeObject & { spec?: { finalizers?: string[] } };
          await api.request('PUT', `${path}/finalize`, { body: { ...ns, spec: { finalizers: [] } } }).catch(gone);
        } else if (!o.metadata.deletionTimestamp || !o.metadata.finalizers?.length) {
          await api.request('DELETE', path, { query: { gracePeriodSeconds: '0' } }).catch(gone);
        }
      }
    }
    if (left === 0) break;
    if (Date.now() > deadline)
      return `${left} object(s) made by the scenario were still there after ${timeoutMs / 1000} s`;
    if (round > 0) await new Promise((r) => setTimeout(r, 200));
  }
  const now = await snapshot(api);
  for (const [k, was] of baseline) {
    const [group, resource] = k.split('/');
    const is = now.get(k);
    if (!is || is.uid !== was.uid) {
      // A Lease the API server renews (its identity) may be replaced; anything else was deleted by the scenario.
      if (SELF_CHANGING.has(`${group}/${resource}`)) continue;
      return `${k} of the fresh control plane was deleted`;
    }
    if (is.rv !== was.rv && !SELF_CHANGING.has(`${group}/${resource}`)) return `${k} was changed`;
  }
  return undefined;
}

/** Idle control planes per process, most recently used last; at most `max` are kept. */
const idle: IdleControlPlane[] = [];
let exitHooked = false;

/** How many idle control planes a process keeps (KUBESPEC_UPSTREAM_POOL, default 1; 0 turns reuse off). */
export function poolSize(): number {
  const n = Number(process.env.KUBESPEC_UPSTREAM_POOL ?? 1);
  return Number.isInteger(n) && n >= 0 ? n : 1;
}

/** An idle control plane for this key, now the caller's (none when there is none, or reuse is off). */
export function take(key: string): IdleControlPlane | undefined {
  const i = idle.findIndex((c) => c.key === key && !c.procs.some((p) => p.exited));
  if (i < 0) return undefined;
  const cp = idle.splice(i, 1)[0];
  for (const p of cp.procs) p.ref();
  cp.kubeletNetwork.ref();
  return cp;
}

/** Keeps a restored control plane for the next scenario; the oldest beyond the pool's size is stopped. */
export async function giveBack(cp: IdleControlPlane, keepWorkDir: boolean): Promise<void> {
  if (!exitHooked) {
    exitHooked = true;
    // The processes' groups end with this process (util/process); their scratch dirs go too.
    process.once('exit', () => {
      for (const c of idle) if (!keepWorkDir) fs.rmSync(c.workDir, { recursive: true, force: true });
    });
  }
  // An idle control plane must not keep the run alive once its last scenario is done (a run
  // without --parallel returns from its event loop): found when such a run never exited.
  for (const p of cp.procs) p.unref();
  cp.kubeletNetwork.unref();
  idle.push(cp);
  while (idle.length > poolSize()) await discard(idle.shift()!, keepWorkDir);
}

/** Stops a control plane's processes (etcd last) and removes its scratch dir. */
export async function discard(
  cp: { procs: Component[]; workDir: string; kubeletNetwork?: KubeletNetwork },
  keepWorkDir: boolean,
): Promise<void> {
  await cp.kubeletNetwork?.stop();
  for (const p of [...cp.procs].reverse()) await p.stop();
  if (!keepWorkDir) fs.rmSync(cp.workDir, { recursive: true, force: true });
}

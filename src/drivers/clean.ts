import { isStatusError } from '../api/errors';
import { KubeObject } from '../api/meta';
import { coreRegistry } from '../api/resources';
import { KubeconfigClient } from '../client/kubeconfig';
import { LABEL_EXPIRES, LABEL_RUN } from './scoped';

/**
 * Removing what kubespec runs made on a long-lived cluster: every cluster-scoped object and
 * namespace carrying the run label (namespaced objects go with their namespace), and the
 * hollow kubelet behind each labelled node where the server hosts them (kubespec serve).
 */

const registry = coreRegistry();

/** Errors that mean "this server has no such thing" (a resource or endpoint it does not serve). */
function absent(e: unknown): boolean {
  return isStatusError(e) && (e.code === 404 || e.code === 405 || e.code === 403);
}

export interface CleanResult {
  removed: Record<string, number>;
}

/**
 * Deletes the labelled objects `selector` picks (a label selector) for which `pick` holds;
 * nodes last, after their server-side kubelet is removed.
 */
export async function removeLabelled(
  api: KubeconfigClient,
  selector: string,
  pick: (o: KubeObject) => boolean = () => true,
): Promise<CleanResult> {
  const removed: Record<string, number> = {};
  const count = (r: string) => {
    removed[r] = (removed[r] ?? 0) + 1;
  };
  const scoped = registry.all().filter((rt) => !rt.namespaced && rt.resource !== 'nodes');
  for (const rt of [...scoped, registry.get('nodes')!]) {
    const resource = rt.group ? `${rt.resource}.${rt.group}` : rt.resource;
    let items: KubeObject[];
    try {
      items = (await api.list({ resource }, { labelSelector: selector })).items;
    } catch (e) {
      if (absent(e)) continue;
      throw e;
    }
    for (const o of items.filter(pick)) {
      const name = o.metadata.name!;
      if (rt.resource === 'nodes') {
        await api.request('DELETE', `/kubespec/v1/kubelets/${encodeURIComponent(name)}`).catch((e) => {
          if (!absent(e)) throw e;
        });
      }
      if (rt.resource === 'namespaces' && o.metadata.deletionTimestamp) continue;
      await api.delete({ resource }, name, { gracePeriodSeconds: 0 }).then(
        () => count(resource),
        (e) => {
          if (!absent(e) && !isStatusError(e, 'Conflict')) throw e;
        },
      );
    }
  }
  return { removed };
}

/** Objects of runs whose labels expired (a killed run's leftovers), or all runs' with `all`. */
export function cleanRuns(api: KubeconfigClient, options: { all?: boolean; now?: number } = {}): Promise<CleanResult> {
  const now = options.now ?? Date.now();
  const expired = (o: KubeObject) => {
    const at = Number(o.metadata.labels?.[LABEL_EXPIRES]);
    return options.all || !Number.isFinite(at) || at * 1000 < now;
  };
  return removeLabelled(api, LABEL_RUN, expired);
}

import { KubeObject } from '../meta';
import { ResourceRegistry } from '../registry';

/**
 * The older versions a release served its workload resources at, with each version's own
 * defaults (SetDefaults_* of apps/v1beta1, apps/v1beta2, extensions/v1beta1 in v1.12), applied
 * before the storage version's (apps/v1). A profile names which it serves
 * (profiles/*.yaml: olderApiVersions); v1.16 stopped serving them all.
 */

/** Upstream MaxInt32: a history limit or deadline set to it means "none". */
const MAX_INT32 = 2147483647;

type Spec = Record<string, unknown> & {
  selector?: unknown;
  template?: { metadata?: { labels?: Record<string, string> } };
  updateStrategy?: { type?: string; rollingUpdate?: Record<string, unknown> };
  strategy?: { type?: string; rollingUpdate?: Record<string, unknown> };
};

function specOf(obj: KubeObject): Spec | undefined {
  const spec = (obj as KubeObject & { spec?: Spec }).spec;
  return spec && typeof spec === 'object' ? spec : undefined;
}

/** Beta versions before apps/v1beta2: an absent selector (and absent labels) default to the template's labels. */
function selectorFromTemplate(obj: KubeObject): void {
  const spec = specOf(obj);
  const labels = spec?.template?.metadata?.labels;
  if (!spec || !labels) return;
  spec.selector ??= { matchLabels: { ...labels } };
  obj.metadata ??= {};
  if (!obj.metadata.labels || Object.keys(obj.metadata.labels).length === 0) obj.metadata.labels = { ...labels };
}

const DEFAULTS: Record<string, (obj: KubeObject) => void> = {
  // extensions/v1beta1 SetDefaults_DaemonSet: OnDelete unless stated.
  'extensions/v1beta1/daemonsets': (obj) => {
    selectorFromTemplate(obj);
    const spec = specOf(obj);
    if (spec) spec.updateStrategy = { ...spec.updateStrategy, type: spec.updateStrategy?.type ?? 'OnDelete' };
  },
  // extensions/v1beta1 SetDefaults_Deployment: maxUnavailable 1, maxSurge 1, no history limit or deadline.
  'extensions/v1beta1/deployments': (obj) => {
    selectorFromTemplate(obj);
    const spec = specOf(obj);
    if (!spec) return;
    const strategy = (spec.strategy = { ...spec.strategy, type: spec.strategy?.type ?? 'RollingUpdate' });
    if (strategy.type === 'RollingUpdate')
      strategy.rollingUpdate = { maxUnavailable: 1, maxSurge: 1, ...strategy.rollingUpdate };
    spec.revisionHistoryLimit ??= MAX_INT32;
    spec.progressDeadlineSeconds ??= MAX_INT32;
  },
  'extensions/v1beta1/replicasets': selectorFromTemplate,
  // apps/v1beta1 SetDefaults_Deployment: revisionHistoryLimit 2 (apps/v1: 10); 25 %/25 % as apps/v1.
  'apps/v1beta1/deployments': (obj) => {
    selectorFromTemplate(obj);
    const spec = specOf(obj);
    if (spec) spec.revisionHistoryLimit ??= 2;
  },
  // apps/v1beta1 SetDefaults_StatefulSet: OnDelete unless stated.
  'apps/v1beta1/statefulsets': (obj) => {
    selectorFromTemplate(obj);
    const spec = specOf(obj);
    if (spec) spec.updateStrategy = { ...spec.updateStrategy, type: spec.updateStrategy?.type ?? 'OnDelete' };
  },
};

/** Serves each named resource at each older group/version too. */
export function serveOlderVersions(
  registry: ResourceRegistry,
  versions: Readonly<Record<string, readonly string[]>>,
): void {
  for (const [gv, resources] of Object.entries(versions)) {
    const [group, version] = gv.split('/');
    if (!group || !version) throw new Error(`olderApiVersions: "${gv}" is not group/version`);
    for (const resource of resources) registry.serveAlso(group, version, resource, DEFAULTS[`${gv}/${resource}`]);
  }
}

import { Pod, Toleration } from '../../api/core';
import { TAINT_NOT_READY, TAINT_UNREACHABLE } from '../../api/taints';
import { AdmissionPlugin } from '../admission';

export interface DefaultTolerationSecondsOptions {
  /** --default-not-ready-toleration-seconds (300) */
  notReadySeconds: number;
  /** --default-unreachable-toleration-seconds (300) */
  unreachableSeconds: number;
}

/** Whether some toleration covers key:NoExecute by key (or empty key) and effect (or empty effect). */
function tolerates(tolerations: readonly Toleration[], key: string): boolean {
  return tolerations.some((t) => (!t.key || t.key === key) && (!t.effect || t.effect === 'NoExecute'));
}

/**
 * DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds): a pod created
 * or updated without a toleration for not-ready:NoExecute / unreachable:NoExecute gets
 * one, Exists, with the configured seconds (not-ready first). Pods only, no subresources.
 */
export function defaultTolerationSeconds(o: DefaultTolerationSecondsOptions): AdmissionPlugin {
  return {
    name: 'DefaultTolerationSeconds',
    admit(attrs) {
      if (attrs.resource.resource !== 'pods' || attrs.resource.group !== '' || attrs.subresource) return;
      if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return;
      const pod = attrs.object as Pod | undefined;
      if (!pod?.spec) return;
      const tolerations = pod.spec.tolerations ?? [];
      const added: Toleration[] = [];
      if (!tolerates(tolerations, TAINT_NOT_READY))
        added.push({
          key: TAINT_NOT_READY,
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: o.notReadySeconds,
        });
      if (!tolerates(tolerations, TAINT_UNREACHABLE))
        added.push({
          key: TAINT_UNREACHABLE,
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: o.unreachableSeconds,
        });
      if (added.length > 0) pod.spec.tolerations = [...tolerations, ...added];
    },
  };
}

import { Namespace } from '../../api/core';
import { isNamespaceTerminating, isStatusError } from '../../api/errors';
import { ConfigMap } from '../../api/resources/configmap';
import { ControllerContext } from '../../client/controller-context';
import { Informer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { ControllerBase } from '../controller-base';

/** The ConfigMap every namespace gets (rootcacertpublisher.RootCACertConfigMapName). */
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
/** Its one annotation (DescriptionAnnotation, Description), text as upstream writes it. */
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/**
 * The root CA certificate publisher (pkg/controller/certificates/rootcacertpublisher, on by
 * default since v1.20): every namespace holds the ConfigMap kube-root-ca.crt whose only key
 * ca.crt is the cluster's root CA (--root-ca-file, else the CA the controller manager's own
 * client trusts), which v1.22+'s projected kube-api-access volume mounts into pods. A namespace
 * added or updated while Active, and the ConfigMap changed or deleted, are synced again:
 * missing, it is created; its data not exactly {ca.crt} or its description gone, the data is
 * replaced and the description put back (syncNamespace). Other keys and annotations are
 * replaced or kept as upstream does: data wholesale, annotations but the one.
 */
export class RootCACertPublisher extends ControllerBase {
  private readonly namespaces: Informer<Namespace>;
  private readonly configMaps: Informer<ConfigMap>;
  private readonly queue: WorkQueue;

  constructor(
    ctx: ControllerContext,
    private readonly rootCA: string,
  ) {
    super(ctx);
    this.namespaces = ctx.informer<Namespace>({ resource: 'namespaces' });
    this.configMaps = ctx.informer<ConfigMap>({ resource: 'configmaps' });
    this.queue = ctx.workQueue((ns) => this.sync(ns), { name: 'root_ca_cert_publisher', workers: 1 });
  }

  run(): void {
    const ours = (cm: ConfigMap) => {
      if (cm.metadata.name === ROOT_CA_CONFIGMAP) this.queue.add(cm.metadata.namespace!);
    };
    this.ctx.handle(this.configMaps, { onUpdate: (_o, n) => ours(n), onDelete: ours });
    this.ctx.handle(this.namespaces, {
      onAdd: (ns) => this.queue.add(ns.metadata.name!),
      onUpdate: (_o, ns) => {
        if (ns.status?.phase === 'Active') this.queue.add(ns.metadata.name!);
      },
    });
  }

  async sync(namespace: string): Promise<void> {
    const cm = this.configMaps.getByName(ROOT_CA_CONFIGMAP, namespace);
    const data = { 'ca.crt': this.rootCA };
    if (!cm) {
      try {
        await this.client.create<ConfigMap>(
          { resource: 'configmaps', namespace },
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: ROOT_CA_CONFIGMAP, namespace, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
            data,
          },
        );
      } catch (e) {
        // Not retried: the namespace is gone or going (upstream's NotFound and NamespaceTerminatingCause).
        if (isStatusError(e, 'NotFound') || isNamespaceTerminating(e)) return;
        throw e;
      }
      return;
    }
    const keys = Object.keys(cm.data ?? {});
    const same = keys.length === 1 && cm.data?.['ca.crt'] === this.rootCA;
    if (same && cm.metadata.annotations?.[DESCRIPTION_ANNOTATION]) return;
    const next: ConfigMap = { ...cm, data };
    next.metadata = {
      ...cm.metadata,
      annotations: { ...cm.metadata.annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION },
    };
    await this.client.update<ConfigMap>({ resource: 'configmaps', namespace }, next);
  }
}

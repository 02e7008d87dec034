import { errors } from '../../api/errors';
import { Pod, Volume } from '../../api/core';
import { ServiceAccount } from '../../api/resources/serviceaccount';
import { Secret, SERVICE_ACCOUNT_TOKEN } from '../../api/resources/secret';
import type { ApiServer } from '../apiserver';
import { AdmissionAttributes, AdmissionPlugin } from '../admission';
import { randomSuffix } from '../../api/names';
import { podProjects, podSecretNames } from '../../api/pod-references';

export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface ServiceAccountAdmissionOptions {
  /** Mount the account's token secret (before v1.22) instead of a projected kube-api-access volume. */
  legacyTokenSecrets: boolean;
}

function forbidden(attrs: AdmissionAttributes, why: string) {
  return errors.forbidden(
    { kind: 'pods', name: attrs.object?.metadata.name ?? attrs.object?.metadata.generateName ?? '' },
    why,
  );
}

/**
 * ServiceAccount admission (plugin/pkg/admission/serviceaccount): a new pod runs as the
 * `default` account unless it names one; the account must exist; unless
 * automountServiceAccountToken is false, the pod gets the account's token at
 * /var/run/secrets/kubernetes.io/serviceaccount — the account's token secret (legacy) or a
 * projected `kube-api-access-<5>` volume (token, kube-root-ca.crt, namespace) as v1.22+.
 */
export function serviceAccountAdmission(api: ApiServer, options: ServiceAccountAdmissionOptions): AdmissionPlugin {
  return {
    name: 'ServiceAccount',
    admit(attrs) {
      if (attrs.resource.resource !== 'pods' || attrs.operation !== 'CREATE' || attrs.subresource || !attrs.object)
        return;
      return (async () => {
        const pod = attrs.object as Pod;
        // a mirror pod keeps its spec (the kubelet compares it with its static pod) and may
        // name no service account, secret or token projection (Admit calls Validate for them)
        if (pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) {
          if (pod.spec.serviceAccountName) throw forbidden(attrs, 'a mirror pod may not reference service accounts');
          if (podSecretNames(pod).length) throw forbidden(attrs, 'a mirror pod may not reference secrets');
          if (podProjects(pod, 'serviceAccountToken'))
            throw forbidden(attrs, 'a mirror pod may not use ServiceAccountToken volume projections');
          return;
        }
        const name = pod.spec.serviceAccountName || pod.spec.serviceAccount || 'default';
        pod.spec.serviceAccountName = name;
        pod.spec.serviceAccount = name;
        const ns = attrs.namespace!;
        let sa: ServiceAccount;
        try {
          sa = await api.storage<ServiceAccount>({ resource: 'serviceaccounts' }).get(ns, name);
        } catch {
          throw forbidden(attrs, `error looking up service account ${ns}/${name}: serviceaccount "${name}" not found`);
        }
        const automount = pod.spec.automountServiceAccountToken ?? sa.automountServiceAccountToken ?? true;
        if (!automount) return;
        if (allContainers(pod).some((c) => c.volumeMounts?.some((m) => m.mountPath === TOKEN_MOUNT_PATH))) return;
        const volume = options.legacyTokenSecrets ? await legacyVolume(api, ns, sa, attrs) : projectedVolume();
        pod.spec.volumes = [...(pod.spec.volumes ?? []), volume];
        for (const c of allContainers(pod))
          c.volumeMounts = [
            ...(c.volumeMounts ?? []),
            { name: volume.name, readOnly: true, mountPath: TOKEN_MOUNT_PATH },
          ];
      })();
    },
  };
}

function allContainers(pod: Pod) {
  return [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
}

async function legacyVolume(
  api: ApiServer,
  ns: string,
  sa: ServiceAccount,
  attrs: AdmissionAttributes,
): Promise<Volume> {
  for (const ref of sa.secrets ?? []) {
    try {
      const secret = await api.storage<Secret>({ resource: 'secrets' }).get(ns, ref.name);
      if (secret.type === SERVICE_ACCOUNT_TOKEN)
        return { name: secret.metadata.name!, secret: { secretName: secret.metadata.name!, defaultMode: 420 } };
    } catch {
      // a listed secret that is gone: try the next
    }
  }
  throw forbidden(
    attrs,
    `no API token found for service account "${ns}/${sa.metadata.name}", retry after the token is automatically created and added to the service account`,
  );
}

function projectedVolume(): Volume {
  return {
    name: `kube-api-access-${randomSuffix()}`,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
    },
  };
}

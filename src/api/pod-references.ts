import type { Pod } from './core';

/*
 * The API objects a pod's spec names, as upstream's pkg/api/pod VisitPodSecretNames and
 * VisitPodConfigmapNames walk them (image pull secrets, every volume source that carries a
 * secret reference, projected sources, and env / envFrom of containers, init containers and
 * ephemeral containers). The Node authorizer relates a node to what its pods name;
 * NodeRestriction and the ServiceAccount plugin refuse mirror pods that name any.
 */

interface Named {
  name?: string;
}
interface ContainerRefs {
  env?: { valueFrom?: { secretKeyRef?: Named; configMapKeyRef?: Named } }[];
  envFrom?: { secretRef?: Named; configMapRef?: Named }[];
}
interface VolumeRefs {
  secret?: { secretName?: string };
  configMap?: Named;
  projected?: {
    sources?: { secret?: Named; configMap?: Named; serviceAccountToken?: unknown; clusterTrustBundle?: unknown }[];
  };
  persistentVolumeClaim?: { claimName?: string };
  csi?: { nodePublishSecretRef?: Named };
  azureFile?: { secretName?: string };
  cephfs?: { secretRef?: Named };
  cinder?: { secretRef?: Named };
  flexVolume?: { secretRef?: Named };
  rbd?: { secretRef?: Named };
  scaleIO?: { secretRef?: Named };
  iscsi?: { secretRef?: Named };
  storageos?: { secretRef?: Named };
}
interface SpecRefs {
  volumes?: VolumeRefs[];
  imagePullSecrets?: Named[];
  containers?: ContainerRefs[];
  initContainers?: ContainerRefs[];
  ephemeralContainers?: ContainerRefs[];
  resourceClaims?: unknown[];
}

const specOf = (pod: Pod) => (pod.spec ?? {}) as unknown as SpecRefs;
const containersOf = (s: SpecRefs) => [
  ...(s.containers ?? []),
  ...(s.initContainers ?? []),
  ...(s.ephemeralContainers ?? []),
];
const present = (names: (string | undefined)[]) => names.filter((n): n is string => !!n);

/** Every secret a pod's spec names (empty names skipped, as skipEmptyNames does). */
export function podSecretNames(pod: Pod): string[] {
  const s = specOf(pod);
  const out: (string | undefined)[] = (s.imagePullSecrets ?? []).map((r) => r.name);
  for (const v of s.volumes ?? []) {
    out.push(
      v.secret?.secretName,
      v.csi?.nodePublishSecretRef?.name,
      v.azureFile?.secretName,
      v.cephfs?.secretRef?.name,
      v.cinder?.secretRef?.name,
      v.flexVolume?.secretRef?.name,
      v.rbd?.secretRef?.name,
      v.scaleIO?.secretRef?.name,
      v.iscsi?.secretRef?.name,
      v.storageos?.secretRef?.name,
    );
    for (const p of v.projected?.sources ?? []) out.push(p.secret?.name);
  }
  for (const c of containersOf(s)) {
    for (const e of c.env ?? []) out.push(e.valueFrom?.secretKeyRef?.name);
    for (const e of c.envFrom ?? []) out.push(e.secretRef?.name);
  }
  return present(out);
}

/** Every configmap a pod's spec names. */
export function podConfigMapNames(pod: Pod): string[] {
  const s = specOf(pod);
  const out: (string | undefined)[] = [];
  for (const v of s.volumes ?? []) {
    out.push(v.configMap?.name);
    for (const p of v.projected?.sources ?? []) out.push(p.configMap?.name);
  }
  for (const c of containersOf(s)) {
    for (const e of c.env ?? []) out.push(e.valueFrom?.configMapKeyRef?.name);
    for (const e of c.envFrom ?? []) out.push(e.configMapRef?.name);
  }
  return present(out);
}

/** The persistent volume claims a pod's volumes name. */
export function podClaimNames(pod: Pod): string[] {
  return present((specOf(pod).volumes ?? []).map((v) => v.persistentVolumeClaim?.claimName));
}

/** Whether a projected volume source of the given kind appears (serviceAccountToken, clusterTrustBundle). */
export function podProjects(pod: Pod, kind: 'serviceAccountToken' | 'clusterTrustBundle'): boolean {
  return (specOf(pod).volumes ?? []).some((v) => v.projected?.sources?.some((p) => p[kind] !== undefined));
}

/** Whether the pod claims dynamic resources (spec.resourceClaims). */
export function podHasResourceClaims(pod: Pod): boolean {
  return (specOf(pod).resourceClaims ?? []).length > 0;
}

import { Pod, Volume } from '../../api/core';
import { FITS, NodeCheck, perPod, Predicate, withForPod } from './predicate';

/*
 * The v1.12 volume predicates of the DefaultProvider, as far as this control plane has
 * volumes: it serves no PersistentVolumes, PersistentVolumeClaims or StorageClasses.
 * MaxEBSVolumeCount, MaxGCEPDVolumeCount and MaxAzureDiskVolumeCount
 * (MaxPDVolumeCountChecker) count the node's distinct volumes of their kind, inline ones by
 * ID and every PVC as one volume of each kind (a claim that cannot be looked up "counts
 * towards the limit"), against 39 (EBS) or 16 (GCE PD, Azure Disk) — or the node's
 * attachable-volumes-* allocatable (AttachVolumeLimit, beta and on in v1.12).
 * MaxCSIVolumeCount, NoVolumeZoneConflict and CheckVolumeBinding read only bound PVCs and
 * PVs: with none served, every pod passes them (upstream passes pods without PVCs too;
 * a pod with a PVC would be refused upstream for its unbound claim — not modelled).
 */

interface Kind {
  /** The volume's ID for this kind, or undefined when it is another kind. */
  id(v: Volume): string | undefined;
  defaultMax: number;
  allocatable: string;
}

const src = (v: Volume, key: string): Record<string, unknown> | undefined =>
  v[key] && typeof v[key] === 'object' ? (v[key] as Record<string, unknown>) : undefined;

function kind(key: string, field: string, defaultMax: number, allocatable: string): Kind {
  return { id: (v) => src(v, key)?.[field] as string | undefined, defaultMax, allocatable };
}

const KINDS = {
  MaxEBSVolumeCount: kind('awsElasticBlockStore', 'volumeID', 39, 'attachable-volumes-aws-ebs'),
  MaxGCEPDVolumeCount: kind('gcePersistentDisk', 'pdName', 16, 'attachable-volumes-gce-pd'),
  MaxAzureDiskVolumeCount: kind('azureDisk', 'diskName', 16, 'attachable-volumes-azure-disk'),
};

function volumeIds(pod: Pod, k: Kind, into: Set<string>): void {
  for (const v of pod.spec.volumes ?? []) {
    const id = k.id(v);
    if (id !== undefined) into.add(id);
    const claim = src(v, 'persistentVolumeClaim')?.claimName;
    if (typeof claim === 'string') into.add(`pvc:${pod.metadata.namespace ?? 'default'}/${claim}`);
  }
}

/** MaxPDVolumeCountChecker.predicate for one kind of volume. */
export function maxVolumeCount(name: keyof typeof KINDS): Predicate {
  const k = KINDS[name];
  const check =
    (wanted: ReadonlySet<string>): NodeCheck =>
    (_pod, _meta, node) => {
      const existing = new Set<string>();
      for (const p of node.pods()) volumeIds(p, k, existing);
      let added = 0;
      for (const id of wanted) if (!existing.has(id)) added++;
      const limit = node.allocatable.scalar.get(k.allocatable) ?? k.defaultMax;
      return existing.size + added > limit ? [{ kind: 'predicate', reason: 'MaxVolumeCount' }] : FITS;
    };
  // The pod's own volumes of this kind, once per cycle: most pods have none (a token secret at most) and fit everywhere.
  return perPod((pod) => {
    const ids = new Set<string>();
    volumeIds(pod, k, ids);
    return ids.size === 0 ? undefined : ids;
  }, check);
}

/** A predicate over objects this control plane does not serve (PVs, PVCs, StorageClasses, CSI drivers). */
export const noServedVolumes: Predicate = withForPod(
  () => FITS,
  () => undefined,
);

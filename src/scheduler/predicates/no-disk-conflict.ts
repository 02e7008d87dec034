import { Pod, Volume } from '../../api/core';
import { FITS, NodeCheck, perPod } from './predicate';

interface GcePd {
  pdName?: string;
  readOnly?: boolean;
}
interface AwsEbs {
  volumeID?: string;
}
interface Rbd {
  monitors?: string[];
  pool?: string;
  image?: string;
  readOnly?: boolean;
}
interface Iscsi {
  iqn?: string;
  readOnly?: boolean;
}

/**
 * isVolumeConflict (v1.12 predicates.go): only four volume types can conflict.
 * GCE PD — same pdName unless both read-only; AWS EBS — same volumeID, read-only or not;
 * Ceph RBD — a shared monitor, same pool and image, unless both read-only; iSCSI — same
 * IQN unless both read-only (v1.12 compares only the IQN).
 */
export function volumesConflict(a: Volume, b: Volume): boolean {
  const ga = a.gcePersistentDisk as GcePd | undefined;
  const gb = b.gcePersistentDisk as GcePd | undefined;
  if (ga && gb) return ga.pdName === gb.pdName && !(ga.readOnly && gb.readOnly);
  const ea = a.awsElasticBlockStore as AwsEbs | undefined;
  const eb = b.awsElasticBlockStore as AwsEbs | undefined;
  if (ea && eb) return ea.volumeID === eb.volumeID;
  const ia = a.iscsi as Iscsi | undefined;
  const ib = b.iscsi as Iscsi | undefined;
  if (ia && ib) return ia.iqn === ib.iqn && !(ia.readOnly && ib.readOnly);
  const ra = a.rbd as Rbd | undefined;
  const rb = b.rbd as Rbd | undefined;
  if (ra && rb) {
    const shared = (ra.monitors ?? []).some((m) => (rb.monitors ?? []).includes(m));
    return shared && ra.pool === rb.pool && ra.image === rb.image && !(ra.readOnly && rb.readOnly);
  }
  return false;
}

const CONFLICTING = ['gcePersistentDisk', 'awsElasticBlockStore', 'iscsi', 'rbd'];

/**
 * NoDiskConflict (framework VolumeRestrictions): the pod does not fit where a pod already
 * on the node mounts a conflicting volume.
 */
function conflictsWith(volumes: readonly Volume[]): NodeCheck {
  return (_pod, _meta, node) => {
    for (const existing of node.pods()) {
      for (const theirs of existing.spec.volumes ?? []) {
        for (const mine of volumes)
          if (volumesConflict(mine, theirs)) return [{ kind: 'predicate', reason: 'NoDiskConflict' }];
      }
    }
    return FITS;
  };
}

/** The pod's volumes of the four kinds are picked once per cycle; a pod with none fits every node. */
export const noDiskConflict = perPod((pod: Pod) => {
  const volumes = (pod.spec.volumes ?? []).filter((v) => CONFLICTING.some((t) => v[t] !== undefined));
  return volumes.length === 0 ? undefined : volumes;
}, conflictsWith);

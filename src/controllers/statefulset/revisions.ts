import { ControllerRevision } from '../../api/resources/controllerrevision';
import { StatefulSet } from '../../api/resources/statefulset';
import { PodTemplateSpec } from '../../api/resources/replicationcontroller';
import { canonical } from '../hash';

const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * Upstream HashControllerRevision: FNV-32a over the revision's data (and the collision
 * count), printed in decimal and SafeEncodeString'd. Same shape as upstream; the bytes
 * hashed are canonical JSON, so the values differ.
 */
export function hashRevision(data: unknown, collisionCount?: number): string {
  let h = 0x811c9dc5;
  const feed = (b: number) => {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  };
  for (const b of Buffer.from(JSON.stringify(canonical(data)), 'utf8')) feed(b);
  if (collisionCount !== undefined) {
    const c = Buffer.alloc(4);
    c.writeUInt32LE(collisionCount >>> 0);
    for (const b of c) feed(b);
  }
  return [...String(h >>> 0)].map((ch) => SAFE_ALPHANUMS[ch.charCodeAt(0) % SAFE_ALPHANUMS.length]).join('');
}

/** Upstream getPatch: what a StatefulSet revision records — its pod template, replacing the whole template on apply. */
export function revisionData(set: StatefulSet): unknown {
  return { spec: { template: { ...set.spec.template, $patch: 'replace' } } };
}

export function templateOf(revision: ControllerRevision): PodTemplateSpec {
  const t = { ...(revision.data as { spec: { template: PodTemplateSpec & { $patch?: string } } }).spec.template };
  delete t.$patch;
  return t;
}

/**
 * Upstream truncateHistory: keep the current and update revisions and any a live pod still
 * uses; of the rest, delete the oldest beyond revisionHistoryLimit.
 */
export function revisionsToTruncate(
  set: StatefulSet,
  revisions: readonly ControllerRevision[],
  live: ReadonlySet<string>,
  current: string,
  update: string,
): ControllerRevision[] {
  const history = [...revisions]
    .sort((a, b) => a.revision - b.revision)
    .filter((r) => r.metadata.name !== current && r.metadata.name !== update && !live.has(r.metadata.name!));
  const over = history.length - (set.spec.revisionHistoryLimit ?? 10);
  return over > 0 ? history.slice(0, over) : [];
}

import { PodTemplateSpec } from '../api/resources/replicationcontroller';

/** Keys in a stable order, so equal objects serialise equally. */
export function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  return v;
}

const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * Upstream ComputeHash (controller_utils.go): FNV-32a over the template (and the collision
 * count, little-endian, when set), printed in decimal and passed through
 * rand.SafeEncodeString (no vowels, no look-alikes). Upstream hashes Go's printed form of
 * the struct; this hashes canonical JSON, so values differ while the shape and the
 * properties (same template → same hash; collisionCount changes it) are the same.
 */
export function computeHash(template: PodTemplateSpec, collisionCount?: number): string {
  let h = 0x811c9dc5;
  const bytes = Buffer.from(JSON.stringify(canonical(template)), 'utf8');
  const feed = (b: number) => {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  };
  for (const b of bytes) feed(b);
  if (collisionCount !== undefined) {
    const c = Buffer.alloc(4);
    c.writeUInt32LE(collisionCount >>> 0);
    for (const b of c) feed(b);
  }
  return [...String(h >>> 0)].map((ch) => SAFE_ALPHANUMS[ch.charCodeAt(0) % SAFE_ALPHANUMS.length]).join('');
}

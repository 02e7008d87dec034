/** A node's topology labels (k8s.io/api/core/v1 well_known_labels.go). */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
export const REGION_LABEL = 'topology.kubernetes.io/region';
export const BETA_ZONE_LABEL = 'failure-domain.beta.kubernetes.io/zone';
export const BETA_REGION_LABEL = 'failure-domain.beta.kubernetes.io/region';

/**
 * Zone keys of the label sets seen: each monitor pass asks for every node's zone more than
 * once, and the same string (its hash kept) makes the zone maps' lookups cheap.
 */
const zoneKeys = new WeakMap<Record<string, string>, string>();

/**
 * The key a node's zone is known by (upstream GetZoneKey: k8s.io/component-helpers/node/topology
 * from v1.17, pkg/util/node before): the beta failure-domain label wins when present (even
 * empty), else the topology label; "" when neither region nor zone is set, else region +
 * ":\0:" + zone. With `betaLabelsOnly`, v1.12's rule: the topology labels did not exist yet.
 */
export function zoneKey(labels: Record<string, string> | undefined, betaLabelsOnly = false): string {
  if (!labels) return '';
  if (betaLabelsOnly) return computeZoneKey(labels, true);
  const known = zoneKeys.get(labels);
  if (known !== undefined) return known;
  const key = computeZoneKey(labels, false);
  // Only a frozen label set (an informer's) can be remembered: it cannot change under us.
  if (Object.isFrozen(labels)) zoneKeys.set(labels, key);
  return key;
}

function computeZoneKey(labels: Record<string, string>, betaLabelsOnly: boolean): string {
  const fallback = (label: string) => (betaLabelsOnly ? '' : (labels[label] ?? ''));
  const zone = BETA_ZONE_LABEL in labels ? labels[BETA_ZONE_LABEL] : fallback(ZONE_LABEL);
  const region = BETA_REGION_LABEL in labels ? labels[BETA_REGION_LABEL] : fallback(REGION_LABEL);
  if (region === '' && zone === '') return '';
  return `${region}:\x00:${zone}`;
}

import { Node } from '../api/core';

/** utilnode.GetZoneKey (v1.12): region and zone from the beta failure-domain labels; "" when neither is set. */
export function zoneKey(node: Node | undefined): string {
  const l = node?.metadata.labels ?? {};
  const region = l['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  if (region === '' && zone === '') return '';
  return `${region}:\u0000:${zone}`;
}

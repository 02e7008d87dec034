import { loadProfile } from '../cluster/profile';
import { ClusterDriver } from './driver';
import { ReferenceDriver } from './reference';

export * from './driver';

export const TARGETS = ['reference'] as const;

/** Makes the driver for a target and profile (one per scenario). */
export function createDriver(target: string, profileName: string): ClusterDriver {
  const profile = loadProfile(profileName);
  switch (target) {
    case 'reference':
      return new ReferenceDriver(profile);
    default:
      throw new Error(`unknown target "${target}" (known: ${TARGETS.join(', ')})`);
  }
}

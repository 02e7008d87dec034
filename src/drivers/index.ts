import * as path from 'node:path';
import { loadProfile, Profile } from '../cluster/profile';
import { ClusterDriver } from './driver';
import { ReferenceDriver } from './reference';

export * from './driver';

export const TARGETS = ['reference'] as const;

/**
 * What a third-party driver module exports (CommonJS or transpiled ESM): its target name
 * and a factory making one driver per scenario.
 */
export interface DriverModule {
  target: string;
  createDriver(profile: Profile): ClusterDriver;
}

export function loadDriverModule(file: string): DriverModule {
  const resolved = path.resolve(file);
  let mod: Partial<DriverModule> & { default?: Partial<DriverModule> };
  try {
    mod = require(resolved);
  } catch (e) {
    throw new Error(`cannot load driver module ${file}: ${(e as Error).message}`);
  }
  const m = mod.createDriver ? mod : mod.default ?? {};
  if (typeof m.createDriver !== 'function' || typeof m.target !== 'string') {
    throw new Error(`driver module ${file} must export "target" (a name) and "createDriver(profile)"`);
  }
  return m as DriverModule;
}

/** Makes the driver for a target and profile (one per scenario). */
export function createDriver(target: string, profileName: string, driverModule?: string): ClusterDriver {
  const profile = loadProfile(profileName);
  if (driverModule) return loadDriverModule(driverModule).createDriver(profile);
  switch (target) {
    case 'reference':
      return new ReferenceDriver(profile);
    default:
      throw new Error(`unknown target "${target}" (known: ${TARGETS.join(', ')})`);
  }
}

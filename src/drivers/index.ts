import * as path from 'node:path';
import { Flags, loadProfile, Profile } from '../profile/profile';
import { ClusterDriver } from './driver';
import { ReferenceDriver } from './reference';
import { KubeDriver } from './kube';
import { ScopedDriver } from './scoped';
import { ServeDriver } from './serve';
import { ServeHaDriver } from './serve-ha';
import { UpstreamDriver } from './upstream';
import { containerRunner } from './container/components';
import { containerEngine } from './container';
import { loadTargetDeclaration } from './targets';
import { KubeconfigClient } from '../client/kubeconfig';
import { coreRegistry } from '../api/resources';

export * from './driver';

// The rest of what steps may know of the layers below the driver (ARCHITECTURE.md): the
// profile's flag vocabulary, the scheduler's decision as the driver reports it, and a
// certificate authority for scenarios that need an unrelated one.
export { componentOf } from '../profile/flags';
export type { Component, Flags, Profile } from '../profile/profile';
export { formatDecision } from '../scheduler/decision';

/** A client acting as whoever a kubeconfig names, as any other user of that file would. */
export function clientFromKubeconfig(file: string, context?: string): KubeconfigClient {
  return KubeconfigClient.fromFile(file, coreRegistry({ endpointSlices: true }), context);
}
export type { SchedulingDecision } from '../scheduler/decision';
export { CertificateAuthority } from '../apiserver/auth/pki';

export const TARGETS = ['reference', 'serve', 'serve-ha', 'upstream', 'kube', 'container', 'k3s'] as const;

/** What a run tells the driver factory beyond the target and profile. */
export interface TargetOptions {
  /** A third-party driver module (--driver). */
  driverModule?: string;
  /** kube: the kubeconfig and context to judge. */
  kubeconfig?: string;
  context?: string;
  /** kube: what the target declares about itself (a name in targets/ or a YAML path). */
  targetConfig?: string;
  /** serve: flags forced on every server (to judge a deliberately wrong one). */
  serveFlags?: Flags;
  /** serve: the servers' clock. */
  serveClock?: 'virtual' | 'real';
}

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
  const m = mod.createDriver ? mod : (mod.default ?? {});
  if (typeof m.createDriver !== 'function' || typeof m.target !== 'string') {
    throw new Error(`driver module ${file} must export "target" (a name) and "createDriver(profile)"`);
  }
  return m as DriverModule;
}

/** Makes the driver for a target and profile (one per scenario). */
export function createDriver(target: string, profileName: string, options: TargetOptions = {}): ClusterDriver {
  const profile = loadProfile(profileName);
  if (options.driverModule) return loadDriverModule(options.driverModule).createDriver(profile);
  switch (target) {
    case 'reference':
      return new ReferenceDriver(profile);
    case 'serve': {
      const clock = options.serveClock ?? 'virtual';
      const declaration = { ...loadTargetDeclaration(options.targetConfig ?? 'serve'), profile: profile.name };
      if (clock === 'real') declaration.capabilities = { ...declaration.capabilities, virtualTime: false };
      return new ServeDriver(profile, declaration, { profileArg: profileName, clock, forcedFlags: options.serveFlags });
    }
    case 'serve-ha': {
      const declaration = { ...loadTargetDeclaration(options.targetConfig ?? 'serve-ha'), profile: profile.name };
      return new ServeHaDriver(profile, declaration, { profileArg: profileName });
    }
    case 'upstream': {
      const declaration = loadTargetDeclaration(options.targetConfig ?? 'upstream');
      return new UpstreamDriver(profile, declaration);
    }
    case 'kube':
    case 'container':
    case 'k3s': {
      const declaration = loadTargetDeclaration(options.targetConfig ?? target);
      // upstream/image/ per scenario: the upstream target, its components each in a container
      // (container/components.ts). Any image per run: `kubespec run` started it and hands its
      // kubeconfig on, to be judged as any cluster is.
      if (target !== 'kube' && declaration.container?.mode === 'scenario')
        return new UpstreamDriver(profile, declaration, {
          runner: containerRunner(declaration.container, containerEngine),
        });
      if (!options.kubeconfig) throw new Error(`target ${target} needs a kubeconfig (--kubeconfig FILE)`);
      const driver = new KubeDriver(
        profile,
        declaration,
        KubeconfigClient.fromFile(options.kubeconfig, coreRegistry({ endpointSlices: true }), options.context),
      );
      // A cluster that outlives the run: names, namespace and clean-up of the scenario's own.
      if (!declaration.shared) return driver;
      return new ScopedDriver(driver, declaration.maxScenarioTimeMs * 2 + 10 * 60_000);
    }
    default:
      throw new Error(`unknown target "${target}" (known: ${TARGETS.join(', ')})`);
  }
}

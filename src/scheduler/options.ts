import * as fs from 'node:fs';
import { ClusterConfig } from '../profile/config';
import { frameworkPlugins, legacyProvider } from './providers';
import { algorithmFromPolicy, parsePolicy } from './policy';
import { SchedulerOptions } from './scheduler';

/**
 * The scheduler's configuration from the profile and the kube-scheduler flags. The seed
 * profile (v1.12) runs the legacy predicates and priorities: --algorithm-provider
 * (default DefaultProvider) or --policy-config-file. The kubernetes-1.32 profile runs the
 * framework's default plugins; those releases have neither flag (the Policy API was
 * removed in v1.23, algorithm providers in v1.22).
 */
export function schedulerOptions(c: ClusterConfig): SchedulerOptions {
  const f = c.flags['kube-scheduler'];
  const framework = c.profile.features.schedulerFramework ?? false;
  const name = f['scheduler-name'] ?? 'default-scheduler';
  if (framework) {
    if (f['policy-config-file'] || f['algorithm-provider']) {
      throw new Error(
        `kube-scheduler ${c.profile.kubernetesVersion} has no --policy-config-file or --algorithm-provider (removed in v1.23 and v1.22)`,
      );
    }
    return {
      schedulerName: name,
      algorithm: frameworkPlugins(),
      percentageOfNodesToScore: 0,
      alwaysCheckAllPredicates: false,
      recordDecisions: true,
    };
  }
  const file = f['policy-config-file'];
  if (file) {
    const policy = parsePolicy(fs.readFileSync(file, 'utf8'));
    return {
      schedulerName: name,
      algorithm: algorithmFromPolicy(policy, c.profile.features.taintNodesByCondition),
      percentageOfNodesToScore: 50,
      alwaysCheckAllPredicates: policy.alwaysCheckAllPredicates ?? false,
      recordDecisions: true,
    };
  }
  return {
    schedulerName: name,
    algorithm: legacyProvider(f['algorithm-provider'] ?? 'DefaultProvider', c.profile.features.taintNodesByCondition),
    percentageOfNodesToScore: 50,
    alwaysCheckAllPredicates: false,
    recordDecisions: true,
  };
}

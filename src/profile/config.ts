import { Flags, mergeFlags, Profile } from './profile';
import { parseFlags, ParsedFlags } from './flags';

/** A control plane's whole configuration: a profile and flag overrides on top of it. */
export interface ClusterConfig {
  profile: Profile;
  flags: ParsedFlags;
}

export function clusterConfig(profile: Profile, overrides: Flags = {}): ClusterConfig {
  return { profile, flags: parseFlags(mergeFlags(profile.flags, overrides)) };
}

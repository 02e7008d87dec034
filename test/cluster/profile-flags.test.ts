import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  controllerManagerOptions,
  kubeletConfig,
  leaderElectionOptions,
  leaderElectionSettings,
  nodeControllerOptions,
  nodeLifecycleOptions,
  schedulerOptions,
  REMOVED_FLAGS,
  servingOptions,
  UNSET_FLAGS,
} from '../../src/cluster/config';
import { clusterConfig, ClusterConfig } from '../../src/profile/config';
import { knownFlags } from '../../src/profile/flags';
import { Component, loadProfile, profileNames } from '../../src/profile/profile';

/**
 * Every default lives in the profiles: src/cluster/config.ts is the one module that turns
 * flags into options, and each profile states every flag it reads (but the few whose unset
 * value means "off", UNSET_FLAGS).
 */
const ROOT = path.resolve(__dirname, '../..');
const COMPONENTS: Component[] = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubelet'];

/** The config with each component's flags behind a proxy that records every name read. */
function recording(c: ClusterConfig): { config: ClusterConfig; read: Map<Component, Set<string>> } {
  const read = new Map<Component, Set<string>>(COMPONENTS.map((k) => [k, new Set<string>()]));
  const flags = Object.fromEntries(
    COMPONENTS.map((k) => [
      k,
      new Proxy(c.flags[k] as Record<string, unknown>, {
        get(target, name) {
          if (typeof name === 'string') read.get(k)!.add(name);
          return target[name as string];
        },
      }),
    ]),
  ) as unknown as ClusterConfig['flags'];
  return { config: { ...c, flags }, read };
}

/** Every translation config.ts offers, once. */
function translateAll(c: ClusterConfig): void {
  nodeLifecycleOptions(c);
  nodeControllerOptions(c);
  controllerManagerOptions(c);
  servingOptions(c);
  leaderElectionOptions(c);
  leaderElectionSettings(c);
  schedulerOptions(c);
  kubeletConfig(c, { name: 'node-1' });
}

for (const name of profileNames()) {
  test(`profile ${name} states every flag the reference reads`, () => {
    const profile = loadProfile(name);
    // --leader-elect on as well, so that its timings are read.
    for (const overrides of [{}, { 'kube-controller-manager': { 'leader-elect': 'true' } }]) {
      const { config, read } = recording(clusterConfig(profile, overrides));
      translateAll(config);
      for (const k of COMPONENTS) {
        const stated = new Set(Object.keys(profile.flags[k] ?? {}));
        const missing = [...read.get(k)!].filter(
          (f) =>
            knownFlags(k).includes(f) &&
            !stated.has(f) &&
            !UNSET_FLAGS[k].includes(f) &&
            // looked at only to refuse it where the profile's release has no such flag
            !REMOVED_FLAGS[k].includes(f) &&
            !(f in overrides),
        );
        assert.deepEqual(missing, [], `${k} flags read but not stated by profiles/${name}.yaml`);
      }
    }
  });
}

test('a flag the profile does not state is an error, not a default made up in code', () => {
  const profile = loadProfile('seed');
  const flags = { ...profile.flags, 'kube-apiserver': { ...profile.flags['kube-apiserver'] } };
  delete flags['kube-apiserver']['secure-port'];
  assert.throws(
    () => servingOptions(clusterConfig({ ...profile, flags })),
    /profile seed sets no value for --secure-port/,
  );
});

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/**
 * Where flags may be read besides config.ts: the profile layer (it parses them), and the
 * drivers and `kubespec serve`'s arguments, which write other processes' command lines from
 * the flags' text rather than build the reference's components.
 */
const MAY_READ_FLAGS = [/^src\/cluster\/config\.ts$/, /^src\/profile\//, /^src\/drivers\//, /^src\/cli\/serve\.ts$/];

/**
 * The profile's flags as text, read outside the profile layer: only where the text itself is
 * what is needed. A default a driver uses as a value (the secure port a scenario judging the
 * defaults gets, the lock an HA pair elects with) comes through config.ts (servingOptions,
 * leaderElectionSettings), never from the profile's text for one flag with a fallback of the
 * driver's own. Each allowed read, with its reason; an entry that no longer matches fails too.
 */
const PROFILE_TEXT_READS: { file: string; line: RegExp; why: string }[] = [
  {
    file: 'src/drivers/kube.ts',
    line: /const dflt = this\.profile\.flags\[c\]\?\.\[flag\];/,
    why: "a declared target's flags are compared, as text, with the profile's for every flag the declaration names",
  },
  {
    file: 'src/drivers/init-target.ts',
    line: /const defaults = profile\.flags\['kube-controller-manager'\] \?\? \{\};/,
    why: "init-target writes the profile's values into a declaration for a person to confirm; `?? {}`: a profile that states no flag of the component",
  },
  {
    file: 'src/drivers/upstream.ts',
    line: /mergeFlags\(this\.profile\.flags, this\.flags\)(\['kube-controller-manager'\] \?\? \{\};|\)?;)$/,
    why: "the merged text becomes upstream's command lines (translateFlags) or its cloud's; `?? {}`: a profile that states no flag of the component",
  },
  {
    file: 'src/drivers/upstream.ts',
    line: /return translateFlags\(all, this\.flags, this\.profile\.flags\);$/,
    why: "translateFlags passes on a flag the profile's release lacks (kube-controller-manager then refuses it: 'unknown flag'), which only the profile's text tells",
  },
  {
    file: 'src/cluster/config.ts',
    line: /if \(set\[flag\] !== undefined && c\.profile\.flags\[component\]\?\.\[flag\] === undefined\)/,
    why: "a flag set that the profile's release does not state is a removed flag (REMOVED_FLAGS): refused as 'unknown flag', as the release's binary does",
  },
];

test('only src/cluster/config.ts turns flags into options, and no flag gets a default in code (drivers included)', () => {
  const names = COMPONENTS.flatMap((k) => knownFlags(k)).map((f) => f.replace(/[-]/g, '\\-'));
  const defaulted = new RegExp(`\\[['"](${names.join('|')})['"]\\]\\s*\\?\\?`);
  const reads =
    /flags\s*(\[\s*['"](kube-apiserver|kube-controller-manager|kube-scheduler|kubelet)['"]\s*\]|\.kubelet\b)/;
  const profileText = /\bprofile\.flags\b/;
  const offenders: string[] = [];
  const allowedUsed = new Set<number>();
  for (const file of sources(path.join(ROOT, 'src'))) {
    const rel = path.relative(ROOT, file).split(path.sep).join('/');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      const at = `${rel}:${i + 1}: ${line.trim()}`;
      if (defaulted.test(line)) offenders.push(at);
      if (!MAY_READ_FLAGS.some((r) => r.test(rel)) && reads.test(line)) offenders.push(at);
      if (!rel.startsWith('src/profile/') && profileText.test(line)) {
        const allowed = PROFILE_TEXT_READS.findIndex((a) => a.file === rel && a.line.test(line));
        if (allowed < 0) offenders.push(at);
        else allowedUsed.add(allowed);
      }
    });
  }
  assert.deepEqual(offenders, []);
  const stale = PROFILE_TEXT_READS.filter((_, i) => !allowedUsed.has(i)).map((a) => a.file);
  assert.deepEqual(stale, [], 'allowed reads of the profile text that match nothing any more');
});

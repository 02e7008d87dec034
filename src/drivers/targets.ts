import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { parseDuration } from '../api/duration';
import { COMPONENTS, Component, Flags } from '../profile/profile';
import { parseFlags } from '../profile/flags';

/**
 * What a target declares about itself: the profile it follows, the flags it runs with,
 * what the suite may do to it, and how long a scenario may take there.
 */
export interface TargetDeclaration {
  name: string;
  profile: string;
  description: string;
  configurableFlags: boolean;
  capabilities: { virtualTime: boolean; hollowKubelets: boolean; cloudProvider: boolean };
  /**
   * The cluster outlives the run and may be shared (default): each scenario's names are its
   * own, it sees only its own nodes, and it removes what it made (ScopedDriver).
   */
  shared: boolean;
  /** Longest (real) time one scenario may need, ms. */
  maxScenarioTimeMs: number;
  flags: Flags;
  /** The store `kubespec serve` keeps its objects in (serve target): sqlite (default, as `kubespec serve`), memory or etcd. */
  store: 'memory' | 'sqlite' | 'etcd';
}

export const TARGET_DIR = path.resolve(__dirname, '../../targets');

export function loadTargetDeclaration(nameOrPath: string): TargetDeclaration {
  const file = nameOrPath.endsWith('.yaml') ? nameOrPath : path.join(TARGET_DIR, `${nameOrPath}.yaml`);
  if (!fs.existsSync(file)) throw new Error(`no target declaration ${file}`);
  const doc = yaml.load(fs.readFileSync(file, 'utf8')) as Record<string, unknown> | undefined;
  const where = path.relative(process.cwd(), file) || file;
  const need = (cond: unknown, what: string) => {
    if (!cond) throw new Error(`${where}: ${what}`);
  };
  need(doc && typeof doc === 'object', 'not a YAML mapping');
  need(typeof doc!.name === 'string', 'missing "name"');
  need(typeof doc!.profile === 'string', 'missing "profile"');
  need(typeof doc!.configurableFlags === 'boolean', '"configurableFlags" must be true or false');
  const caps = (doc!.capabilities ?? {}) as Record<string, unknown>;
  for (const k of ['virtualTime', 'hollowKubelets', 'cloudProvider'])
    need(typeof caps[k] === 'boolean', `capabilities.${k} must be true or false`);
  need(doc!.shared === undefined || typeof doc!.shared === 'boolean', '"shared" must be true or false');
  const flags: Flags = {};
  for (const [c, f] of Object.entries((doc!.flags ?? {}) as Record<string, Record<string, unknown>>)) {
    need(COMPONENTS.includes(c as Component), `flags: unknown component "${c}"`);
    flags[c as Component] = Object.fromEntries(Object.entries(f ?? {}).map(([k, v]) => [k, String(v)]));
  }
  parseFlags(flags); // unknown names and bad values fail here, not mid-run
  need(
    doc!.store === undefined || ['memory', 'sqlite', 'etcd'].includes(doc!.store as string),
    '"store" must be memory, sqlite or etcd',
  );
  return {
    name: doc!.name as string,
    profile: doc!.profile as string,
    description: String(doc!.description ?? ''),
    configurableFlags: doc!.configurableFlags as boolean,
    capabilities: caps as TargetDeclaration['capabilities'],
    shared: doc!.shared === undefined ? true : (doc!.shared as boolean),
    maxScenarioTimeMs: doc!.maxScenarioTime ? parseDuration(String(doc!.maxScenarioTime)) : 10 * 60_000,
    flags,
    store: (doc!.store as TargetDeclaration['store'] | undefined) ?? 'sqlite',
  };
}

/**
 * The flags a scenario asks for that a fixed target does not run with: each becomes a
 * not-applicable reason. Values are compared by meaning (40s = 0m40s).
 */
export function unmetFlags(declared: Flags, wanted: Flags): string[] {
  const d = parseFlags(declared);
  const w = parseFlags(wanted);
  const out: string[] = [];
  for (const c of COMPONENTS) {
    for (const [flag, value] of Object.entries(w[c] as Record<string, unknown>)) {
      const have = (d[c] as Record<string, unknown>)[flag];
      if (have === undefined) out.push(`--${flag}=${wanted[c]![flag]} (the target does not declare its value)`);
      else if (have !== value) out.push(`--${flag}=${wanted[c]![flag]} (it runs with ${declared[c]![flag]})`);
    }
  }
  return out;
}

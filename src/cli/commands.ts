// The commands' options, once: node:util.parseArgs reads the command line from them, and
// the synopsis (`kubespec --help`, the README's "The command" section, checked by
// test/cli/commands.test.ts) is printed from them. Loads nothing heavy: --help must be quick.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from 'node:util';

export interface OptionDef {
  name: string;
  type: 'string' | 'boolean';
  /** may be given more than once (each value kept) */
  multiple?: boolean;
  short?: string;
  /** what the value is, in the synopsis: FILE, N, EXPR… */
  value?: string;
  /** the default, shown in the synopsis; not applied by the parser (the command applies it) */
  shown?: string;
}

export interface CommandDef {
  name: string;
  /** the positionals, in the synopsis: "[feature paths…]", "DIR…" */
  positionals?: string;
  options: OptionDef[];
  /** options the synopsis leaves to the command's --help (there are too many) */
  unlisted?: string[];
}

const HELP_OPTION: OptionDef = { name: 'help', type: 'boolean', short: 'h' };

/** How a command reaches a cluster: kubectl's two flags. */
const CLUSTER_OPTIONS: OptionDef[] = [
  { name: 'kubeconfig', type: 'string', value: 'FILE', shown: '$KUBECONFIG' },
  { name: 'context', type: 'string', value: 'NAME' },
];

export const RUN: CommandDef = {
  name: 'run',
  positionals: '[feature paths[:line]…]',
  options: [
    { name: 'target', type: 'string', value: 'reference|serve|serve-ha|upstream|kube|container|k3s' },
    { name: 'driver', type: 'string', value: './driver.js' },
    { name: 'profile', type: 'string', value: 'seed|kubernetes-1.32|file.yaml' },
    ...CLUSTER_OPTIONS,
    { name: 'target-config', type: 'string', value: 'targets/x.yaml' },
    { name: 'serve-clock', type: 'string', value: 'virtual|real' },
    { name: 'serve-flag', type: 'string', multiple: true, value: 'NAME=VALUE' },
    { name: 'tags', type: 'string', value: 'EXPR' },
    { name: 'report-dir', type: 'string', value: 'DIR', shown: 'reports' },
    { name: 'label', type: 'string', value: 'NAME' },
    { name: 'fail-fast', type: 'boolean' },
    { name: 'parallel', type: 'string', value: 'N' },
    { name: 'lengths', type: 'string', value: 'FILE.json' },
    { name: 'rerun-failed', type: 'boolean' },
    { name: 'shard', type: 'string', value: 'INDEX/TOTAL' },
    { name: 'quiet-summary', type: 'boolean' },
    { name: 'all-applicable', type: 'boolean' },
    { name: 'dry-run', type: 'boolean' },
    HELP_OPTION,
  ],
};

export const REPORT: CommandDef = {
  name: 'report',
  positionals: 'DIR…',
  options: [{ name: 'out', type: 'string', value: 'DIR', shown: 'reports' }, HELP_OPTION],
};

export const DOCS: CommandDef = {
  name: 'docs',
  options: [
    { name: 'results', type: 'string', multiple: true, value: 'DIR' },
    { name: 'out', type: 'string', value: 'DIR', shown: 'reports/docs' },
    { name: 'profile', type: 'string', value: 'NAME', shown: 'seed' },
    HELP_OPTION,
  ],
};

export const INIT_TARGET: CommandDef = {
  name: 'init-target',
  options: [
    ...CLUSTER_OPTIONS,
    { name: 'name', type: 'string', value: 'NAME', shown: 'my-cluster' },
    { name: 'out', type: 'string', value: 'FILE' },
    HELP_OPTION,
  ],
};

export const CLEAN: CommandDef = {
  name: 'clean',
  options: [...CLUSTER_OPTIONS, { name: 'expired-only', type: 'boolean' }, HELP_OPTION],
};

/** `kubespec serve` takes any control-plane flag by its upstream name: its parser is its own (serve.ts). */
export const SERVE: CommandDef = {
  name: 'serve',
  positionals: '[--<control-plane flag> VALUE]…',
  options: [
    { name: 'profile', type: 'string', value: 'NAME', shown: 'seed' },
    { name: 'clock', type: 'string', value: 'virtual|real' },
    { name: 'data-dir', type: 'string', value: 'DIR', shown: '~/.kubespec' },
    { name: 'store', type: 'string', value: 'sqlite|sqlite:FILE|etcd://…|memory' },
    { name: 'secure-port', type: 'string', value: 'PORT', shown: '6443' },
    HELP_OPTION,
  ],
};

export const COMMANDS: readonly CommandDef[] = [RUN, REPORT, DOCS, INIT_TARGET, CLEAN, SERVE];

/** A command line the command cannot take: exit 2, with this message. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** the options as given, in order (for rerun commands) */
  given: { name: string; value?: string }[];
}

/** Reads argv with node:util.parseArgs (strict): an unknown flag, or a flag missing its value, is a UsageError. */
export function parseCommand(def: CommandDef, argv: string[]): Parsed {
  const options: ParseArgsConfig['options'] = {};
  for (const o of def.options)
    options[o.name] = {
      type: o.type,
      ...(o.multiple ? { multiple: true } : {}),
      ...(o.short ? { short: o.short } : {}),
    };
  let parsed: ReturnType<typeof nodeParseArgs>;
  try {
    parsed = nodeParseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    const known = def.options.map((o) => `--${o.name}`).join(', ');
    throw new UsageError(`kubespec ${def.name}: ${(e as Error).message.split('\n')[0]} (known flags: ${known})`);
  }
  const given: Parsed['given'] = [];
  for (const t of parsed.tokens ?? [])
    if (t.kind === 'option') given.push({ name: t.name, ...(t.value !== undefined ? { value: t.value } : {}) });
  return { values: parsed.values as Parsed['values'], positionals: parsed.positionals, given };
}

/** The last value of a string option, or the fallback. */
export function str(p: Parsed, name: string, fallback?: string): string | undefined {
  const v = p.values[name];
  if (Array.isArray(v)) return v.length ? v[v.length - 1] : fallback;
  return typeof v === 'string' ? v : fallback;
}

export function list(p: Parsed, name: string): string[] {
  const v = p.values[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

export function flag(p: Parsed, name: string): boolean {
  return p.values[name] === true;
}

/** One command's synopsis line(s), wrapped at 100 columns under `kubespec NAME`. */
export function synopsis(def: CommandDef): string {
  const head = `kubespec ${def.name}`;
  const parts = def.options
    .filter((o) => o.name !== 'help' && !def.unlisted?.includes(o.name))
    .map((o) => {
      const value = o.value ? ` ${o.value}` : '';
      const shown = o.shown ? ` (${o.shown})` : '';
      return `[--${o.name}${value}${shown}]${o.multiple ? '…' : ''}`;
    });
  if (def.positionals) parts.push(def.positionals);
  parts.push('[-h|--help]');
  const lines: string[] = [];
  let line = head;
  for (const p of parts) {
    if (line.length + 1 + p.length > 100 && line.trim() !== '') {
      lines.push(line);
      line = ' '.repeat(head.length);
    }
    line += ` ${p}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/** Every command's synopsis: the README's "The command" block. */
export function synopses(): string {
  return [...COMMANDS.map(synopsis), 'kubespec --version', 'kubespec help'].join('\n');
}

/** package.json's version, for --version. */
export function version(): string {
  const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The kubeconfig a command reaches a cluster with: --kubeconfig, else $KUBECONFIG (its first file), as kubectl. */
export function kubeconfigOf(given: string | undefined): string | undefined {
  const file = given ?? process.env.KUBECONFIG?.split(path.delimiter).find((f) => f !== '');
  return file ? path.resolve(file) : undefined;
}

/**
 * The environment variable the run sets to its background-errors.log, read by worker-setup.ts
 * in each Cucumber process (here, not there: importing that module is what installs it).
 */
export const BACKGROUND_LOG_ENV = 'KUBESPEC_BACKGROUND_LOG';

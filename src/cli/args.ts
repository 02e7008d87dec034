/**
 * The lenient flag parser of `kubespec serve`, which takes any control-plane flag by its
 * upstream name (the other commands read theirs with node:util.parseArgs, commands.ts):
 * --name value, --name=value, boolean --flag, positionals.
 */
export interface ParsedArgs {
  flags: Map<string, string[]>;
  positionals: string[];
}

export function parseArgs(argv: string[], booleans: readonly string[] = []): ParsedArgs {
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('--')) {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    let value: string;
    if (eq > 0) value = a.slice(eq + 1);
    else if (booleans.includes(name)) value = 'true';
    else {
      if (i + 1 >= argv.length) throw new Error(`flag --${name} needs a value`);
      value = argv[++i];
    }
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { flags, positionals };
}

export function one(args: ParsedArgs, name: string, fallback?: string): string | undefined {
  const v = args.flags.get(name);
  return v ? v[v.length - 1] : fallback;
}

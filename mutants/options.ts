// The mutation check's command line: its options (HELP), their parsing, and which mutants of the
// catalogue they select.
import * as path from 'node:path';
import { Mutant, PROFILES, ROOT } from './catalogue';
import { seededRandom } from '../src/util/random';

export const HELP = `npm run mutants -- [options]      (node mutants/main.js [options])

  --ids A,B            only these mutants (mutant ids, or behaviour IDs: every mutant naming one)
  --sample N           a deterministic sample of N mutants (--seed S, default 1)
  --shard I/N          every N-th mutant starting at the I-th (after --ids/--sample), for CI
  --profiles P,Q       judge on these profiles only (default: seed,kubernetes-1.32)
  --jobs N             judge N mutants at once, each in its own scratch copy (default 1)
  --timeout S          a judge running longer than S seconds is stopped; the mutant counts as
                       killed (it hung the scenarios), as Stryker does (default 180)
  --no-baseline        skip the check that the selected scenarios pass without a mutant (only
                       when they just passed, e.g. npm test on both profiles of the same tree)
  --hints FILE         a previous result file: each mutant first runs alone the scenarios that
                       killed it there, then (if none turns red) all its scenarios
                       (default: the --out file, when it exists)
  --no-hints           always run all of a mutant's scenarios
  --out FILE           where the results go (default reports/mutants.json)
  --list               print the selected mutants and exit
  merge A.json B.json… --out FILE   merge shard results into one file

Exit codes: 0 every judged mutant killed; 1 some survived or could not be judged; 2 bad usage,
a catalogue error, or a failing baseline.`;

export interface Options {
  ids?: string[];
  sample?: number;
  seed: number;
  shard?: [number, number];
  profiles: string[];
  jobs: number;
  timeoutS: number;
  baseline: boolean;
  out: string;
  hints?: string | false;
  list: boolean;
}

export function parse(argv: string[]): Options | 'help' {
  const o: Options = {
    seed: 1,
    profiles: [...PROFILES],
    jobs: 1,
    timeoutS: 180,
    baseline: true,
    out: path.join(ROOT, 'reports', 'mutants.json'),
    list: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const int = (v: string, min: number): number => {
      if (!/^\d+$/.test(v) || Number(v) < min) throw new Error(`${arg} wants an integer ≥ ${min}, got "${v}"`);
      return Number(v);
    };
    switch (arg) {
      case '--help':
      case '-h':
        return 'help';
      case '--ids':
        o.ids = value()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case '--sample':
        o.sample = int(value(), 1);
        break;
      case '--seed':
        o.seed = int(value(), 0);
        break;
      case '--shard': {
        const v = value();
        const m = /^(\d+)\/(\d+)$/.exec(v);
        if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
          throw new Error(`--shard wants I/N with 1 ≤ I ≤ N, got "${v}"`);
        o.shard = [Number(m[1]), Number(m[2])];
        break;
      }
      case '--profiles': {
        o.profiles = value().split(',');
        for (const p of o.profiles)
          if (!(PROFILES as readonly string[]).includes(p))
            throw new Error(`--profiles: unknown profile "${p}" (known: ${PROFILES.join(', ')})`);
        break;
      }
      case '--jobs':
        o.jobs = int(value(), 1);
        break;
      case '--timeout':
        o.timeoutS = int(value(), 1);
        break;
      case '--no-baseline':
        o.baseline = false;
        break;
      case '--hints':
        o.hints = path.resolve(value());
        break;
      case '--no-hints':
        o.hints = false;
        break;
      case '--out':
        o.out = path.resolve(value());
        break;
      case '--list':
        o.list = true;
        break;
      default:
        throw new Error(`unknown option "${arg}"\n\n${HELP}`);
    }
  }
  return o;
}

export function select(
  all: Mutant[],
  o: Pick<Options, 'ids' | 'sample' | 'seed' | 'shard'>,
): { mutants: Mutant[]; selection: string } {
  let mutants = all;
  const parts: string[] = [];
  if (o.ids) {
    const unknown = o.ids.filter((id) => !all.some((m) => m.id === id || m.behaviours.includes(id)));
    if (unknown.length > 0) throw new Error(`--ids: no mutant is or names ${unknown.join(', ')}`);
    mutants = mutants.filter((m) => o.ids!.includes(m.id) || m.behaviours.some((b) => o.ids!.includes(b)));
    parts.push(`ids ${o.ids.join(',')}`);
  }
  if (o.sample !== undefined && o.sample < mutants.length) {
    const rnd = seededRandom(o.seed); // reproducible from --seed
    const order = mutants
      .map((m) => ({ m, k: rnd() }))
      .sort((a, b) => a.k - b.k)
      .slice(0, o.sample)
      .map((x) => x.m);
    mutants = mutants.filter((m) => order.includes(m)); // keep catalogue order
    parts.push(`sample ${o.sample} (seed ${o.seed})`);
  }
  if (o.shard) {
    const [i, n] = o.shard;
    mutants = mutants.filter((_, k) => k % n === i - 1);
    parts.push(`shard ${i}/${n}`);
  }
  return { mutants, selection: parts.length > 0 ? parts.join(', ') : 'all' };
}

// What a run would run, known before anything is started: Cucumber's own plan (its path
// resolution, tag filter and sharding, through loadSources), and, when it is empty, why —
// the paths that name no file, the tags no selected scenario carries, a hint when a tag
// names no catalogued behaviour. An empty selection is a usage error (exit 2), never a
// green run; a --tags syntax error is one too, with the parser's own words.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as gherkin from '@cucumber/gherkin';
import * as msgs from '@cucumber/messages';
import { loadCatalogue } from '../report/catalogue';
import { UsageError } from './commands';

export interface PlannedScenario {
  uri: string;
  line: number;
  name: string;
}

export interface SelectionInput {
  /** absolute paths (a file, a directory, a glob), each maybe with :line suffixes */
  paths: string[];
  /** the paths as the user typed them, for messages (same order as paths) */
  typed: string[];
  tags: string;
  shard?: string;
  /** Cucumber's cwd: the package root */
  cwd: string;
}

const LINES = /^(.*?)((?::\d+)+)?$/;
const GLOB = /[*?[\]{}]/;

/** The scenarios Cucumber would run; a UsageError when the selection is empty or malformed. */
export async function plan(input: SelectionInput): Promise<PlannedScenario[]> {
  const missing = input.paths
    .map((p, i) => ({ file: LINES.exec(p)![1], typed: input.typed[i] }))
    .filter(({ file }) => !GLOB.test(file) && !fs.existsSync(file))
    .map(({ typed }) => typed);
  if (missing.length > 0)
    throw new UsageError(
      `no such feature file or directory: ${missing.join(', ')} (paths are read from the current directory, ${process.cwd()})`,
    );
  const selected = await load(input, input.tags);
  if (selected.length > 0) return selected;
  throw new UsageError(`the selection is empty: no scenario to run\n${await whyEmpty(input)}`);
}

async function load(input: SelectionInput, tags: string): Promise<PlannedScenario[]> {
  const { loadSources } = await import('@cucumber/cucumber/api');
  let result: Awaited<ReturnType<typeof loadSources>>;
  try {
    result = await loadSources(
      {
        defaultDialect: 'en',
        paths: input.paths,
        names: [],
        tagExpression: tags,
        order: 'defined',
        ...(input.shard ? { shard: input.shard } : {}),
      },
      { cwd: input.cwd },
    );
  } catch (e) {
    // Cucumber wraps the tag parser's error; its cause says what is wrong ("Unmatched (.").
    const cause = (e as Error & { cause?: Error }).cause;
    const why = cause?.message ? `: ${cause.message}` : '';
    if (tags && /tag|expression/i.test(`${(e as Error).message} ${cause?.message ?? ''}`))
      throw new UsageError(`--tags '${tags}' is not a tag expression${why || `: ${(e as Error).message}`}`);
    throw new UsageError(`the features cannot be read: ${(e as Error).message}${why}`);
  }
  if (result.errors.length > 0)
    throw new UsageError(
      `the features do not parse:\n${result.errors.map((e) => `  ${e.uri}:${e.location.line}: ${e.message}`).join('\n')}`,
    );
  return result.plan.map((p) => ({ uri: p.uri, line: p.location.line, name: p.name }));
}

/** Why nothing was selected: the lines that match no scenario, the tags no scenario carries, the shard. */
async function whyEmpty(input: SelectionInput): Promise<string> {
  const unfiltered = await load({ ...input, shard: undefined }, '');
  if (unfiltered.length === 0) {
    const withLines = input.typed.filter((p) => LINES.exec(p)![2]);
    return withLines.length
      ? `  no scenario starts on the lines given: ${withLines.join(', ')}`
      : `  ${input.typed.length ? input.typed.join(', ') : 'features/'} holds no scenario`;
  }
  const reasons: string[] = [];
  if (input.tags) {
    const have = new Set(scenarioTags(unfiltered, input.cwd).flatMap((s) => s.tags));
    const named = [...new Set(input.tags.match(/@[^\s()]+/g) ?? [])];
    const absent = named.filter((t) => !have.has(t));
    for (const tag of absent)
      reasons.push(`  ${tag} is on none of the ${unfiltered.length} scenarios in the paths given${hint(tag)}`);
    if (absent.length === 0)
      reasons.push(`  --tags '${input.tags}' selects none of the ${unfiltered.length} scenarios in the paths given`);
  }
  if (reasons.length === 0 && input.shard)
    reasons.push(`  --shard ${input.shard} is empty: the selection has only ${unfiltered.length} scenario(s)`);
  return reasons.join('\n');
}

/** For a tag shaped like a behaviour ID that is not in the catalogue: say so, and name the nearest. */
function hint(tag: string): string {
  if (!/^@[A-Z][A-Z0-9-]+$/.test(tag)) return '';
  const ids = loadCatalogue().map((b) => b.id);
  const id = tag.slice(1);
  if (ids.includes(id)) return '';
  const nearest = ids
    .map((c) => ({ c, d: distance(id, c) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, 1)
    .filter(({ d }) => d <= Math.max(3, Math.floor(id.length / 4)));
  return ` — and names no behaviour in features/behaviours.yaml${nearest.length ? ` (did you mean @${nearest[0].c}?)` : ''}`;
}

/** Levenshtein distance, for the nearest behaviour ID. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

export interface ScenarioDetail extends PlannedScenario {
  tags: string[];
  steps: string[];
}

/** The planned scenarios with their tags (the feature's and rule's included) and step texts, from Gherkin. */
export function scenarioTags(planned: PlannedScenario[], cwd: string): ScenarioDetail[] {
  const byUri = new Map<string, ScenarioDetail[]>();
  for (const uri of new Set(planned.map((p) => p.uri))) {
    const envelopes = gherkin.generateMessages(
      fs.readFileSync(path.resolve(cwd, uri), 'utf8'),
      uri,
      msgs.SourceMediaType.TEXT_X_CUCUMBER_GHERKIN_PLAIN,
      { includeGherkinDocument: true, includePickles: true, includeSource: false, newId: msgs.IdGenerator.uuid() },
    );
    const lines = new Map<string, number>();
    const index = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      const n = node as { id?: string; location?: { line: number } };
      if (n.id && n.location) lines.set(n.id, n.location.line);
      for (const v of Object.values(node)) if (v && typeof v === 'object') index(v);
    };
    const details: ScenarioDetail[] = [];
    for (const e of envelopes) {
      if (e.gherkinDocument) index(e.gherkinDocument);
      if (e.pickle) {
        const ids = e.pickle.astNodeIds;
        details.push({
          uri,
          name: e.pickle.name,
          line: e.pickle.location?.line ?? lines.get(ids[ids.length - 1]) ?? 0,
          tags: e.pickle.tags.map((t) => t.name),
          steps: e.pickle.steps.map((s) => s.text),
        });
      }
    }
    byUri.set(uri, details);
  }
  return planned.map(
    (p) => byUri.get(p.uri)?.find((d) => d.line === p.line && d.name === p.name) ?? { ...p, tags: [], steps: [] },
  );
}

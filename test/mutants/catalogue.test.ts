// The mutant catalogue (mutants/catalogue.yaml) is valid against the working tree and the
// behaviour catalogue: each edit's snippet occurs exactly once, every named behaviour exists, and
// every catalogued behaviour has at least one mutant. Also the runner's selection options and the
// conformance report's mutation column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  applyMutant,
  loadMutants,
  loadUnjudged,
  MutantCatalogueError,
  PROFILES,
  tagExpression,
} from '../../mutants/catalogue';
import { loadHints } from '../../mutants/run';
import { select } from '../../mutants/options';
import { parseScenario, scenarioName } from '../../mutants/worker';
import { loadCatalogue } from '../../src/report/catalogue';
import { buildConformance } from '../../src/report/conformance';
import { renderConformanceHtml } from '../../src/report/html';
import { mergeMutationReports, MutantResult, MutationReport, summarise } from '../../src/report/mutation';

const ROOT = path.resolve(__dirname, '../..');

test('every mutant applies to the working tree exactly where it says, and changes it', () => {
  const mutants = loadMutants();
  assert.ok(mutants.length >= 73);
  for (const m of mutants) {
    const changed = applyMutant(m, (f) => fs.readFileSync(path.join(ROOT, f), 'utf8'));
    for (const [file, text] of changed)
      assert.notEqual(text, fs.readFileSync(path.join(ROOT, file), 'utf8'), `${m.id}: ${file} unchanged`);
  }
});

test('every catalogued behaviour is named by at least one mutant', () => {
  const named = new Set(loadMutants().flatMap((m) => m.behaviours));
  // Informative behaviours are checkable on no target (their notApplicableReason says why).
  const missing = loadCatalogue()
    .filter((b) => !b.informative && !named.has(b.id))
    .map((b) => b.id);
  assert.deepEqual(missing, []);
});

test('on each profile every behaviour has a mutant judged there, or a reasoned unjudged entry', () => {
  const mutants = loadMutants();
  const unjudged = loadUnjudged();
  const behaviours = loadCatalogue().filter((b) => !b.informative);
  for (const profile of PROFILES) {
    const judged = new Set(mutants.filter((m) => m.profiles.includes(profile)).flatMap((m) => m.behaviours));
    const exempt = unjudged.get(profile) ?? new Map<string, string>();
    const missing = behaviours.filter((b) => !judged.has(b.id) && !exempt.has(b.id)).map((b) => b.id);
    assert.deepEqual(missing, [], `${profile}: behaviours with no mutant judged on this profile`);
    const stale = [...exempt.keys()].filter((id) => judged.has(id) || !behaviours.some((b) => b.id === id));
    assert.deepEqual(stale, [], `${profile}: unjudged entries that have a mutant or name no behaviour`);
  }
});

const made: string[] = [];
test.after(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

function writeCatalogue(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-mutcat-'));
  made.push(dir);
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'a.ts'), 'const x = 1;\nconst y = 1;\n');
  fs.writeFileSync(path.join(dir, 'catalogue.yaml'), text);
  return dir;
}

test('a snippet that is absent, ambiguous, or a behaviour that is unknown is a clear error', () => {
  const ids = new Set(['NODE-CIDR']);
  const entry = (find: string, behaviour = 'NODE-CIDR') =>
    `mutants:\n  - id: m1\n    title: t\n    behaviours: [${behaviour}]\n    file: src/a.ts\n    find: "${find}"\n    replace: "z"\n`;
  let dir = writeCatalogue(entry('const x = 1;'));
  assert.equal(loadMutants(path.join(dir, 'catalogue.yaml'), dir, ids).length, 1);
  dir = writeCatalogue(entry('= 1;'));
  assert.throws(
    () => loadMutants(path.join(dir, 'catalogue.yaml'), dir, ids),
    (e: Error) => e instanceof MutantCatalogueError && /occurs 2 times/.test(e.message),
  );
  dir = writeCatalogue(entry('const w'));
  assert.throws(() => loadMutants(path.join(dir, 'catalogue.yaml'), dir, ids), /occurs 0 times/);
  dir = writeCatalogue(entry('const x = 1;', 'NOPE'));
  assert.throws(
    () => loadMutants(path.join(dir, 'catalogue.yaml'), dir, ids),
    /NOPE.*not in features\/behaviours.yaml/,
  );
});

test('selection: --ids by mutant or behaviour, a reproducible --sample, --shard splits without overlap', () => {
  const all = loadMutants();
  const byBehaviour = select(all, { ids: ['NODE-CIDR'], seed: 1 }).mutants;
  assert.ok(byBehaviour.length >= 1 && byBehaviour.every((m) => m.behaviours.includes('NODE-CIDR')));
  const a = select(all, { sample: 10, seed: 7 }).mutants.map((m) => m.id);
  assert.deepEqual(
    select(all, { sample: 10, seed: 7 }).mutants.map((m) => m.id),
    a,
  );
  assert.equal(a.length, 10);
  const shards = [1, 2, 3].map((i) => select(all, { shard: [i, 3], seed: 1 }).mutants.map((m) => m.id));
  assert.equal(new Set(shards.flat()).size, all.length);
  assert.equal(shards.flat().length, all.length);
  assert.throws(() => select(all, { ids: ['no-such-mutant'], seed: 1 }), /no mutant is or names no-such-mutant/);
  assert.equal(tagExpression(['A-B', 'C']), '@A-B or @C');
});

function result(
  id: string,
  behaviours: string[],
  seed: 'killed' | 'survived',
  k132?: 'killed' | 'survived',
): MutantResult {
  const profiles: MutantResult['profiles'] = {
    seed: { status: seed, ran: 1, notApplicable: 0, failed: seed === 'killed' ? ['x'] : [], ms: 1 },
  };
  if (k132) profiles['kubernetes-1.32'] = { status: k132, ran: 1, notApplicable: 0, failed: [], ms: 1 };
  const status = Object.values(profiles).every((p) => p.status === 'killed') ? 'killed' : 'survived';
  return { id, title: id, behaviours, files: ['src/a.ts'], status, profiles, ms: 2 };
}

test('the conformance report shows per behaviour whether its mutants were all killed', () => {
  const mutants = [
    result('m1', ['NODE-CIDR'], 'killed', 'killed'),
    result('m2', ['NODE-CIDR', 'NODE-CORDON'], 'killed', 'survived'),
    result('m3', ['NODE-LABELS'], 'killed'),
  ];
  const profiles = ['seed', 'kubernetes-1.32'];
  const mutation: MutationReport = {
    generatedAt: '2026-01-01T00:00:00Z',
    durationMs: 5,
    selection: 'all',
    catalogueSize: 3,
    profiles,
    mutants,
    withoutMutants: [],
    ...summarise(mutants, profiles),
  };
  assert.deepEqual(mutation.totals.byProfile['kubernetes-1.32'], { killed: 1, survived: 1, error: 0 });
  assert.equal(mutation.behaviours['NODE-CIDR'].allKilled, false);
  const report = buildConformance(loadCatalogue(), [], { mutation });
  const row = (id: string) => report.rows.find((r) => r.id === id)!;
  assert.deepEqual(row('NODE-CIDR').mutants, { total: 2, killed: 1, allKilled: false, survivors: ['m2'] });
  assert.deepEqual(row('NODE-LABELS').mutants, { total: 1, killed: 1, allKilled: true, survivors: [] });
  assert.equal(row('NODE-INFO').mutants?.total, 0);
  const html = renderConformanceHtml(report);
  assert.match(html, /mutants all killed/);
  assert.match(html, /1 survived/);
  const merged = mergeMutationReports([
    { ...mutation, mutants: [mutants[0]] },
    { ...mutation, mutants: mutants.slice(1) },
  ]);
  assert.equal(merged.totals.mutants, 3);
  assert.equal(merged.totals.killed, 2);
});

test('hints: the scenarios that killed a mutant, per profile, read back from a result file', () => {
  const name = 'A scenario: with "quotes", (parens) and a.dot';
  assert.deepEqual(parseScenario(scenarioName('features/x/y.feature', name)), { uri: 'features/x/y.feature', name });
  assert.equal(parseScenario('(the run failed without a failing scenario)'), undefined);
  const killed = result('m1', ['NODE-CIDR'], 'killed', 'killed');
  killed.profiles.seed.failed = [scenarioName('features/a.feature', 'one')];
  killed.profiles['kubernetes-1.32'].failed = [
    scenarioName('features/b.feature', 'two'),
    '(the run failed without a failing scenario)',
  ];
  const survived = result('m2', ['NODE-CIDR'], 'survived');
  const profiles = ['seed', 'kubernetes-1.32'];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-hints-'));
  made.push(dir);
  const file = path.join(dir, 'mutants.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      generatedAt: 'x',
      durationMs: 1,
      selection: 'all',
      catalogueSize: 2,
      profiles,
      mutants: [killed, survived],
      withoutMutants: [],
      ...summarise([killed, survived], profiles),
    }),
  );
  const hints = loadHints(file);
  assert.deepEqual(hints.get('m1'), {
    seed: [{ uri: 'features/a.feature', name: 'one' }],
    'kubernetes-1.32': [{ uri: 'features/b.feature', name: 'two' }],
  });
  assert.equal(hints.has('m2'), false);
});

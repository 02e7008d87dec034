import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/**
 * The layer rule of ARCHITECTURE.md, checked on every import (type-only included): a module
 * may import its own folder or a folder of a lower layer, never a higher one and never a
 * sibling of its own layer; and no chain of imports may come back to where it started.
 */
const ROOT = path.resolve(__dirname, '..');

/**
 * Each controller is a room of its own (as upstream's pkg/controller/<name> packages): every
 * folder under src/controllers is a component, a sibling of the others; what several share
 * (ownership, pod control, expectations, indexes, node writes) is in src/controllers itself,
 * the layer just below them.
 */
const CONTROLLER_FOLDERS = fs
  .readdirSync(path.join(ROOT, 'src/controllers'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => `src/controllers/${e.name}`);

/** Highest layer first. Folders on one line are siblings: they may not import each other. */
const LAYERS: string[][] = [
  ['steps', 'src/cli'],
  ['src/drivers', 'src/report'],
  ['src/cluster'],
  ['src/apiserver', ...CONTROLLER_FOLDERS, 'src/kubelet', 'src/scheduler', 'src/kubeproxy'],
  ['src/controllers'],
  ['src/quota', 'src/serviceaccount', 'src/cloud'],
  ['src/client'],
  ['src/store'],
  ['src/profile'],
  ['src/api', 'src/clock'],
  ['src/util'],
];

/** What steps may see besides their own folder: the driver, the API's types, the report vocabulary (and helpers with no Kubernetes meaning). */
const STEPS_MAY_IMPORT = ['src/drivers', 'src/api', 'src/report', 'src/util'];

function folderOf(file: string): string {
  const parts = path.relative(ROOT, file).split(path.sep);
  if (parts[0] === 'src' && parts[1] === 'controllers' && parts.length > 3) return `src/controllers/${parts[2]}`;
  return parts[0] === 'src' ? `src/${parts[1]}` : parts[0];
}

function layerOf(folder: string): number {
  const i = LAYERS.findIndex((l) => l.includes(folder));
  if (i < 0)
    throw new Error(
      `${folder} has no layer in test/architecture.test.ts: give it one (and a place in ARCHITECTURE.md)`,
    );
  return i;
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
}

/** Every relative import of every file (import, export … from, import type, import()). */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((i) => i.fileName)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolve(file, s))
      .filter((t): t is string => t?.endsWith('.ts') === true);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan), i.e. the import cycles. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>(),
    low = new Map<string, number>(),
    on = new Set<string>(),
    stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

const files = [...walk(path.join(ROOT, 'src')), ...walk(path.join(ROOT, 'steps'))];
const graph = importGraph(files);
const rel = (f: string) => path.relative(ROOT, f);

test('imports only point down the layers of ARCHITECTURE.md', () => {
  const bad: string[] = [];
  for (const [from, tos] of graph) {
    const a = folderOf(from);
    for (const to of tos) {
      const b = folderOf(to);
      if (a === b) continue;
      const [la, lb] = [layerOf(a), layerOf(b)];
      if (la > lb) bad.push(`up:       ${rel(from)} -> ${rel(to)}`);
      else if (la === lb) bad.push(`sideways: ${rel(from)} -> ${rel(to)}`);
      else if (a === 'steps' && !STEPS_MAY_IMPORT.includes(b))
        bad.push(`steps see only ${STEPS_MAY_IMPORT.join(', ')}: ${rel(from)} -> ${rel(to)}`);
    }
  }
  assert.deepEqual(bad, [], `imports against the layers:\n  ${bad.join('\n  ')}`);
});

test('drivers ask the Cluster, never reach into its components', () => {
  const reach = /\bcluster\.(controllers|nodeControllers|nodeLifecycle|scheduler|api|store|proxies|informers)\b/g;
  const bad = walk(path.join(ROOT, 'src/drivers')).flatMap((f) =>
    fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .flatMap((line, i) => (line.match(reach) ?? []).map((m) => `${rel(f)}:${i + 1}: ${m}`)),
  );
  assert.deepEqual(
    bad,
    [],
    `drivers reaching into the cluster's components (add what they need to Cluster):\n  ${bad.join('\n  ')}`,
  );
});

test('no import cycle, type-only imports included', () => {
  const found = cycles(graph).map((c) => c.map(rel).join(' <-> '));
  assert.deepEqual(found, [], `import cycles:\n  ${found.join('\n  ')}`);
});

test('the cycle finder finds a cycle and the layer map knows every folder', () => {
  assert.deepEqual(
    cycles(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a']],
        ['d', ['a']],
      ]),
    ),
    [['a', 'b', 'c']],
  );
  for (const f of files) layerOf(folderOf(f));
});

/**
 * A scheduler release is its plugin set and its SchedulerRelease (src/scheduler/release.ts),
 * chosen once from the profile: no scheduler module asks which release it runs in.
 */
test('no scheduler module compares a release by name (era, legacy/framework)', () => {
  const asks = /\bera\b|===?\s*'(legacy|framework)'|'(legacy|framework)'\s*===?/;
  const bad = walk(path.join(ROOT, 'src/scheduler')).flatMap((f) =>
    fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .map((line, i) => ({ line, i }))
      .filter(({ line }) => !/^\s*(\*|\/\/|\/\*)/.test(line) && asks.test(line.replace(/\/\/.*$/, '')))
      .map(({ line, i }) => `${rel(f)}:${i + 1}: ${line.trim()}`),
  );
  assert.deepEqual(bad, []);
});

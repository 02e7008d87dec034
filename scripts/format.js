#!/usr/bin/env node
// `npm run format`: Biome's formatter and safe fixes over the tree (`biome check --write`), and
// the mutant catalogue carried along. A mutant is an exact edit (`find` must occur once in its
// file), so a reformat would leave it pointing at text that no longer exists. For every edit in a
// file Biome formats, this formats the file once as it is and once with the edit applied (the
// same tool, the same settings), and rewrites the edit as the whole lines where the two formatted
// texts differ, with as many lines around them as it takes to occur exactly once. The mutant
// breaks the same code after the reformat as before it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const yaml = require('js-yaml');

const ROOT = path.resolve(__dirname, '..');
const CATALOGUE = path.join(ROOT, 'mutants', 'catalogue.yaml');
const SCRATCH = path.join(ROOT, '.kubespec', 'format');
const FORMATTED = /\.(ts|js|cjs|mjs|json|jsonc)$/;

function biome(args) {
  const r = spawnSync(process.execPath, [require.resolve('@biomejs/biome/bin/biome'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status: r.status ?? 1, out: `${r.stdout}${r.stderr}` };
}

const occurrences = (text, snippet) => text.split(snippet).length - 1;

/** The edits of the catalogue in the order its lines give them: mutant, edit number, file, find, replace. */
function catalogueEdits() {
  const doc = yaml.load(fs.readFileSync(CATALOGUE, 'utf8'));
  const out = [];
  for (const m of doc?.mutants ?? []) {
    const edits = m.edits ?? [{ file: m.file, find: m.find, replace: m.replace }];
    edits.forEach((e, i) => {
      out.push({ id: m.id, index: i, file: e.file, find: e.find, replace: e.replace });
    });
  }
  return out;
}

/** Where the formatted original and the formatted mutant differ, as whole lines, made unique. */
function carry(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  let top = 0;
  while (top < a.length && top < b.length && a[top] === b[top]) top++;
  let tail = 0;
  while (tail < a.length - top && tail < b.length - top && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  if (top === a.length && top === b.length) return undefined; // the edit only changed the format
  let from = top;
  let to = a.length - tail; // a[from, to) becomes b[from, b.length - tail)
  const bTo = () => b.length - (a.length - to);
  const find = () => a.slice(from, to).join('\n');
  let grow = 0;
  while (from === to || occurrences(before, find()) !== 1) {
    if (from === 0 && to === a.length) return undefined;
    if ((grow++ % 2 === 0 && from > 0) || to === a.length) from--;
    else to++;
  }
  const replace = b.slice(from, bTo()).join('\n');
  // Lines deleted whole: take their line break too, so no blank line is left where they were.
  if (replace === '' && from === top && to === a.length - tail && to < a.length)
    return { find: `${find()}\n`, replace };
  return { find: find(), replace };
}

/** A YAML scalar for value in the quoting style of the line it replaces, where that style can hold it. */
function scalar(value, old) {
  if (old.startsWith("'") && !/[\n\r\t]/.test(value)) return `'${value.replace(/'/g, "''")}'`;
  return JSON.stringify(value); // a JSON string is a YAML double-quoted scalar
}

/** Rewrites the find/replace lines of the catalogue in place, keeping every other line as it is. */
function rewriteCatalogue(moved) {
  const lines = fs.readFileSync(CATALOGUE, 'utf8').split('\n');
  let id;
  const seen = new Map();
  for (let i = 0; i < lines.length; i++) {
    const mid = /^\s*- id: (.+)$/.exec(lines[i]);
    if (mid) id = yaml.load(mid[1]);
    const kv = /^(\s*(?:- )?)(find|replace): (.*)$/.exec(lines[i]);
    if (!kv || id === undefined) continue;
    const key = `${id}#${kv[2]}`;
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    const m = moved.get(`${id}#${index}`);
    if (m) lines[i] = `${kv[1]}${kv[2]}: ${scalar(m[kv[2]], kv[3])}`;
  }
  fs.writeFileSync(CATALOGUE, lines.join('\n'));
}

function main() {
  const edits = fs.existsSync(CATALOGUE) ? catalogueEdits().filter((e) => FORMATTED.test(e.file)) : [];
  fs.rmSync(SCRATCH, { recursive: true, force: true });
  const pending = [];
  edits.forEach((e, n) => {
    const text = fs.readFileSync(path.join(ROOT, e.file), 'utf8');
    if (occurrences(text, e.find) !== 1) {
      console.error(`format: mutant ${e.id}: its find does not occur exactly once in ${e.file}; left as it is`);
      return;
    }
    const mutated = path.join(SCRATCH, String(n), e.file);
    fs.mkdirSync(path.dirname(mutated), { recursive: true });
    fs.writeFileSync(
      mutated,
      text.replace(e.find, () => e.replace),
    );
    pending.push({ ...e, mutated });
  });
  // The mutated copies first (under .kubespec/, which git and so Biome otherwise ignore); a copy
  // Biome cannot parse stays as written and its mutant is reported below.
  if (pending.length > 0) biome(['check', '--write', '--vcs-use-ignore-file=false', SCRATCH]);
  const r = biome(['check', '--write', '.']);
  process.stdout.write(r.out);
  const moved = new Map();
  let kept = 0;
  for (const e of pending) {
    const now = fs.readFileSync(path.join(ROOT, e.file), 'utf8');
    if (occurrences(now, e.find) === 1) {
      kept++;
      continue; // the reformat left this edit's text alone
    }
    const c = carry(now, fs.readFileSync(e.mutated, 'utf8'));
    if (!c) {
      console.error(`format: mutant ${e.id}: could not carry its edit of ${e.file} over; fix its find by hand`);
      continue;
    }
    moved.set(`${e.id}#${e.index}`, c);
  }
  if (moved.size > 0) rewriteCatalogue(moved);
  fs.rmSync(SCRATCH, { recursive: true, force: true });
  if (edits.length > 0)
    console.log(`format: mutant edits carried over: ${moved.size}, unchanged: ${kept}, of ${edits.length}`);
  process.exitCode = r.status;
}

main();

#!/usr/bin/env node
// npm run build (and npm ci, through "prepare"): compiles src/ to dist/ with tsconfig.build.json
// and stamps dist/ with the hash of the sources it compiled (see dist.js), so that bin/kubespec
// runs it only while it is current. Nothing to do when the stamp already matches (--force
// rebuilds anyway). On a compile error dist/ stays unstamped and bin/kubespec runs the sources.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, HASH_FILE, distState, markBuilt, sourceHash } = require('./dist');

const DIST = path.join(ROOT, 'dist');
const SRC = path.join(ROOT, 'src');

function tsc() {
  const bin = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  return spawnSync(process.execPath, [bin, '-p', path.join(ROOT, 'tsconfig.build.json')], {
    stdio: 'inherit',
    cwd: ROOT,
  }).status;
}

/** Compiled files whose source is gone (moved or removed): never loaded, but misleading. */
function removeOrphans() {
  let removed = 0;
  for (const rel of fs.readdirSync(DIST, { recursive: true })) {
    const m = /^(.*)\.(js|js\.map|d\.ts)$/.exec(rel);
    if (!m || fs.existsSync(path.join(SRC, `${m[1]}.ts`))) continue;
    fs.rmSync(path.join(DIST, rel));
    removed++;
  }
  return removed;
}

/** Sources without their compiled file (say, one deleted from dist/ by hand: tsc -incremental would not notice). */
function missingOutputs() {
  return fs
    .readdirSync(SRC, { recursive: true })
    .filter((rel) => rel.endsWith('.ts') && !rel.endsWith('.d.ts'))
    .filter((rel) => !fs.existsSync(path.join(DIST, rel.replace(/\.ts$/, '.js'))));
}

function main() {
  const force = process.argv.includes('--force');
  if (!force && distState(ROOT).fresh) {
    console.log('dist/ is up to date with src/');
    return 0;
  }
  const hash = sourceHash(ROOT); // before compiling: an edit made meanwhile leaves dist/ stale
  fs.rmSync(path.join(DIST, HASH_FILE), { force: true });
  const started = Date.now();
  const fromScratch = () => {
    fs.rmSync(path.join(DIST, '.tsbuildinfo'), { force: true });
    return tsc();
  };
  let status = force ? fromScratch() : tsc();
  if (status === 0 && missingOutputs().length > 0) status = fromScratch();
  if (status !== 0) {
    console.error(
      `build: tsc failed (exit ${status}); dist/ is not current, bin/kubespec runs the sources through ts-node`,
    );
    return status || 1;
  }
  const missing = missingOutputs();
  if (missing.length > 0) {
    console.error(`build: tsc wrote no output for ${missing.join(', ')}`);
    return 1;
  }
  const orphans = removeOrphans();
  markBuilt(hash, ROOT);
  console.log(
    `dist/ built from src/ in ${((Date.now() - started) / 1000).toFixed(1)}s${orphans ? ` (${orphans} stale file(s) removed)` : ''}`,
  );
  return 0;
}

process.exitCode = main();

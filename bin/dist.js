'use strict';
// The compiled control plane (dist/, from `npm run build`) and how to tell whether it is the
// current one. Plain JavaScript: bin/kubespec needs it before anything TypeScript can load.
//
// dist/ is "fresh" when dist/.source-hash holds the hash of what src/ and the tsconfigs hold now:
// the build writes it only after tsc has compiled those very sources without an error. Any
// edit, added, removed or renamed file under src/ makes it stale, whatever the files' times say
// (checkouts, copies and clocks make modification times an unreliable witness).
//
// One copy of each module per process: when bin/kubespec runs dist/, useDist() makes every
// require that resolves to a TypeScript source under src/ (the step files import ../src/...)
// load the compiled file under dist/ instead, so a class or a shared registry exists once.
// Cucumber's parallel workers install the same mapping through bin/use-dist.js.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const HASH_FILE = '.source-hash';
/** What the build reads besides src/ (compiler options change the output). */
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

/** A hash of every file under src/ (path and content) and of the tsconfigs. */
function sourceHash(root = ROOT) {
  const hash = crypto.createHash('sha256');
  const src = path.join(root, 'src');
  const files = fs
    .readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) =>
      path
        .relative(src, path.join(e.parentPath ?? e.path, e.name))
        .split(path.sep)
        .join('/'),
    )
    .sort();
  for (const rel of files)
    hash
      .update(`src/${rel}\0`)
      .update(fs.readFileSync(path.join(src, rel)))
      .update('\0');
  for (const rel of CONFIGS) {
    const file = path.join(root, rel);
    if (fs.existsSync(file)) hash.update(`${rel}\0`).update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** { fresh, reason }: whether dist/ was built from the sources as they are now. */
function distState(root = ROOT) {
  let built;
  try {
    built = fs.readFileSync(path.join(root, 'dist', HASH_FILE), 'utf8').trim();
  } catch {
    return { fresh: false, reason: 'dist/ is not built' };
  }
  if (built !== sourceHash(root)) return { fresh: false, reason: 'dist/ is older than src/' };
  return { fresh: true };
}

/** Marks dist/ as built from the given hash (the build calls it after tsc succeeded). */
function markBuilt(hash, root = ROOT) {
  fs.writeFileSync(path.join(root, 'dist', HASH_FILE), `${hash}\n`);
}

let installed = false;

/**
 * From now on, a require that resolves to root/src/X.ts loads root/dist/X.js. Resolution
 * itself is node's (and ts-node's), so index files and extensions behave as before.
 */
function useDist(root = ROOT) {
  if (installed) return;
  installed = true;
  const Module = require('node:module');
  const src = path.join(root, 'src') + path.sep;
  const dist = path.join(root, 'dist') + path.sep;
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function resolveToDist(request, parent, isMain, options) {
    let file;
    try {
      file = resolve.call(this, request, parent, isMain, options);
    } catch (e) {
      // Without ts-node (a plain-JavaScript --driver module, say) "../src/x" cannot resolve to
      // x.ts at all: resolve the same path under dist/.
      const relative = path.isAbsolute(request) || /^\.\.?([\\/]|$)/.test(request);
      const target =
        e && e.code === 'MODULE_NOT_FOUND' && relative && parent?.filename
          ? path.resolve(path.dirname(parent.filename), request)
          : undefined;
      if (target === undefined || !(target + path.sep).startsWith(src)) throw e;
      return resolve.call(this, dist + target.slice(src.length), parent, isMain, options);
    }
    if (typeof file !== 'string' || !file.startsWith(src) || !file.endsWith('.ts') || file.endsWith('.d.ts'))
      return file;
    const compiled = `${dist + file.slice(src.length, -3)}.js`;
    if (!fs.existsSync(compiled)) {
      // Fresh dist/ has every source compiled; loading the source instead would make a second copy.
      throw new Error(
        `kubespec: ${path.relative(root, file)} has no compiled ${path.relative(root, compiled)}; run npm run build`,
      );
    }
    return compiled;
  };
}

module.exports = { ROOT, HASH_FILE, sourceHash, distState, markBuilt, useDist };

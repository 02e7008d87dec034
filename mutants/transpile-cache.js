// A require hook for .ts files that keeps each file's transpiled JavaScript on disk, keyed by a
// hash of its text: a mutant changes one file, so its judge re-transpiles that file alone instead
// of all of src/ and steps/ (what ts-node does in every new process). Type-checking stays
// `npm run typecheck`'s job, as with TS_NODE_TRANSPILE_ONLY. Plain JavaScript so that it can be
// installed before anything TypeScript is loaded.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CACHE_DIR = path.join(os.tmpdir(), 'kubespec-mutants-transpiled');

/** Compiles .ts files under root with the project's tsconfig, from the cache when unchanged. */
function installTranspileCache(root, cacheDir = CACHE_DIR) {
  const ts = require('typescript');
  const tsconfig = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.convertCompilerOptionsFromJson(tsconfig.config?.compilerOptions || {}, root);
  const compilerOptions = {
    ...options,
    module: ts.ModuleKind.CommonJS,
    inlineSourceMap: true,
    sourceMap: false,
    declaration: false,
  };
  fs.mkdirSync(cacheDir, { recursive: true });
  const salt = `${ts.version}\n${JSON.stringify(compilerOptions)}\n`;
  require.extensions['.ts'] = (module, file) => {
    const source = fs.readFileSync(file, 'utf8');
    // Keyed by the path within the project, not the absolute one: the output does not depend on
    // where the copy lives (its inline source map names the file alone), so the working tree and
    // every scratch copy of every run share one cache, and only a mutated file is compiled again.
    const rel = path.relative(root, file);
    const name = rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
    const key = crypto.createHash('sha1').update(salt).update(name).update('\0').update(source).digest('hex');
    const cached = path.join(cacheDir, `${key}.js`);
    let code;
    try {
      code = fs.readFileSync(cached, 'utf8');
    } catch {
      code = ts.transpileModule(source, { compilerOptions, fileName: file, reportDiagnostics: false }).outputText;
      const tmp = `${cached}.${process.pid}`;
      fs.writeFileSync(tmp, code);
      fs.renameSync(tmp, cached);
    }
    module._compile(code, file);
  };
}

module.exports = { installTranspileCache, CACHE_DIR };

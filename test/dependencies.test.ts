import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The report reads Cucumber's messages and Gherkin with the same libraries Cucumber runs
 * with: @cucumber/gherkin and @cucumber/messages must be exactly the versions
 * @cucumber/cucumber pins, or the two would disagree on a message's shape.
 */
const ROOT = path.resolve(__dirname, '..');
const json = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const own = json(path.join(ROOT, 'package.json'));
/** The copy this project's imports resolve to (some packages do not export their package.json). */
const installed = (name: string) => json(path.join(ROOT, 'node_modules', name, 'package.json'));
const cucumber = installed('@cucumber/cucumber');

for (const name of ['@cucumber/gherkin', '@cucumber/messages']) {
  test(`${name} is pinned to what @cucumber/cucumber ${cucumber.version} pins`, () => {
    const pinned = cucumber.dependencies[name];
    assert.equal(
      own.dependencies[name],
      pinned,
      `package.json: "${name}": "${pinned}" (exactly what @cucumber/cucumber pins)`,
    );
    const version = installed(name).version;
    assert.equal(version, pinned, `installed ${name} ${version}, @cucumber/cucumber pins ${pinned}`);
  });
}

test('one entry per package, and no package both a dependency and a devDependency', () => {
  const both = Object.keys(own.dependencies ?? {}).filter((n) => n in (own.devDependencies ?? {}));
  assert.deepEqual(both, []);
});

/** Every file under dir (recursively) whose name ends in one of exts. */
function filesUnder(dir: string, exts: readonly string[]): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return filesUnder(full, exts);
    return exts.some((x) => e.name.endsWith(x)) ? [full] : [];
  });
}

/** The packages a file imports or requires by name (not node: built-ins, not relative paths). */
function packagesOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const names = new Set<string>();
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s+['"]([^'"]+)['"]/gm), // import … from 'x'
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm), // import 'x'
    ...text.matchAll(/\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g), // require('x'), import('x')
  ].map((m) => m[1]);
  for (const spec of specs) {
    if (spec.startsWith('.') || spec.startsWith('/')) continue;
    if (spec.startsWith('node:')) continue;
    const parts = spec.split('/');
    names.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return [...names];
}

test('what the shipped code imports is a dependency (not a devDependency); types and test tools are devDependencies', () => {
  const builtins = new Set(require('node:module').builtinModules as string[]);
  // What `kubespec` runs: the reference, the harness, the CLI and the mutation runner.
  const shipped = ['src', 'steps', 'bin', 'mutants'].flatMap((d) => filesUnder(path.join(ROOT, d), ['.ts', '.js']));
  const missing: string[] = [];
  for (const file of shipped) {
    for (const name of packagesOf(file)) {
      if (builtins.has(name) || name in (own.dependencies ?? {})) continue;
      missing.push(`${path.relative(ROOT, file)} imports ${name}`);
    }
  }
  assert.deepEqual(missing, [], 'add these to "dependencies"');
  const misplaced = Object.keys(own.dependencies ?? {}).filter(
    (n) => n.startsWith('@types/') || ['fast-check', '@biomejs/biome'].includes(n),
  );
  assert.deepEqual(misplaced, [], 'type packages, the fuzzer and the linter belong in "devDependencies"');
});

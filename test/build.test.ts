import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// The build step (bin/build.js, bin/dist.js): when dist/ counts as current, and the one-copy rule
// — a process running dist/ loads every src/ module from dist/, also through TypeScript files
// (the step files) that import ../src/.

const ROOT = path.resolve(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dist = require('../bin/dist') as {
  sourceHash(root: string): string;
  distState(root: string): { fresh: boolean; reason?: string };
  markBuilt(hash: string, root: string): void;
};

function scratch(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-build-test-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

test('dist/ is current only for the exact sources it was built from: an edit, a new, a removed or a renamed file, or a tsconfig change makes it stale', () => {
  const root = scratch({
    'src/a.ts': 'export const a = 1;\n',
    'src/sub/b.ts': 'export const b = 2;\n',
    'tsconfig.json': '{}',
  });
  try {
    assert.deepEqual(dist.distState(root), { fresh: false, reason: 'dist/ is not built' });
    fs.mkdirSync(path.join(root, 'dist'));
    dist.markBuilt(dist.sourceHash(root), root);
    assert.equal(dist.distState(root).fresh, true);
    const stale = (change: () => void, undo: () => void) => {
      change();
      assert.deepEqual(dist.distState(root), { fresh: false, reason: 'dist/ is older than src/' });
      undo();
      assert.equal(dist.distState(root).fresh, true, 'back to the built sources, current again');
    };
    const b = path.join(root, 'src/sub/b.ts');
    stale(
      () => fs.writeFileSync(b, 'export const b = 3;\n'),
      () => fs.writeFileSync(b, 'export const b = 2;\n'),
    );
    stale(
      () => fs.writeFileSync(path.join(root, 'src/c.ts'), ''),
      () => fs.rmSync(path.join(root, 'src/c.ts')),
    );
    stale(
      () => fs.renameSync(b, path.join(root, 'src/sub/c.ts')),
      () => fs.renameSync(path.join(root, 'src/sub/c.ts'), b),
    );
    stale(
      () => fs.rmSync(b),
      () => fs.writeFileSync(b, 'export const b = 2;\n'),
    );
    stale(
      () => fs.writeFileSync(path.join(root, 'tsconfig.json'), '{"compilerOptions":{}}'),
      () => fs.writeFileSync(path.join(root, 'tsconfig.json'), '{}'),
    );
    // Times do not count: a file touched but unchanged is still the same source.
    fs.utimesSync(b, new Date(), new Date(Date.now() + 60_000));
    assert.equal(dist.distState(root).fresh, true);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('useDist: TypeScript and JavaScript importers of ../src/ get the compiled module, one copy; a source without its compiled file is an error, not a second copy', () => {
  const root = scratch({
    'src/shape.ts': 'export class Shape {}\n',
    'src/lonely.ts': 'export const x = 1;\n',
    'dist/shape.js': 'exports.Shape = class Shape {}; exports.compiled = true;\n',
    'steps/uses.ts': "import { Shape } from '../src/shape';\nexport const shape = new Shape();\n",
    'examples/driver.js': "module.exports = require('../src/shape');\n",
    'tsconfig.json': '{"compilerOptions":{"module":"commonjs","target":"ES2022"}}',
  });
  try {
    const script = `
      const assert = require('node:assert/strict');
      require(${JSON.stringify(path.join(ROOT, 'bin/dist.js'))}).useDist(${JSON.stringify(root)});
      // Plain JavaScript first, before ts-node: "../src/shape" has no .js to resolve to.
      const viaJs = require(${JSON.stringify(path.join(root, 'examples/driver.js'))});
      require('ts-node/register');
      const { shape } = require(${JSON.stringify(path.join(root, 'steps/uses.ts'))});
      const compiled = require(${JSON.stringify(path.join(root, 'dist/shape.js'))});
      assert.equal(compiled.compiled, true);
      assert.equal(viaJs, compiled);
      assert.ok(shape instanceof compiled.Shape, 'the step file built its object from the compiled class');
      assert.deepEqual(Object.keys(require.cache).filter((k) => k.startsWith(${JSON.stringify(path.join(root, 'src'))})), []);
      assert.throws(() => require(${JSON.stringify(path.join(root, 'src/lonely'))}), /src\\/lonely.ts has no compiled dist\\/lonely.js; run npm run build/);
      console.log('ok');
    `;
    const r = spawnSync(process.execPath, ['-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', TS_NODE_PROJECT: path.join(root, 'tsconfig.json') },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'ok');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('bin/kubespec runs dist/ while it is current and the sources through ts-node, with a one-line notice, once they changed', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-build-test-'));
  try {
    for (const f of ['bin', 'src', 'profiles', 'targets', 'tsconfig.json', 'tsconfig.build.json', 'package.json'])
      fs.cpSync(path.join(ROOT, f), path.join(root, f), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
    // A stand-in for the compiled CLI, so that which one ran shows in the output.
    fs.mkdirSync(path.join(root, 'dist/cli'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'dist/cli/entry.js'),
      "console.log('compiled ' + process.argv.slice(2).join(' '));\n",
    );
    const kubespec = (env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [path.join(root, 'bin/kubespec'), '--help'], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });

    const missing = kubespec();
    assert.equal(missing.status, 0, missing.stderr);
    assert.equal(
      missing.stderr.trim(),
      'kubespec: dist/ is not built: running the sources through ts-node (slower start; npm run build compiles them)',
    );
    assert.match(missing.stdout, /^kubespec — an executable specification/);

    dist.markBuilt(dist.sourceHash(root), root);
    const current = kubespec();
    assert.deepEqual([current.status, current.stdout, current.stderr], [0, 'compiled --help\n', '']);

    fs.appendFileSync(path.join(root, 'src/cli/help.ts'), '\n// an edit\n');
    const edited = kubespec();
    assert.equal(
      edited.stderr.trim(),
      'kubespec: dist/ is older than src/: running the sources through ts-node (slower start; npm run build compiles them)',
    );
    assert.match(edited.stdout, /^kubespec — an executable specification/);

    const forced = kubespec({ KUBESPEC_FROM_SOURCE: '1' });
    assert.equal(forced.stderr, '', 'asked for the sources: no notice');
    assert.match(forced.stdout, /^kubespec — an executable specification/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the real dist/: a process running it loads the control plane once, from dist/, also through the step files', {
  skip: !dist.distState(ROOT).fresh && 'dist/ is not current (npm run build; npm test builds first)',
}, () => {
  const script = `
    const assert = require('node:assert/strict');
    require('./bin/dist').useDist();
    require('ts-node/register');
    const viaSource = require('./src/drivers');          // what steps/*.ts import
    const compiled = require('./dist/drivers/index.js'); // what the compiled CLI uses
    assert.equal(viaSource, compiled);
    assert.equal(require('./src/api/errors').StatusError, require('./dist/api/errors.js').StatusError);
    const fromSource = Object.keys(require.cache).filter((k) => k.startsWith(require('path').join(process.cwd(), 'src') + '/'));
    assert.deepEqual(fromSource, []);
    console.log(Object.keys(require.cache).filter((k) => k.includes('/dist/')).length);
  `;
  const r = spawnSync(process.execPath, ['-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(Number(r.stdout) > 50, `the control plane came from dist/ (${r.stdout.trim()} modules)`);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMANDS, parseCommand, RUN, synopses, UsageError } from '../../src/cli/commands';
import { RUN_HELP } from '../../src/cli/help';

const ROOT = path.resolve(__dirname, '../..');

test("the README's synopsis is the one the commands' definitions print", () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- synopsis: [^\n]*-->\n```\n([\s\S]*?)\n```/.exec(readme)?.[1];
  assert.ok(block, 'README has the generated synopsis block under "The command"');
  assert.equal(block, synopses(), 'regenerate it: node -e "console.log(require(\'./src/cli/commands\').synopses())"');
});

test('kubespec run --help explains every option the parser takes', () => {
  for (const o of RUN.options) assert.match(RUN_HELP, new RegExp(`--${o.name}\\b`), `--${o.name} in RUN_HELP`);
});

test('every command takes -h and --help', () => {
  for (const def of COMMANDS) {
    if (def.name === 'serve') continue; // its own parser (any control-plane flag), see serve.ts
    assert.equal(parseCommand(def, ['-h']).values.help, true);
    assert.equal(parseCommand(def, ['--help']).values.help, true);
  }
});

test('a boolean flag takes no value, a string flag needs one, an unknown flag is bad usage', () => {
  const p = parseCommand(RUN, [
    '--dry-run',
    'features/x.feature',
    '--tags',
    '@A',
    '--serve-flag',
    'a=1',
    '--serve-flag=b=2',
  ]);
  assert.equal(p.values['dry-run'], true);
  assert.deepEqual(p.positionals, ['features/x.feature']);
  assert.deepEqual(p.values['serve-flag'], ['a=1', 'b=2']);
  assert.deepEqual(
    p.given.map((g) => g.name),
    ['dry-run', 'tags', 'serve-flag', 'serve-flag'],
  );
  assert.throws(() => parseCommand(RUN, ['--tags']), UsageError);
  assert.throws(() => parseCommand(RUN, ['--max-scenario-time', '5m']), /--max-scenario-time/);
  assert.throws(() => parseCommand(RUN, ['--kubeconfig', '--context', 'x']), UsageError);
});

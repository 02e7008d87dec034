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
    assert.equal(own.dependencies[name], pinned, `package.json: "${name}": "${pinned}" (exactly what @cucumber/cucumber pins)`);
    const version = installed(name).version;
    assert.equal(version, pinned, `installed ${name} ${version}, @cucumber/cucumber pins ${pinned}`);
  });
}

test('one entry per package, and no package both a dependency and a devDependency', () => {
  const both = Object.keys(own.dependencies ?? {}).filter((n) => n in (own.devDependencies ?? {}));
  assert.deepEqual(both, []);
});

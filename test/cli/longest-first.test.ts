import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';
import plugin, { longestFirst, statedSeconds } from '../../src/cli/longest-first';

const ROOT = path.resolve(__dirname, '../..');

test('a scenario waits its waits in sequence, or until its latest mark', () => {
  assert.equal(statedSeconds(['a node "n1"', '5 minutes pass', '10 more seconds pass']), 310);
  assert.equal(statedSeconds(['11 seconds pass after the pods of deployment "web" became ready']), 11);
  assert.equal(statedSeconds(['over the next 45 seconds the lease of node "n1" is renewed every 10 seconds']), 45);
  // Marks count from an event near the start: the latest one, not their sum.
  assert.equal(
    statedSeconds([
      '1 minute passes',
      '10 minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at 0 seconds',
      '20 minutes after the nodes stopped reporting, no pod of zone "z1" has been marked for deletion',
    ]),
    1200,
  );
  assert.equal(
    statedSeconds([
      'the pods of node "z1-node-1" are marked for deletion between 355 and 365.1 seconds after its kubelet stopped',
    ]),
    365.1,
  );
  assert.equal(statedSeconds(['node "n1" becomes Unknown within 50 seconds of its last heartbeat']), 50);
  assert.equal(statedSeconds(['6 nodes of zone "z1" report Ready "False" for 10 minutes']), 600);
  assert.equal(statedSeconds(['I create a pod "web" requesting cpu "100m" and memory "64Mi"']), 0);
});

test('longest first, equal ones in the order they came', () => {
  const p = (name: string, ...steps: string[]) => ({ pickle: { name, steps: steps.map((text) => ({ text })) } });
  const order = longestFirst([
    p('a'),
    p('b', '1 minute passes'),
    p('c'),
    p('d', '20 minutes after the nodes stopped reporting, no pod has gone'),
    p('e', '1 minute passes'),
  ] as never[]) as unknown as { pickle: { name: string } }[];
  assert.deepEqual(
    order.map((x) => x.pickle.name),
    ['d', 'b', 'e', 'a', 'c'],
  );
});

test("the zone scenarios of 20 minutes are among the first a run hands out, whatever their file's place", () => {
  const pickles: { pickle: ReturnType<typeof compile>[number] }[] = [];
  for (const f of [
    'features/node/master-disruption.feature',
    'features/node/defaults.feature',
    'features/node/zones.feature',
  ]) {
    const id = IdGenerator.uuid();
    const doc = new Parser(new AstBuilder(id), new GherkinClassicTokenMatcher()).parse(
      fs.readFileSync(path.join(ROOT, f), 'utf8'),
    );
    for (const pickle of compile(doc, f, id)) pickles.push({ pickle });
  }
  const order = longestFirst(pickles as never[]) as unknown as typeof pickles;
  const zones = order.findIndex((x) => x.pickle.uri.endsWith('zones.feature'));
  const first = pickles.findIndex((x) => x.pickle.uri.endsWith('zones.feature'));
  assert.ok(
    zones < 10 && zones < first,
    `zones.feature's first scenario goes out ${zones}th (in file order: ${first}th)`,
  );
});

test('the plugin reorders what Cucumber would run ("pickles:order")', () => {
  const seen: string[] = [];
  plugin.coordinator({ transform: (event) => seen.push(event) });
  assert.deepEqual(seen, ['pickles:order']);
});

test('a scenario that took longer last time than its stated waits goes first', () => {
  const p = (name: string, line: number, ...steps: string[]) => ({
    pickle: { name, uri: 'features/x.feature', steps: steps.map((text) => ({ text })) },
    location: { line },
  });
  const pickles = [p('short', 3), p('waits', 5, '2 minutes pass'), p('heavy', 7), p('waited', 9, '1 minute passes')];
  const names = (measured?: Record<string, number>) =>
    (longestFirst(pickles as never[], measured) as unknown as { pickle: { name: string } }[]).map((x) => x.pickle.name);
  assert.deepEqual(names(), ['waits', 'waited', 'short', 'heavy']);
  // 10 minutes of work last time: first; a measured time below the stated waits changes nothing.
  assert.deepEqual(names({ 'features/x.feature:7': 600, 'features/x.feature:9': 30 }), [
    'heavy',
    'waits',
    'waited',
    'short',
  ]);
});

// Reports from Cucumber messages: a tiny feature is run through the real Cucumber API (so the
// fixture is the message stream Cucumber actually writes), then read and aggregated.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfiguration, runCucumber } from '@cucumber/cucumber/api';
import {
  buildConformance,
  formatSummary,
  loadRun,
  measuredSeconds,
  parseMessages,
  readMessages,
  reportFromMessages,
  writeConformanceReports,
  writeReports,
  writeRunInfo,
  NOT_APPLICABLE_MEDIA_TYPE,
  type Behaviour,
  type ScenarioResult,
} from '../../src/report';

const FEATURE = `@profile-seed
Feature: Report fixture

  @NODE-LABELS @NODE-CORDON @timeline
  Scenario: passes and draws a timeline
    Given a passing step
    And a timeline

  @NODE-CAPACITY @NODE-CORDON
  Scenario: fails
    Given a passing step
    And a failing step
    And a passing step

  @COMM-SSH-TUNNEL
  Scenario: not applicable here
    Given the target cannot do this
    And a passing step

  @API-CRUD
  Scenario: has an undefined step
    Given a step nobody wrote

  @RC-DELETE
  Scenario: skipped without a reason
    Given a step that skips

  @RC-SCALE
  Scenario: flaky, passes on retry
    Given a flaky step

  @RC-SCALE @API-CRUD-TYPO
  Scenario Outline: outline <n>
    Given a passing step

    Examples:
      | n |
      | 1 |
      | 2 |

  @RC-REPLICAS
  Scenario: not applicable, with a passing sibling
    Given the target cannot do this

  @RC-REPLICAS
  Scenario: the passing sibling
    Given a passing step

  @NODE-INFO
  Scenario: draws a hostile picture
    Given a hostile timeline
`;

const STEPS = `const { Given } = require(${JSON.stringify(require.resolve('@cucumber/cucumber'))});
let flaky = 0;
Given('a passing step', function () {});
Given('a timeline', function () {
  this.attach('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>', 'image/svg+xml');
});
Given('a hostile timeline', function () {
  this.attach('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml');
  this.attach('<img src=x onerror=alert(1)>', 'image/svg+xml');
});
Given('a failing step', function () { throw new Error('expected <Ready> to be "Unknown" & it was not'); });
Given('the target cannot do this', function () {
  this.attach('the target has no SSH tunnels', ${JSON.stringify(NOT_APPLICABLE_MEDIA_TYPE)});
  return 'skipped';
});
Given('a step that skips', function () { return 'skipped'; });
Given('a flaky step', function () { if (flaky++ === 0) throw new Error('first attempt fails'); });
`;

const tempDirs: string[] = [];
function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const discard = (): Writable =>
  new Writable({
    write(_chunk, _enc, cb) {
      cb();
    },
  });

let fixture: Promise<string> | undefined;
/** Runs the fixture feature once; resolves to the directory holding messages.ndjson. */
function runFixture(): Promise<string> {
  fixture ??= (async () => {
    const dir = tempDir('kubespec-report-');
    fs.mkdirSync(path.join(dir, 'features'));
    fs.writeFileSync(path.join(dir, 'features', 'fixture.feature'), FEATURE);
    fs.writeFileSync(path.join(dir, 'steps.js'), STEPS);
    const environment = { cwd: dir, stdout: discard(), stderr: discard(), env: { ...process.env } };
    const { runConfiguration } = await loadConfiguration(
      {
        file: false,
        provided: {
          paths: ['features/**/*.feature'],
          require: ['steps.js'],
          format: ['message:messages.ndjson'],
          retry: 1,
        },
      },
      environment,
    );
    await runCucumber(runConfiguration, environment);
    return dir;
  })();
  return fixture;
}

function byName(scenarios: ScenarioResult[], name: string): ScenarioResult {
  const s = scenarios.find((x) => x.name === name);
  assert.ok(s, `no scenario named "${name}"`);
  return s;
}

const seed = [{ file: '000', section: '§1.1 节点状态' }];
const CATALOGUE: Behaviour[] = [
  { id: 'NODE-LABELS', title: 'labels', area: 'Nodes', seed, informative: false },
  { id: 'NODE-CORDON', title: 'cordon', area: 'Nodes', seed, informative: false },
  { id: 'NODE-CAPACITY', title: 'capacity', area: 'Nodes', seed, informative: false },
  { id: 'NODE-INFO', title: 'info', area: 'Nodes', seed, informative: false },
  {
    id: 'NODE-CIDR',
    title: 'a `--cluster-cidr` block <per node>',
    area: 'Nodes',
    seed,
    upstream: 'Upstream: *nodes*',
    informative: false,
  },
  {
    id: 'COMM-SSH-TUNNEL',
    title: 'ssh',
    area: 'Communication',
    seed,
    informative: true,
    notApplicableReason: 'removed upstream',
  },
  {
    id: 'COMM-OLD',
    title: 'old',
    area: 'Communication',
    seed,
    informative: true,
    notApplicableReason: 'gone for good',
  },
  { id: 'API-CRUD', title: 'crud', area: 'API', seed, informative: false },
  { id: 'RC-DELETE', title: 'delete', area: 'Controllers', seed, informative: false },
  { id: 'RC-SCALE', title: 'scale', area: 'Controllers', seed, informative: false },
  { id: 'RC-REPLICAS', title: 'replicas', area: 'Controllers', seed, informative: false },
];

test('scenario statuses are read from the message stream', async () => {
  const dir = await runFixture();
  const { scenarios, run } = readMessages(path.join(dir, 'messages.ndjson'));
  assert.equal(scenarios.length, 11);

  const passed = byName(scenarios, 'passes and draws a timeline');
  assert.equal(passed.status, 'passed');
  assert.equal(passed.uri, 'features/fixture.feature');
  assert.equal(passed.line, 5);
  assert.deepEqual(passed.behaviourIds, ['NODE-LABELS', 'NODE-CORDON']);
  assert.ok(passed.tags.includes('@profile-seed') && passed.tags.includes('@timeline'));
  assert.deepEqual(
    passed.steps.map((s) => `${s.keyword} ${s.text} ${s.status}`),
    ['Given a passing step passed', 'And a timeline passed'],
  );
  assert.equal(passed.attachments.length, 1);
  assert.equal(passed.attachments[0]?.mediaType, 'image/svg+xml');
  assert.equal(passed.attachments[0]?.step, 'And a timeline');
  assert.equal(passed.error, undefined);

  const failed = byName(scenarios, 'fails');
  assert.equal(failed.status, 'failed');
  assert.equal(failed.attempts, 2, 'a failing scenario is retried once');
  assert.match(failed.error ?? '', /expected <Ready> to be "Unknown"/);
  assert.deepEqual(
    failed.steps.map((s) => s.status),
    ['passed', 'failed', 'skipped'],
  );
  assert.match(failed.steps[1]?.error ?? '', /expected <Ready>/);

  const na = byName(scenarios, 'not applicable here');
  assert.equal(na.status, 'not-applicable');
  assert.equal(na.notApplicableReason, 'the target has no SSH tunnels');

  const undef = byName(scenarios, 'has an undefined step');
  assert.equal(undef.status, 'undefined');
  assert.match(undef.error ?? '', /undefined step: "Given a step nobody wrote"/);

  const skipped = byName(scenarios, 'skipped without a reason');
  assert.equal(skipped.status, 'skipped', 'a skip without the not-applicable attachment is not not-applicable');
  assert.match(skipped.error ?? '', /without a not-applicable reason/);

  const flaky = byName(scenarios, 'flaky, passes on retry');
  assert.equal(flaky.status, 'passed', 'the last attempt counts');
  assert.equal(flaky.attempts, 2);

  const outline = byName(scenarios, 'outline 2');
  assert.equal(outline.line, 39, 'an example row reports its own line');
  assert.deepEqual(outline.behaviourIds, ['RC-SCALE', 'API-CRUD-TYPO']);

  assert.equal(run.success, false);
  assert.match(run.cucumberVersion ?? '', /^12\./);
  assert.ok(run.startedAt && run.finishedAt && run.startedAt <= run.finishedAt);
  assert.equal(run.meta?.implementation?.name, 'cucumber-js');
  assert.deepEqual(run.problems, []);
});

test('behaviours aggregate their scenarios per run', async () => {
  const dir = await runFixture();
  const run = reportFromMessages(path.join(dir, 'messages.ndjson'), { target: 'reference', profile: 'seed' });
  assert.equal(run.label, 'reference · seed');
  const report = buildConformance(CATALOGUE, [run], { generatedAt: new Date('2024-01-01T00:00:00Z') });
  const status = Object.fromEntries(report.rows.map((r) => [r.id, r.results[0]?.status]));
  assert.deepEqual(status, {
    'NODE-LABELS': 'pass',
    'NODE-CORDON': 'fail', // one passing, one failing scenario
    'NODE-CAPACITY': 'fail',
    'NODE-INFO': 'pass', // the hostile picture is dropped, the scenario passes
    'NODE-CIDR': 'not-covered',
    'COMM-SSH-TUNNEL': 'not-applicable',
    'COMM-OLD': 'not-applicable', // informative, no scenario
    'API-CRUD': 'fail', // undefined step
    'RC-DELETE': 'fail', // skipped without a reason
    'RC-SCALE': 'pass', // flaky passed on retry, and the outline
    'RC-REPLICAS': 'pass', // one not applicable, one passed
  });
  assert.deepEqual(
    report.rows.map((r) => r.id),
    CATALOGUE.map((b) => b.id),
    'catalogue order',
  );
  assert.deepEqual(report.areas, ['Nodes', 'Communication', 'API', 'Controllers']);

  const row = (id: string) => report.rows.find((r) => r.id === id)?.results[0];
  assert.equal(row('COMM-SSH-TUNNEL')?.reason, 'the target has no SSH tunnels', "the scenario's reason wins");
  assert.equal(row('COMM-OLD')?.reason, 'gone for good', "the catalogue's reason when there is no scenario");
  assert.equal(row('RC-SCALE')?.scenarios.length, 3);
  assert.deepEqual(row('NODE-LABELS')?.scenarios[0]?.timelines.length, 1);
  assert.deepEqual(row('NODE-INFO')?.scenarios[0]?.timelines, [], 'no script, no non-SVG');
  assert.equal(row('NODE-CORDON')?.scenarios[1]?.location, 'features/fixture.feature:10');
  assert.equal(row('NODE-CAPACITY')?.scenarios[0]?.failedStep, 'And a failing step');
  assert.equal(row('API-CRUD')?.scenarios[0]?.failedStep, 'Given a step nobody wrote');

  const totals = report.runs[0]?.totals;
  assert.deepEqual(totals?.byStatus, { pass: 4, fail: 4, 'not-applicable': 2, 'not-covered': 1 });
  assert.equal(totals?.covered, 4);
  assert.equal(totals?.behaviours, 11);
  assert.equal(totals?.scenarios.total, 11);
  assert.deepEqual(totals?.scenarios.byStatus, {
    passed: 6,
    failed: 1,
    'not-applicable': 2,
    undefined: 1,
    pending: 0,
    skipped: 1,
    ambiguous: 0,
  });
  assert.deepEqual(report.unknownTags, [
    { id: 'API-CRUD-TYPO', locations: ['features/fixture.feature:38', 'features/fixture.feature:39'] },
  ]);

  const summary = formatSummary(report).split('\n');
  assert.equal(
    summary[0],
    'reference · seed: 4/11 behaviours covered, 4 failing — 11 scenarios: ' +
      '6 passed, 1 failed, 2 not applicable, 1 undefined, 1 skipped without a reason',
  );
  assert.match(summary[1] ?? '', /unknown behaviour tags.*@API-CRUD-TYPO/);
});

test('the HTML and JSON reports are written, escaped and self-contained', async () => {
  const dir = await runFixture();
  const out = tempDir('kubespec-out-');
  const a = reportFromMessages(path.join(dir, 'messages.ndjson'), { target: 'reference', profile: 'seed' });
  const b = reportFromMessages(path.join(dir, 'messages.ndjson'), {
    target: 'k3s',
    profile: 'kubernetes-1.32',
    label: 'k3s <1.32>',
  });
  const files = writeConformanceReports(buildConformance(CATALOGUE, [a, b]), out);

  const json = JSON.parse(fs.readFileSync(files.json, 'utf8')) as { runs: Array<{ label: string }>; rows: unknown[] };
  assert.deepEqual(
    json.runs.map((r) => r.label),
    ['reference · seed', 'k3s <1.32>'],
  );
  assert.equal(json.rows.length, CATALOGUE.length);

  const html = fs.readFileSync(files.html, 'utf8');
  assert.match(html, /^<!DOCTYPE html>/);
  assert.doesNotMatch(html, /<(link|script)\b|src="http|href="http/i, 'no external assets, no scripts');
  assert.match(html, /k3s &lt;1\.32&gt;/);
  assert.match(html, /expected &lt;Ready&gt; to be &quot;Unknown&quot; &amp; it was not/);
  assert.doesNotMatch(html, /alert\(1\)/);
  assert.match(html, /<figure class="timeline"><svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="10"/);
  assert.match(html, /<details/);
  assert.match(html, /at <q>And a failing step<\/q>/);
  assert.match(html, /the target has no SSH tunnels/);
  assert.match(
    html,
    /a <code>--cluster-cidr<\/code> block &lt;per node&gt;/,
    'inline markup rendered, the rest escaped',
  );
  assert.match(html, /<em>nodes<\/em>/);
  // cited by the source's title and section, the file name nowhere
  assert.match(
    html,
    /<span class="cite" title="the Node object[^"]*" lang="zh">Kubernetes 架构（容器相关 · 基础篇） §1\.1 节点状态<\/span>/,
  );
  assert.doesNotMatch(html, /000_247f701c7d691d2d/);
  assert.match(html, /API-CRUD-TYPO/);
  // one status cell per run in each behaviour row
  const rowHtml = html.slice(html.indexOf('<tr class="behaviour st-fail" id="NODE-CAPACITY"'));
  const cells = rowHtml.slice(0, rowHtml.indexOf('</tr>')).match(/<td class="status s-fail"/g) ?? [];
  assert.equal(cells.length, 2);
});

test('loadRun reads messages.ndjson and run.json; writeReports loads the catalogue', async () => {
  const dir = await runFixture();
  writeRunInfo(dir, { target: 'kube', profile: 'kubernetes-1.32' });
  const run = loadRun(dir);
  assert.equal(run.label, 'kube · kubernetes-1.32');
  assert.equal(run.scenarios.length, 11);

  const bare = tempDir('kubespec-bare-');
  fs.copyFileSync(path.join(dir, 'messages.ndjson'), path.join(bare, 'messages.ndjson'));
  assert.equal(loadRun(bare).label, path.basename(bare));
  assert.throws(() => loadRun(`${os.tmpdir()}/kubespec-does-not-exist`), /no messages\.ndjson/);

  const out = tempDir('kubespec-out-');
  const { report, files } = writeReports([run], out);
  assert.ok(report.behaviours > 50, 'the real catalogue');
  assert.ok(fs.existsSync(files.html) && fs.existsSync(files.json));
  // the real catalogue's informative behaviour is not applicable everywhere
  const ssh = report.rows.find((r) => r.id === 'COMM-SSH-TUNNEL');
  assert.equal(ssh?.results[0]?.status, 'not-applicable');
});

test('a stream cut short is reported, not a crash; garbage in the middle is an error', () => {
  const started = JSON.stringify({ testRunStarted: { timestamp: { seconds: 1, nanos: 0 } } });
  const parsed = parseMessages(`${started}\n{"pickle": {"id"`, 'cut.ndjson');
  assert.deepEqual(parsed.scenarios, []);
  assert.equal(parsed.run.problems.length, 2);
  assert.match(parsed.run.problems[0] ?? '', /cut\.ndjson:2: not a JSON message \(the stream is truncated/);
  assert.match(parsed.run.problems[1] ?? '', /did not finish/);
  assert.throws(() => parseMessages(`nonsense\n${started}\n`, 'bad.ndjson'), /bad\.ndjson:1: not a JSON message/);
});

test('a scenario whose run stopped midway is not a pass', () => {
  const lines = [
    {
      pickle: {
        id: 'p1',
        uri: 'features/x.feature',
        name: 'x',
        location: { line: 3 },
        tags: [{ name: '@NODE-CIDR' }],
        steps: [{ id: 's1', text: 'a step' }],
      },
    },
    { testCase: { id: 't1', pickleId: 'p1', testSteps: [{ id: 'ts1', pickleStepId: 's1' }] } },
    { testCaseStarted: { id: 'a1', testCaseId: 't1', attempt: 0 } },
  ];
  const { scenarios } = parseMessages(lines.map((l) => JSON.stringify(l)).join('\n'));
  assert.equal(scenarios[0]?.status, 'failed');
  assert.match(scenarios[0]?.error ?? '', /did not finish/);
});

test('measuredSeconds gives what each scenario of the recorded run took, by its location; nothing where no run is recorded', async () => {
  const dir = await runFixture();
  const run = reportFromMessages(path.join(dir, 'messages.ndjson'), { target: 'reference', profile: 'seed' });
  const measured = measuredSeconds(dir);
  assert.equal(Object.keys(measured).length, new Set(run.scenarios.map((s) => `${s.uri}:${s.line}`)).size);
  for (const s of run.scenarios) assert.ok(measured[`${s.uri}:${s.line}`] >= s.durationMs / 1000);
  assert.deepEqual(measuredSeconds(tempDir('kubespec-no-run-')), {});
});

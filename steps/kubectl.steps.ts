import * as fs from 'node:fs';
import * as path from 'node:path';
import { After, DataTable, Given, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { Credentials } from '../src/drivers';
import { Pod } from '../src/api/core';
import { fieldAt, showField } from './objects';
import { getPod } from './pods.steps';
import { KubeWorld } from './world';
import { ageTolerance, expectCell, step } from './support';
import {
  backgroundPrints,
  cleanupKubectl,
  kubectlState,
  KubectlResult,
  parseColumns,
  runKubectl,
  startKubectl,
} from './kubectl';

/** kubectl vocabulary: run the real kubectl against the target and read what it prints. */

function last(world: KubeWorld): KubectlResult {
  const r = kubectlState(world).last;
  if (!r) throw new Error('no kubectl command has run yet');
  return r;
}

function show(r: KubectlResult): string {
  return `$ ${r.command}\n(exit ${r.code})\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}

/** kubectl is another process: its steps take real time. */
const KUBECTL_TIMEOUT = { timeout: 90_000 };

const rtrim = (text: string) =>
  text
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n')
    .replace(/\n+$/, '');

After(function (this: KubeWorld) {
  cleanupKubectl(this);
});

Given(
  'a file {string} containing:',
  step(function (this: KubeWorld, name: string, text: string) {
    // "$NODE_UID": the uid noted earlier ("When I note the uid of node ...")
    const uid = this.notedNodeUid;
    if (text.includes('$NODE_UID') && !uid)
      throw new Error('no node uid was noted ("When I note the uid of node ...")');
    fs.writeFileSync(path.join(kubectlState(this).dir, name), `${uid ? text.replace(/\$NODE_UID/g, uid) : text}\n`);
  }),
);

function credentialsOf(world: KubeWorld, words: string): Credentials {
  const user = /^as user "([^"]+)"(?: in groups? "([^"]*)")?$/.exec(words);
  if (user)
    return {
      user: user[1],
      groups: (user[2] ?? '')
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean),
    };
  const token = /^with bearer token "([^"]*)"$/.exec(words);
  if (token) return { token: token[1] };
  const account = /^with the token of service account "([^"/]+)"$/.exec(words);
  if (account) {
    const kept = world.tokens.get(`default/${account[1]}`);
    if (!kept)
      throw new Error(
        `no token of service account default/${account[1]} was kept (add "When I keep the token of service account ..." first)`,
      );
    return { token: kept };
  }
  const basic = /^with basic auth "([^"]*)" and password "([^"]*)"$/.exec(words);
  if (basic) return { basic: { username: basic[1], password: basic[2] } };
  if (words === 'without credentials') return { anonymous: true };
  if (words === 'on the insecure port') return { insecurePort: true };
  throw new Error(`unknown credentials: ${words}`);
}

/*
 * Regular expressions for the kubectl command lines and for free text: a command runs to its
 * closing quote and may itself hold quotes (-o jsonpath='{...}', -l 'a in (x)'), and a text
 * kubectl prints runs to the end of the line, quotes and all — which {string} cannot hold.
 */
When(
  /^I run "(kubectl .*?)"(?: (as user "[^"]+"(?: in groups? "[^"]*")?|with bearer token "[^"]*"|with basic auth "[^"]*" and password "[^"]*"|with the token of service account "[^"]+"|without credentials|on the insecure port))?$/,
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, command: string, who: string | null) {
    // "$RV": the resourceVersion noted earlier ("When I note the resourceVersion of the pod list").
    const rv = this.notedResourceVersion;
    if (command.includes('$RV') && !rv)
      throw new Error('no resourceVersion was noted ("When I note the resourceVersion of the pod list")');
    await runKubectl(
      this,
      rv ? command.replace(/\$RV/g, rv) : command,
      who ? credentialsOf(this, who) : { admin: true },
    );
  }),
);

When(
  /^I run "(kubectl .*?)" without the cluster's CA$/,
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, command: string) {
    await runKubectl(this, command, { admin: true }, { withoutClusterCA: true });
  }),
);

/**
 * NODE-DESCRIBE, strictly: one section of `kubectl describe` output (its header line and every
 * indented line under it, up to the next header) equals the expected lines exactly, but for
 * placeholders: <time> (a describe timestamp), <age> (an age such as 5m or 698d, with the
 * column's padding after it: kubectl measures ages on the wall clock, the cluster on its own),
 * <machine-id> (32 hex digits, as /etc/machine-id) and <uuid> (a UUID in either case: the DMI
 * product UUID, the boot id).
 */
const DESCRIBE_PLACEHOLDERS: Record<string, string> = {
  '<time>': '[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} [+-]\\d{4}',
  // with the padding after it: its column is as wide as the longest age (5m, 703d, 2m10s)
  '<age>': '(?:(?:\\d+[smhdy])+|<unknown>) *',
  '<machine-id>': '[0-9a-f]{32}',
  '<uuid>': '[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}',
};

function describeSection(stdout: string, header: string): string[] {
  const lines = stdout.split('\n').map((l) => l.replace(/\s+$/, ''));
  const start = lines.findIndex((l) => l.startsWith(`${header}:`));
  if (start < 0) return [];
  let end = start + 1;
  while (end < lines.length && (lines[end].startsWith(' ') || lines[end] === '')) end++;
  return lines.slice(start, end).filter((l, i, all) => l !== '' || i < all.length - 1);
}

Then(
  'kubectl prints the {string} section as:',
  step(function (this: KubeWorld, header: string, text: string) {
    const last = kubectlState(this).last;
    if (!last) throw new Error('no kubectl command ran');
    const got = describeSection(last.stdout, header);
    const want = text.split('\n').map((l) => l.replace(/\s+$/, ''));
    const pattern = (line: string) =>
      new RegExp(
        `^${line
          .split(/(<time>|<age>|<machine-id>|<uuid>)/)
          .map((part) => DESCRIBE_PLACEHOLDERS[part] ?? part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('')}$`,
      );
    const ok = got.length === want.length && want.every((w, i) => pattern(w).test(got[i]));
    expect(ok, `the ${header} section:\n${got.join('\n')}\n\nwanted:\n${want.join('\n')}`).to.equal(true);
  }),
);

/**
 * A `kubectl describe` table section (Events) holds exactly these rows, in any order: the
 * columns named are compared cell for cell, the others (Age) ignored. A row too many or too few
 * fails; order does not, since events written in one instant have no order the suite can judge
 * (kubectl sorts them by their timestamps, which are seconds). `<none>` after the header, as
 * kubectl prints an empty section, is no rows.
 */
Then(
  'kubectl prints the {string} section with these rows, in any order:',
  step(function (this: KubeWorld, header: string, table: DataTable) {
    const last = kubectlState(this).last;
    if (!last) throw new Error('no kubectl command ran');
    const section = describeSection(last.stdout, header);
    expect(section.length, `no ${header} section in:\n${last.stdout}`).to.be.greaterThan(0);
    const empty = new RegExp(`^${header}:\\s+<none>$`).test(section[0]);
    // The section's first line is its header alone; then the column header and its dashes.
    const parsed = empty ? { header: [], rows: [] } : parseColumns(section.slice(1).join('\n'));
    const [wantHeader, ...wantRows] = table.raw();
    if (!empty) for (const h of wantHeader) expect(parsed.header, `column ${h}\n${section.join('\n')}`).to.include(h);
    const dashes = (row: Record<string, string>) => Object.values(row).every((v) => /^-*$/.test(v));
    const key = (cells: string[]) => JSON.stringify(cells);
    const got = parsed.rows
      .filter((row) => !dashes(row))
      .map((row) => key(wantHeader.map((h) => row[h])))
      .sort();
    const want = wantRows.map(key).sort();
    expect(got, `the ${header} section:\n${section.join('\n')}`).to.deep.equal(want);
  }),
);

When(
  'I note the resourceVersion of the pod list',
  step(async function (this: KubeWorld) {
    const cluster = await this.cluster();
    const list = await cluster.client.list({ resource: 'pods', namespace: 'default' });
    const rv = list.metadata?.resourceVersion;
    if (!rv) throw new Error('the pod list carries no resourceVersion');
    this.notedResourceVersion = rv;
  }),
);

When(
  'I note the uid of node {string}',
  step(async function (this: KubeWorld, name: string) {
    const cluster = await this.cluster();
    const uid = (await cluster.client.get({ resource: 'nodes' }, name)).metadata.uid;
    if (!uid) throw new Error(`node ${name} carries no uid`);
    this.notedNodeUid = uid;
  }),
);

When(
  /^I start "(kubectl .*)" in the background$/,
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, command: string) {
    const rv = this.notedResourceVersion;
    if (command.includes('$RV') && !rv)
      throw new Error('no resourceVersion was noted ("When I note the resourceVersion of the pod list")');
    await startKubectl(this, rv ? command.replace(/\$RV/g, rv) : command);
  }),
);

Then(
  'kubectl succeeds',
  step(function (this: KubeWorld) {
    const r = last(this);
    expect(r.code, show(r)).to.equal(0);
  }),
);

Then(
  'kubectl fails',
  step(function (this: KubeWorld) {
    const r = last(this);
    expect(r.code, show(r)).to.not.equal(0);
  }),
);

Then(
  /^kubectl prints "(.*)"( on stderr)?$/,
  step(function (this: KubeWorld, text: string, stderr: string | null) {
    const r = last(this);
    expect(r.code, show(r)).to.equal(0);
    expect(stderr ? r.stderr : r.stdout, show(r)).to.contain(text.replace(/\\n/g, '\n'));
  }),
);

// A watch from a version the server no longer has answers 410 Expired in one of the two forms
// the API defines (Kubernetes API concepts, "Efficient detection of changes"): an HTTP 410
// before the stream, or a 200 stream whose one event is an ERROR carrying the 410 Status —
// upstream's watch cache answers the latter (k8s.io/apiserver cacher newErrWatcher), as seen
// on v1.32.13. Either way the client lists again (client-go's Reflector on any 410).
Then(
  /^the watch answers 410 Expired with "(.*)"$/,
  step(function (this: KubeWorld, text: string) {
    const r = last(this);
    if (r.code !== 0) {
      expect(r.stderr, show(r)).to.contain(text);
      return;
    }
    const events = r.stdout
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { type: string; object: { code?: number; reason?: string; message?: string } });
    expect(events, show(r)).to.have.length(1);
    expect(events[0].type, show(r)).to.equal('ERROR');
    expect(events[0].object.code, show(r)).to.equal(410);
    expect(events[0].object.reason, show(r)).to.equal('Expired');
    expect(events[0].object.message, show(r)).to.contain(text);
  }),
);

Then(
  /^kubectl fails with "(.*)"$/,
  step(function (this: KubeWorld, text: string) {
    const r = last(this);
    expect(r.code, show(r)).to.not.equal(0);
    expect(r.stderr, show(r)).to.contain(text);
  }),
);

// The whole message, not a part of it: one line of what kubectl wrote on stderr is exactly this
// ("Error from server (NotFound): …" names the reason and carries the server's message; a
// part such as "NotFound" is matched by any object's 404).
Then(
  /^kubectl fails with the line "(.*)"$/,
  step(function (this: KubeWorld, text: string) {
    const r = last(this);
    expect(r.code, show(r)).to.not.equal(0);
    expect(
      r.stderr.split('\n').map((l) => l.replace(/\s+$/, '')),
      show(r),
    ).to.include(text);
  }),
);

/**
 * COMM-PROXY: the kubelet's view (a PodList kubectl printed from the node proxy's /pods) holds
 * the stored pod — same uid, same spec — with exactly these annotations added, which the
 * stored object does not have ("<matches /RE/>" for a value's form).
 */
Then(
  'in the PodList kubectl printed, pod {string} is the stored pod with these annotations added:',
  step(async function (this: KubeWorld, name: string, table: DataTable) {
    const r = last(this);
    expect(r.code, show(r)).to.equal(0);
    const list = JSON.parse(r.stdout) as { kind: string; items: Pod[] };
    expect(list.kind, show(r)).to.equal('PodList');
    const seen = list.items.find((p) => p.metadata.name === name && p.metadata.namespace === 'default');
    expect(seen, `pod ${name} in the view\n${show(r)}`).to.not.equal(undefined);
    const stored = await getPod(this, name);
    expect(stored, `pod ${name} is stored`).to.not.equal(undefined);
    expect(seen!.metadata.uid, 'uid').to.equal(stored!.metadata.uid);
    expect(seen!.spec, 'spec').to.deep.equal(stored!.spec);
    const had = stored!.metadata.annotations ?? {};
    const has = seen!.metadata.annotations ?? {};
    const added = Object.fromEntries(Object.entries(has).filter(([k, v]) => had[k] !== v));
    const want = table.raw();
    expect(Object.keys(added).sort(), `annotations the view adds (stored: ${JSON.stringify(had)})`).to.deep.equal(
      want.map(([k]) => k).sort(),
    );
    for (const [key, expected] of want) {
      expect(had[key], `the stored object's ${key}`).to.equal(undefined);
      expectCell(added[key], expected, key);
    }
    for (const key of Object.keys(had)) expect(has[key], `the view keeps ${key}`).to.equal(had[key]);
  }),
);

Then(
  'kubectl prints exactly:',
  step(function (this: KubeWorld, text: string) {
    const r = last(this);
    expect(r.code, show(r)).to.equal(0);
    expect(rtrim(r.stdout), show(r)).to.equal(rtrim(text));
  }),
);

/**
 * kubectl's output is one JSON object (kubectl get --raw) with these fields: a value, or
 * "<matches /RE/>" for its form (a version, an id).
 */
Then(
  'kubectl prints a JSON object with:',
  step(function (this: KubeWorld, table: DataTable) {
    const r = last(this);
    expect(r.code, show(r)).to.equal(0);
    let obj: unknown;
    try {
      obj = JSON.parse(r.stdout);
    } catch (e) {
      expect.fail(`kubectl's output is not JSON (${(e as Error).message}): ${show(r)}`);
    }
    for (const [path, expected] of table.raw()) {
      expectCell(showField(fieldAt(obj, path)), expected, path);
    }
  }),
);

Then(
  'kubectl prints these lines in order:',
  step(function (this: KubeWorld, text: string) {
    const r = last(this);
    expect(r.code, show(r)).to.equal(0);
    const out = r.stdout.split('\n').map((l) => l.replace(/\s+$/, ''));
    let at = 0;
    for (const want of rtrim(text).split('\n')) {
      const i = out.indexOf(want, at);
      expect(i, `line not found (in order): "${want}"\n${show(r)}`).to.be.greaterThan(-1);
      at = i + 1;
    }
  }),
);

Then(
  'kubectl prints the table:',
  step(function (this: KubeWorld, table: DataTable) {
    const r = last(this);
    expect(r.code, show(r)).to.equal(0);
    const { header, rows } = parseColumns(r.stdout);
    const [wantHeader, ...wantRows] = table.raw();
    expect(header, show(r)).to.deep.equal(wantHeader);
    expect(
      rows.map((row) => header.map((h) => row[h])),
      show(r),
    ).to.deep.equal(wantRows);
  }),
);

for (const words of ['columns include:', 'rows are, in these columns:']) {
  Then(
    `kubectl prints a table whose ${words}`,
    step(function (this: KubeWorld, table: DataTable) {
      const r = last(this);
      expect(r.code, show(r)).to.equal(0);
      const { header, rows } = parseColumns(r.stdout);
      const [wantHeader, ...wantRows] = table.raw();
      for (const h of wantHeader) expect(header, `column ${h}\n${show(r)}`).to.include(h);
      expect(
        rows.map((row) => wantHeader.map((h) => row[h])),
        show(r),
      ).to.deep.equal(wantRows);
    }),
  );
}

/**
 * One row of kubectl's table, by its NAME: the columns given, the others ignored. An AGE in
 * seconds ("11s") is exact on a virtual clock and within the age tolerance on a real one,
 * where kubectl runs some hundreds of ms after the moment the scenario names; and later by
 * as long as kubectl itself took, which reads the clock only after its start-up and its
 * requests (seconds on a loaded machine: NODE-MANUAL's AGE failed ±2 s on upstream v1.32.13
 * at load ~40).
 */
Then(
  'kubectl prints the row {string} whose columns include:',
  step(function (this: KubeWorld, name: string, table: DataTable) {
    const r = last(this);
    expect(r.code, show(r)).to.equal(0);
    const { header, rows } = parseColumns(r.stdout);
    const row = rows.find((x) => x.NAME === name);
    expect(row, `no row ${name}\n${show(r)}`).to.not.equal(undefined);
    const [wantHeader, wantRow] = table.raw();
    const slack = ageTolerance(this) / 1000;
    wantHeader.forEach((h, i) => {
      expect(header, `column ${h}\n${show(r)}`).to.include(h);
      const got = row![h];
      const want = wantRow[i];
      const age = /^(\d+)s$/;
      if (h === 'AGE' && age.test(want) && age.test(got)) {
        const startUp = slack > 0 ? Math.ceil((r.ms ?? 0) / 1000) : 0;
        expect(Number(age.exec(got)![1]), `${name}: AGE (kubectl ran ${r.ms} ms)\n${show(r)}`).to.be.within(
          Number(age.exec(want)![1]) - slack,
          Number(age.exec(want)![1]) + slack + startUp,
        );
      } else {
        expect(got, `${name}: ${h}\n${show(r)}`).to.equal(want);
      }
    });
  }),
);

Then(
  'kubectl prints the header {string}',
  step(function (this: KubeWorld, text: string) {
    const r = last(this);
    expect(r.code, show(r)).to.equal(0);
    expect(parseColumns(r.stdout).header, show(r)).to.deep.equal(
      text.split(/\s{2,}|\t/).length > 1 ? text.split(/\s{2,}/) : text.split(' '),
    );
  }),
);

Then(
  /^the background kubectl prints a line matching "(.*)"$/,
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, pattern: string) {
    await backgroundPrints(this, new RegExp(pattern));
  }),
);

async function expectProxyAnswer(world: KubeWorld, urlPath: string, code: number, text?: string): Promise<void> {
  const line = await backgroundPrints(world, /Starting to serve on/);
  const address = /Starting to serve on (\S+)/.exec(line)![1];
  const res = await fetch(`http://${address}${urlPath}`);
  const body = await res.text();
  expect(res.status, body).to.equal(code);
  if (text !== undefined) expect(body).to.contain(text);
}

Then(
  'a GET of {string} through the background kubectl proxy answers {int}',
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, urlPath: string, code: number) {
    await expectProxyAnswer(this, urlPath, code);
  }),
);

// A regular expression: the text is free (see above).
Then(
  /^a GET of "([^"]+)" through the background kubectl proxy answers (\d+) with "(.*)"$/,
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, urlPath: string, code: string, text: string) {
    await expectProxyAnswer(this, urlPath, Number(code), text);
  }),
);

Then(
  'the background kubectl prints lines matching, in order:',
  KUBECTL_TIMEOUT,
  step(async function (this: KubeWorld, table: DataTable) {
    const patterns = table.raw().map(([p]) => new RegExp(p));
    await backgroundPrints(this, patterns[patterns.length - 1]);
    const lines = kubectlState(this).background!.out.join('').split('\n');
    let at = 0;
    for (const p of patterns) {
      const i = lines.findIndex((l, j) => j >= at && p.test(l));
      expect(i, `no line matching ${p} after line ${at}:\n${lines.join('\n')}`).to.be.greaterThan(-1);
      at = i + 1;
    }
  }),
);

Then(
  /^kubectl's output has no line "(.*)"$/,
  step(function (this: KubeWorld, text: string) {
    const r = last(this);
    expect(r.code, show(r)).to.equal(0);
    expect(
      r.stdout.split('\n').map((l) => l.trim()),
      show(r),
    ).to.not.include(text);
  }),
);

#!/usr/bin/env node
// The feature files of a profile, the one holding the longest real-clock scenario first: a
// run of many scenarios at once ends when its last scenario does, so the 15-minute ones
// (5-minute tolerations, every zone down) start at the beginning, not at the end (longest
// processing time first). A scenario's length is its stated waits ("N minutes pass").
// Scenarios longer than the target's limit (not applicable there) do not count.
// Usage: node upstream/longest-first.js PROFILE LIMIT_SECONDS  (prints one path a line)
const fs = require('node:fs');
const path = require('node:path');
const { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } = require('@cucumber/gherkin');
const { IdGenerator } = require('@cucumber/messages');

const profile = process.argv[2] ?? 'kubernetes-1.32';
const limitMs = Number(process.argv[3] ?? Number.POSITIVE_INFINITY) * 1000;
const root = path.join(__dirname, '..', 'features');
const UNIT = { second: 1e3, seconds: 1e3, minute: 6e4, minutes: 6e4, hour: 36e5, hours: 36e5 };
const files = [];
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.feature')) files.push(p);
  }
};
walk(root);
const longest = new Map();
for (const f of files) {
  const newId = IdGenerator.uuid();
  const doc = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher()).parse(fs.readFileSync(f, 'utf8'));
  let max = -1;
  for (const p of compile(doc, f, newId)) {
    const profiles = p.tags.map((t) => t.name).filter((t) => t.startsWith('@profile-'));
    if (profiles.length > 0 && !profiles.includes(`@profile-${profile}`)) continue;
    let ms = 0;
    for (const s of p.steps) {
      const m = /^(\d+(?:\.\d+)?) (?:more )?(seconds?|minutes?|hours?) pass(?:es)?$/.exec(s.text);
      if (m) ms += Number(m[1]) * UNIT[m[2]];
      // "22 minutes after the nodes stopped reporting, …" waits until that mark (src/report/applicability.ts).
      const mark = /^(\d+(?:\.\d+)?) (seconds?|minutes?|hours?) after the nodes stopped reporting, /.exec(s.text);
      if (mark) ms = Math.max(ms, Number(mark[1]) * UNIT[mark[2]]);
    }
    max = Math.max(max, ms > limitMs ? 0 : ms);
  }
  if (max >= 0) longest.set(f, max);
}
const sorted = [...longest].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
for (const [f] of sorted) console.log(path.relative(process.cwd(), f));

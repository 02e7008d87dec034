#!/usr/bin/env node
// Compares two runs' verdicts scenario by scenario (their junit.xml): the container target's
// against the upstream target's on the same selection. Prints a table (scenario, each run's
// verdict, with the reason of a not-applicable one) and exits 1 when a verdict differs or a
// scenario is in one run only, 2 on bad usage.
//   node .ci/same-verdicts.js reports/upstream-smoke/junit.xml reports/container-smoke/junit.xml
'use strict';
const fs = require('node:fs');

const files = process.argv.slice(2);
if (files.length !== 2) {
  console.error('usage: same-verdicts.js A/junit.xml B/junit.xml');
  process.exit(2);
}

const xmlText = (s) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** scenario (its file:line) → verdict: passed, failed, or n/a (reason). */
function verdicts(file) {
  const xml = fs.readFileSync(file, 'utf8');
  const out = new Map();
  for (const m of xml.matchAll(/<testcase\b[^>]*\bname="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const name = xmlText(m[1]);
    const body = m[2] ?? '';
    const skipped = /<skipped(?:\s+message="([^"]*)")?/.exec(body);
    const verdict = /<(failure|error)\b/.test(body)
      ? 'failed'
      : skipped
        ? `n/a${skipped[1] ? ` (${xmlText(skipped[1])})` : ''}`
        : 'passed';
    out.set(name, verdict);
  }
  if (out.size === 0) throw new Error(`${file}: no testcase`);
  return out;
}

const [a, b] = files.map(verdicts);
const label = (f) => f.replace(/\/junit\.xml$/, '');
let differ = 0;
console.log(`| scenario | ${label(files[0])} | ${label(files[1])} |`);
console.log('| --- | --- | --- |');
for (const name of new Set([...a.keys(), ...b.keys()])) {
  const [x, y] = [a.get(name) ?? '(not run)', b.get(name) ?? '(not run)'];
  // The same verdict: a not-applicable one may give its own target's name in the reason.
  const same = x.split(' ')[0] === y.split(' ')[0] && x !== '(not run)' && y !== '(not run)';
  if (!same) differ++;
  console.log(`| ${name} | ${x} | ${y}${same ? '' : ' **differs**'} |`);
}
console.log(differ ? `\n${differ} scenario(s) differ` : `\nsame verdicts on all ${a.size} scenarios`);
process.exit(differ ? 1 : 0);

// npm run upstream:lengths [DIR] — writes upstream/scenario-seconds.json from a full run's report
// (default reports/upstream/kubernetes-1.32): each scenario of a minute or more with the seconds
// it took, which `npm run test:upstream` gives kubespec run as --lengths so that a first run on
// a fresh clone starts its longest scenarios first too (measured: 51 min without, 36.5 min with
// an earlier run's lengths at 28 a time, README).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { measuredSeconds } from '../src/report';

const dir = process.argv[2] ?? 'reports/upstream/kubernetes-1.32';
const out = path.join(__dirname, '..', 'upstream', 'scenario-seconds.json');
const measured = measuredSeconds(dir);
const kept = Object.entries(measured)
  .filter(([, s]) => s >= 60)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([k, s]) => [k, Math.round(s)] as const);
if (kept.length === 0) {
  console.error(`upstream:lengths: no scenario of a minute or more in ${dir} (is there a full run's messages.ndjson?)`);
  process.exit(2);
}
fs.writeFileSync(out, `${JSON.stringify(Object.fromEntries(kept), null, 1)}\n`);
console.log(
  `upstream:lengths: ${kept.length} of ${Object.keys(measured).length} scenarios into ${path.relative(process.cwd(), out)}`,
);

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scalingChart } from './chart';

/**
 * What `npm run bench` hands its reader: every table it printed, every figure the issue sets a
 * goal for beside that goal (met / not met), and the scaling table, written as
 * reports/bench.json and drawn into reports/bench.html (bench/chart.ts). Benchmarks record
 * here; bench/index.ts prints the goals and writes the files once every benchmark ran.
 */
export interface GoalFigure {
  figure: string;
  value: number;
  unit: string;
  /** The goal as a reader reads it: "≥ 50", "< 20". */
  goal: string;
  met: boolean;
  /** Repetitions the value is the median of. */
  repetitions: number;
  /** One-minute load average when the figure was taken (the machine may be shared). */
  load: number;
}

export interface Table {
  title: string;
  rows: Record<string, string | number>[];
}

const recorded = { tables: [] as Table[], goals: [] as GoalFigure[], scaling: [] as Record<string, string | number>[] };

export function recordTable(title: string, rows: Record<string, string | number>[]): void {
  recorded.tables.push({ title, rows });
}

/** Records a figure with its goal: `op` compares the value to the target. */
export function recordGoal(
  figure: string,
  value: number,
  op: '<' | '≤' | '≥',
  target: number,
  unit: string,
  repetitions: number,
): void {
  const met = op === '<' ? value < target : op === '≤' ? value <= target : value >= target;
  recorded.goals.push({
    figure,
    value,
    unit,
    goal: `${op} ${target}`,
    met: Number.isFinite(value) && met,
    repetitions,
    load: os.loadavg()[0],
  });
}

export function recordScaling(rows: Record<string, string | number>[]): void {
  recorded.scaling = rows;
}

export function goalRows(): Record<string, string | number>[] {
  return recorded.goals.map((g) => ({
    figure: g.figure,
    value: g.value,
    unit: g.unit,
    goal: g.goal,
    '': g.met ? 'met' : 'NOT MET',
    reps: g.repetitions,
    load: g.load.toFixed(1),
  }));
}

/** Writes reports/bench.json, reports/bench.html and, after a scaling run, reports/bench-scaling.svg (BENCH_REPORT_DIR overrides the folder). */
export function writeReport(dir = process.env.BENCH_REPORT_DIR ?? 'reports'): string[] {
  if (recorded.tables.length === 0) return [];
  fs.mkdirSync(dir, { recursive: true });
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
  };
  const json = path.join(dir, 'bench.json');
  fs.writeFileSync(
    json,
    `${JSON.stringify({ ...meta, goals: recorded.goals, scaling: recorded.scaling, tables: recorded.tables }, null, 2)}\n`,
  );
  const html = path.join(dir, 'bench.html');
  fs.writeFileSync(html, page(meta));
  if (recorded.scaling.length === 0) return [json, html];
  // The chart alone too, for the README.
  const svg = path.join(dir, 'bench-scaling.svg');
  fs.writeFileSync(svg, `${scalingChart(recorded.scaling)}\n`);
  return [json, html, svg];
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function cell(v: string | number): string {
  return typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v;
}

function htmlTable(
  rows: Record<string, string | number>[],
  mark?: (row: Record<string, string | number>) => string,
): string {
  if (rows.length === 0) return '<p>(no rows)</p>';
  const cols = Object.keys(rows[0]);
  const head = `<tr>${cols.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`;
  const body = rows
    .map((r) => `<tr class="${mark?.(r) ?? ''}">${cols.map((c) => `<td>${esc(cell(r[c] ?? ''))}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table>${head}\n${body}</table>`;
}

function page(meta: { date: string; node: string; cpus: number; loadAverage: number[] }): string {
  const goals = goalRows();
  const scaling =
    recorded.scaling.length > 0
      ? `<h2>Scaling: the simulated hour against node count</h2>\n${scalingChart(recorded.scaling)}\n${htmlTable(recorded.scaling)}`
      : '';
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>kubespec benchmarks</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th { background: #f3f3f3; }
td:first-child, th:first-child { text-align: left; }
tr.met td { background: #eaf7ea; }
tr.notmet td { background: #fbe9e9; }
</style></head><body>
<h1>kubespec benchmarks</h1>
<p>${esc(meta.date)} · Node ${esc(meta.node)} · ${meta.cpus} CPUs · load average ${meta.loadAverage.map((l) => l.toFixed(1)).join(' / ')} at the end.
Wall times depend on how busy the machine was; CPU times (of the benchmark's own process) much less.</p>
<h2>Goals</h2>
${htmlTable(goals, (r) => (r[''] === 'met' ? 'met' : 'notmet'))}
${scaling}
${recorded.tables.map((t) => `<h2>${esc(t.title)}</h2>\n${htmlTable(t.rows)}`).join('\n')}
</body></html>
`;
}

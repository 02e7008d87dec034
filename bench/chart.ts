/**
 * The scaling table drawn as an SVG (hand-written, no chart library): two panels against node
 * count, the seconds a simulated hour costs (wall and CPU) and the peak heap, each with a
 * dashed line for linear growth from the smallest run, so a cost that grows faster than
 * the node count shows as points above the dashes.
 */
export const COL = {
  nodes: 'nodes',
  wall: 'wall s / sim hour',
  cpu: 'CPU s / sim hour',
  heap: 'peak heap MiB',
} as const;

interface Series {
  name: string;
  colour: string;
  points: [number, number][];
}

const W = 420;
const H = 300;
const PAD = { left: 60, right: 20, top: 30, bottom: 45 };

function ticks(max: number): number[] {
  if (!(max > 0)) return [0];
  const step = 10 ** Math.floor(Math.log10(max));
  const unit = max / step > 5 ? step * 2 : max / step > 2 ? step : step / 2;
  const out: number[] = [];
  for (let v = 0; v <= max * 1.0001; v += unit) out.push(v);
  return out;
}

function fmt(v: number): string {
  return Math.abs(v) >= 100 || Number.isInteger(v) ? String(Math.round(v)) : v.toFixed(1);
}

function panel(x0: number, title: string, unit: string, series: Series[]): string {
  const all = series.flatMap((s) => s.points);
  const xMax = Math.max(...all.map((p) => p[0])) * 1.05;
  const yMax = Math.max(...all.map((p) => p[1])) * 1.1;
  const round = (v: number) => Math.round(v * 10) / 10;
  const px = (x: number) => round(x0 + PAD.left + (x / xMax) * (W - PAD.left - PAD.right));
  const py = (y: number) => round(PAD.top + (1 - y / yMax) * (H - PAD.top - PAD.bottom));
  const out: string[] = [];
  out.push(`<text x="${x0 + W / 2}" y="16" text-anchor="middle" font-weight="bold">${title}</text>`);
  for (const t of ticks(yMax)) {
    out.push(`<line x1="${px(0)}" y1="${py(t)}" x2="${px(xMax)}" y2="${py(t)}" stroke="#eee"/>`);
    out.push(`<text x="${px(0) - 5}" y="${py(t) + 4}" text-anchor="end">${fmt(t)}</text>`);
  }
  for (const t of ticks(xMax))
    out.push(`<text x="${px(t)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${fmt(t)}</text>`);
  out.push(`<line x1="${px(0)}" y1="${py(0)}" x2="${px(xMax)}" y2="${py(0)}" stroke="#444"/>`);
  out.push(`<line x1="${px(0)}" y1="${py(0)}" x2="${px(0)}" y2="${py(yMax)}" stroke="#444"/>`);
  out.push(`<text x="${x0 + W / 2}" y="${H - 8}" text-anchor="middle">nodes</text>`);
  out.push(`<text transform="translate(${x0 + 14},${H / 2}) rotate(-90)" text-anchor="middle">${unit}</text>`);
  series.forEach((s, i) => {
    if (s.points.length === 0) return;
    const [fx, fy] = s.points[0];
    // Linear growth from the smallest run: cost per node constant.
    out.push(
      `<line x1="${px(0)}" y1="${py(0)}" x2="${px(xMax)}" y2="${py(Math.min(yMax, (fy / fx) * xMax))}" stroke="${s.colour}" stroke-dasharray="4 4" opacity="0.5"/>`,
    );
    out.push(
      `<polyline fill="none" stroke="${s.colour}" stroke-width="2" points="${s.points.map(([x, y]) => `${px(x)},${py(y)}`).join(' ')}"/>`,
    );
    for (const [x, y] of s.points)
      out.push(
        `<circle cx="${px(x)}" cy="${py(y)}" r="3.5" fill="${s.colour}"><title>${s.name}: ${fmt(y)} ${unit} at ${x} nodes</title></circle>`,
      );
    out.push(
      `<rect x="${px(0) + 10}" y="${PAD.top + 4 + i * 16}" width="10" height="10" fill="${s.colour}"/><text x="${px(0) + 24}" y="${PAD.top + 13 + i * 16}">${s.name}</text>`,
    );
  });
  return out.join('\n');
}

/** The SVG for rows carrying COL's columns (rows without a figure are left out of its series). */
export function scalingChart(rows: Record<string, string | number>[]): string {
  const series = (col: string, name: string, colour: string): Series => ({
    name,
    colour,
    points: rows
      .filter((r) => typeof r[col] === 'number' && Number.isFinite(r[col] as number))
      .map((r) => [Number(r[COL.nodes]), r[col] as number]),
  });
  const time = panel(0, 'Cost of one simulated hour', 'seconds', [
    series(COL.wall, 'wall', '#1f77b4'),
    series(COL.cpu, 'CPU', '#ff7f0e'),
  ]);
  const heap = panel(W, 'Peak heap', 'MiB', [series(COL.heap, 'heap + external', '#2ca02c')]);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${H}" font-family="sans-serif" font-size="11">\n${time}\n${heap}\n</svg>`;
}

// The zone-state chart: what the node controller does with a zone, drawn from the same pure
// functions the controller runs (computeZoneState, zoneEvictionRate), so the picture cannot
// drift from the code. x = the fraction of the zone's nodes that are not ready; one band per
// zone size (at most / more than --large-cluster-size-threshold); the band's colour and label
// give the state and the resulting eviction rate.
import type { NodeCondition } from '../../api/core';
import { computeZoneState, zoneEvictionRate, type ZoneRates } from '../../controllers/nodelifecycle/zones';
import { esc } from '../html';

export interface ZoneChartParams extends ZoneRates {
  unhealthyZoneThreshold: number;
}

/** The seed's values (and upstream's defaults): 0.1/s, 0.01/s, 50 nodes, 0.55. */
export const SEED_ZONE_PARAMS: ZoneChartParams = {
  nodeEvictionRate: 0.1,
  secondaryNodeEvictionRate: 0.01,
  largeClusterSizeThreshold: 50,
  unhealthyZoneThreshold: 0.55,
};

interface Segment {
  from: number;
  to: number;
  state: string;
  rate: number;
}

const READY: NodeCondition = { type: 'Ready', status: 'True' } as NodeCondition;
const NOT_READY: NodeCondition = { type: 'Ready', status: 'Unknown' } as NodeCondition;

/** State and rate for every not-ready count 0..size of a zone of `size` nodes, merged into runs. */
export function zoneSegments(size: number, p: ZoneChartParams): Segment[] {
  const out: Segment[] = [];
  for (let notReady = 0; notReady <= size; notReady++) {
    const conditions = [...Array(size - notReady).fill(READY), ...Array(notReady).fill(NOT_READY)];
    const { state } = computeZoneState(conditions, p.unhealthyZoneThreshold);
    const rate = zoneEvictionRate(state, size, p);
    const x = notReady / size;
    const last = out[out.length - 1];
    if (last && last.state === state && last.rate === rate) last.to = x;
    else out.push({ from: x, to: x, state, rate });
  }
  return out;
}

const COLOURS: Record<string, string> = { Normal: '#86efac', PartialDisruption: '#fcd34d', FullDisruption: '#fca5a5' };

/** An SVG with one band per zone size, the threshold marked. */
export function zoneStateChart(
  p: ZoneChartParams = SEED_ZONE_PARAMS,
  sizes: number[] = [p.largeClusterSizeThreshold - 30, p.largeClusterSizeThreshold + 10],
): string {
  const W = 820,
    left = 190,
    right = 120,
    band = 46,
    top = 52;
  const plot = W - left - right;
  const H = top + sizes.length * (band + 22) + 40;
  const xOf = (f: number) => left + f * plot;
  const rows = sizes
    .map((size, i) => {
      const y = top + i * (band + 22);
      const segs = zoneSegments(size, p);
      // A run [from, to] of not-ready fractions is drawn to the next run's start, so bands meet.
      // Every node not ready is one point (x = 1): drawn as its own box beyond the axis.
      const all = segs.find((s) => s.from === 1 && s.to === 1);
      const allBox = all
        ? `<rect x="${xOf(1) + 8}" y="${y}" width="${right - 14}" height="${band}" fill="${COLOURS[all.state] ?? '#e5e7eb'}"><title>${esc(`${size} nodes, all not ready: ${all.state}, ${all.rate} nodes/s`)}</title></rect><text x="${xOf(1) + 8 + (right - 14) / 2}" y="${y + band / 2 - 2}" text-anchor="middle" font-size="11">all not ready</text><text x="${xOf(1) + 8 + (right - 14) / 2}" y="${y + band / 2 + 12}" text-anchor="middle" font-size="11">full · ${all.rate}/s</text>`
        : '';
      const rects = segs
        .filter((s) => s !== all)
        .map((s, k, shown) => {
          const x0 = xOf(s.from),
            x1 = xOf(k + 1 < shown.length ? shown[k + 1].from : 1);
          const label = `${s.state === 'PartialDisruption' ? 'partial' : s.state === 'FullDisruption' ? 'full' : 'normal'} · ${s.rate}/s`;
          return (
            `<rect x="${x0.toFixed(1)}" y="${y}" width="${Math.max(1, x1 - x0).toFixed(1)}" height="${band}" fill="${COLOURS[s.state] ?? '#e5e7eb'}"><title>${esc(`${size} nodes, ${Math.round(s.from * size)}–${Math.round(s.to * size)} not ready: ${s.state}, ${s.rate} nodes/s`)}</title></rect>` +
            (x1 - x0 > 70
              ? `<text x="${((x0 + x1) / 2).toFixed(1)}" y="${y + band / 2 + 4}" text-anchor="middle" font-size="12">${esc(label)}</text>`
              : '')
          );
        })
        .join('');
      const kind =
        size > p.largeClusterSizeThreshold
          ? `more than ${p.largeClusterSizeThreshold}`
          : `at most ${p.largeClusterSizeThreshold}`;
      return `<text x="${left - 8}" y="${y + band / 2 - 2}" text-anchor="end" font-size="13">zone of ${size} nodes</text>
<text x="${left - 8}" y="${y + band / 2 + 14}" text-anchor="end" font-size="11" fill="#6b7280">(${esc(kind)})</text>${rects}${allBox}`;
    })
    .join('\n');
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (f) =>
        `<line x1="${xOf(f)}" x2="${xOf(f)}" y1="${H - 38}" y2="${H - 33}" stroke="#374151"/><text x="${xOf(f)}" y="${H - 20}" text-anchor="middle" font-size="11">${f}</text>`,
    )
    .join('');
  const t = xOf(p.unhealthyZoneThreshold);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="system-ui, sans-serif" role="img" aria-label="Zone state and eviction rate against the fraction of not-ready nodes">
<text x="${left}" y="18" font-size="13" font-weight="600">Zone state and eviction rate (nodes/s) against the not-ready fraction</text>
${rows}
<line x1="${t}" x2="${t}" y1="${top - 8}" y2="${H - 33}" stroke="#b91c1c" stroke-dasharray="4 3"/>
<text x="${t + 4}" y="${top - 10}" font-size="11" fill="#b91c1c">--unhealthy-zone-threshold ${p.unhealthyZoneThreshold}</text>
<line x1="${left}" x2="${W - right}" y1="${H - 38}" y2="${H - 38}" stroke="#374151"/>${ticks}
<text x="${left + plot / 2}" y="${H - 4}" text-anchor="middle" font-size="11">not-ready nodes / nodes in the zone (partial disruption needs more than 2 not ready)</text>
</svg>`;
}

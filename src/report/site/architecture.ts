// The architecture picture, drawn from the parts a reference Cluster reports it is made of
// (Cluster.components()): clients and components talk only to the API server, and the API
// server alone talks to the store (the seed's COMM-APISERVER-ONLY). Adding a controller to the
// code adds it to the picture.
import { esc } from '../html';

export interface ComponentGroup {
  process: string;
  parts: string[];
}

const BOX = { w: 230, line: 15, pad: 10 };

function box(x: number, y: number, g: ComponentGroup, fill: string): { svg: string; h: number } {
  const h = BOX.pad * 2 + 20 + g.parts.length * BOX.line;
  const lines = g.parts
    .map(
      (p, i) =>
        `<text x="${x + BOX.pad}" y="${y + BOX.pad + 34 + i * BOX.line}" font-size="11" fill="#374151">${esc(p)}</text>`,
    )
    .join('');
  return {
    h,
    svg: `<g class="component" data-process="${esc(g.process)}"><rect x="${x}" y="${y}" width="${BOX.w}" height="${h}" rx="8" fill="${fill}" stroke="#6b7280"/>
<text x="${x + BOX.pad}" y="${y + BOX.pad + 14}" font-size="14" font-weight="600">${esc(g.process)}</text>${lines}</g>`,
  };
}

function arrow(x1: number, y1: number, x2: number, y2: number, label = ''): string {
  const mx = (x1 + x2) / 2,
    my = (y1 + y2) / 2;
  return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#1d4ed8" stroke-width="1.6" marker-end="url(#arrow)"/>${label ? `<text x="${mx + 4}" y="${my - 4}" font-size="10" fill="#1d4ed8">${esc(label)}</text>` : ''}`;
}

/** The control plane as boxes and arrows: everything points at the API server, which alone reaches the store. */
export function architectureSvg(groups: ComponentGroup[]): string {
  const find = (p: string) => groups.find((g) => g.process === p) ?? { process: p, parts: [] };
  const api = find('kube-apiserver');
  const store = find('store');
  const others = groups.filter(
    (g) => g !== api && g !== store && g.process !== 'kube-apiserver' && g.process !== 'store',
  );
  const clients: ComponentGroup = {
    process: 'clients',
    parts: ['kubectl', '@kubernetes/client-node', 'kubespec steps (the driver)'],
  };
  const W = 860;
  const apiX = W / 2 - BOX.w / 2;
  const c = box(apiX, 20, clients, '#f3f4f6');
  const a = box(apiX, 20 + c.h + 60, api, '#dbeafe');
  const aY = 20 + c.h + 60;
  const s = box(apiX, aY + a.h + 60, store, '#fef3c7');
  const sY = aY + a.h + 60;
  // The components sit left and right of the API server, each with an arrow to it.
  let leftY = aY - 40,
    rightY = aY - 40;
  const sides: string[] = [];
  others.forEach((g, i) => {
    const onLeft = i % 2 === 0;
    const x = onLeft ? 20 : W - 20 - BOX.w;
    const y = onLeft ? leftY : rightY;
    const b = box(x, y, g, '#ecfdf5');
    sides.push(b.svg);
    const cy = y + Math.min(b.h / 2, 40);
    // One label says what every side arrow means: more would overlap the boxes.
    const label = i === 0 ? 'list/watch, writes' : '';
    sides.push(
      onLeft
        ? arrow(x + BOX.w, cy, apiX - 4, aY + a.h / 2, label)
        : arrow(x, cy, apiX + BOX.w + 4, aY + a.h / 2, label),
    );
    if (onLeft) leftY += b.h + 24;
    else rightY += b.h + 24;
  });
  const H = Math.max(sY + s.h, leftY, rightY) + 20;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="system-ui, sans-serif" role="img" aria-label="Architecture of the reference control plane">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#1d4ed8"/></marker></defs>
${c.svg}${arrow(W / 2, 20 + c.h, W / 2, aY - 4, 'HTTPS (REST, watch)')}
${a.svg}${arrow(W / 2, aY + a.h, W / 2, sY - 4, 'the only path to the store')}
${s.svg}
${sides.join('\n')}
</svg>`;
}

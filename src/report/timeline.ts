import { Node, Pod } from '../api/core';
import { Client, Watch } from '../client/client';
import { esc } from './html';

/** What happened to one node over cluster time, as a watch saw it. */
export interface NodeTrack {
  name: string;
  zone?: string;
  /** Ready status changes: [time ms, "True" | "False" | "Unknown" | "none"]. */
  ready: [number, string][];
  /** Taint intervals: key:effect from → to (undefined while still present). */
  taints: { taint: string; from: number; to?: number }[];
  /** When each of its pods was marked for deletion (or deleted outright). */
  podDeletions: { pod: string; namespace: string; at: number }[];
  deletedAt?: number;
}

export interface TimelineData {
  start: number;
  end: number;
  nodes: NodeTrack[];
}

const ZONE = 'topology.kubernetes.io/zone';

/**
 * Records nodes' Ready state, taints and pod deletions through any Client's watches, with
 * the target's clock: target-agnostic, so the same timeline comes from any driver.
 */
export class TimelineRecorder {
  private readonly tracks = new Map<string, NodeTrack>();
  private readonly podSeen = new Set<string>();
  private readonly watches: Watch[] = [];
  private readonly start: number;

  private constructor(private readonly now: () => number) {
    this.start = now();
  }

  static async start(client: Client, now: () => number): Promise<TimelineRecorder> {
    const r = new TimelineRecorder(now);
    r.watches.push(await client.watch<Node>({ resource: 'nodes' }, {}, { onEvent: (e) => r.onNode(e.type, e.object) }));
    r.watches.push(await client.watch<Pod>({ resource: 'pods' }, {}, { onEvent: (e) => r.onPod(e.type, e.object) }));
    return r;
  }

  stop(): void {
    for (const w of this.watches) w.stop();
  }

  private track(name: string): NodeTrack {
    let t = this.tracks.get(name);
    if (!t) this.tracks.set(name, (t = { name, ready: [], taints: [], podDeletions: [] }));
    return t;
  }

  private onNode(type: string, node: Node): void {
    const t = this.track(node.metadata.name!);
    const at = this.now();
    t.zone = node.metadata.labels?.[ZONE] ?? t.zone;
    if (type === 'DELETED') {
      t.deletedAt = at;
      for (const x of t.taints) x.to ??= at;
      return;
    }
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'none';
    if (t.ready.length === 0 || t.ready[t.ready.length - 1][1] !== ready) t.ready.push([at, ready]);
    const now = new Set(
      (node.spec?.taints ?? []).map((x) => `${x.key.replace('node.kubernetes.io/', '')}:${x.effect}`),
    );
    for (const x of t.taints) if (x.to === undefined && !now.has(x.taint)) x.to = at;
    for (const taint of now)
      if (!t.taints.some((x) => x.taint === taint && x.to === undefined)) t.taints.push({ taint, from: at });
  }

  private onPod(type: string, pod: Pod): void {
    const node = pod.spec.nodeName;
    const key = `${pod.metadata.namespace}/${pod.metadata.name}/${pod.metadata.uid}`;
    if (!node || this.podSeen.has(key)) return;
    if (type === 'DELETED' || pod.metadata.deletionTimestamp) {
      this.podSeen.add(key);
      this.track(node).podDeletions.push({
        pod: pod.metadata.name!,
        namespace: pod.metadata.namespace!,
        at: this.now(),
      });
    }
  }

  /** When the node's first pod was marked for deletion, if any was. */
  firstDeletion(node: string): number | undefined {
    return this.podDeletions(node)[0]?.at;
  }

  /** The node's pods marked for deletion (or deleted outright), the first seen first. */
  podDeletions(node: string): { pod: string; namespace: string; at: number }[] {
    return [...(this.tracks.get(node)?.podDeletions ?? [])].sort((a, b) => a.at - b.at);
  }

  /** When the node's Ready condition first turned Unknown at or after `since`, if it did. */
  becameUnknown(node: string, since: number): number | undefined {
    return this.tracks.get(node)?.ready.find(([at, status]) => at >= since && status === 'Unknown')?.[0];
  }

  data(): TimelineData {
    return {
      start: this.start,
      end: this.now(),
      nodes: [...this.tracks.values()].sort(
        (a, b) =>
          (a.zone ?? '').localeCompare(b.zone ?? '') || a.name.localeCompare(b.name, undefined, { numeric: true }),
      ),
    };
  }
}

const READY_COLOUR: Record<string, string> = { True: '#4caf50', False: '#e53935', Unknown: '#fb8c00', none: '#bdbdbd' };

/**
 * The timeline as an SVG: one row per node (grouped by zone) with its Ready state as a
 * coloured bar, its NoExecute and NoSchedule taints as thin bands below, and a tick for
 * each pod deletion; the x axis is cluster time since the recording started.
 */
export function renderTimeline(d: TimelineData, title = 'Node timeline'): string {
  const label = 150,
    right = 20,
    top = 40,
    row = 34,
    width = 900;
  const span = Math.max(1, d.end - d.start);
  const x = (t: number) => label + ((t - d.start) / span) * (width - label - right);
  const height = top + d.nodes.length * row + 40;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
  ];
  out.push(`<text x="8" y="16" font-size="13" font-weight="bold">${esc(title)}</text>`);
  out.push(
    `<text x="8" y="30" fill="#555">Ready: <tspan fill="${READY_COLOUR.True}">■ True</tspan> <tspan fill="${READY_COLOUR.Unknown}">■ Unknown</tspan> <tspan fill="${READY_COLOUR.False}">■ False</tspan>; taints: <tspan fill="#6a1b9a">▬ NoExecute</tspan> <tspan fill="#90a4ae">▬ NoSchedule</tspan>; ▼ pod marked for deletion</text>`,
  );
  d.nodes.forEach((n, i) => {
    const y = top + i * row;
    out.push(`<text x="8" y="${y + 13}">${esc(n.zone ? `${n.zone} · ${n.name}` : n.name)}</text>`);
    const end = n.deletedAt ?? d.end;
    n.ready.forEach(([at, status], j) => {
      const until = j + 1 < n.ready.length ? n.ready[j + 1][0] : end;
      out.push(
        `<rect x="${x(at).toFixed(1)}" y="${y + 4}" width="${Math.max(0.5, x(until) - x(at)).toFixed(1)}" height="12" fill="${READY_COLOUR[status] ?? '#bdbdbd'}"><title>Ready=${status} from ${((at - d.start) / 1000).toFixed(1)} s</title></rect>`,
      );
    });
    for (const t of n.taints) {
      const noExecute = t.taint.endsWith(':NoExecute');
      const ty = y + (noExecute ? 19 : 24);
      out.push(
        `<rect x="${x(t.from).toFixed(1)}" y="${ty}" width="${Math.max(0.5, x(t.to ?? end) - x(t.from)).toFixed(1)}" height="4" fill="${noExecute ? '#6a1b9a' : '#90a4ae'}"><title>${esc(t.taint)} from ${((t.from - d.start) / 1000).toFixed(1)} s</title></rect>`,
      );
    }
    for (const p of n.podDeletions) {
      const px = x(p.at);
      out.push(
        `<path d="M${(px - 4).toFixed(1)} ${y} L${(px + 4).toFixed(1)} ${y} L${px.toFixed(1)} ${y + 6} Z" fill="#000"><title>${esc(p.pod)} at ${((p.at - d.start) / 1000).toFixed(1)} s</title></path>`,
      );
    }
  });
  const axisY = top + d.nodes.length * row + 10;
  out.push(`<line x1="${label}" y1="${axisY}" x2="${width - right}" y2="${axisY}" stroke="#333"/>`);
  const step = niceStep(span / 1000 / 8);
  for (let s = 0; s <= span / 1000; s += step) {
    out.push(
      `<line x1="${x(d.start + s * 1000).toFixed(1)}" y1="${axisY}" x2="${x(d.start + s * 1000).toFixed(1)}" y2="${axisY + 4}" stroke="#333"/><text x="${x(d.start + s * 1000).toFixed(1)}" y="${axisY + 16}" text-anchor="middle">${s} s</text>`,
    );
  }
  out.push('</svg>');
  return out.join('\n');
}

function niceStep(raw: number): number {
  for (const s of [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]) if (s >= raw) return s;
  return 7200;
}

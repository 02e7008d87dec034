/**
 * How a zone's Unknown marks fell into the node lifecycle controller's monitor passes on a real
 * clock, and which evictions upstream's rules then allow before the zone stops evicting.
 *
 * Nodes stopped together do not always go Unknown in one pass: the controller stamps a lease
 * renewal with the pass that first sees it (tryUpdateNodeHealth's probeTimestamp), so final
 * renewals that straddle a pass are marked one period apart (upstream v1.32.13, a zone of 20
 * with 11 down: 3 marked at 172.4 s, 8 at 177.4 s). handleDisruption judges the zone at the end
 * of each pass from the conditions written so far (ComputeZoneState); a node marked in an
 * earlier pass is queued for its taint at the next one (processTaintBaseEviction reads the
 * condition that pass started from), where the tainter (doNoExecuteTaintingPass, every 100 ms)
 * may take it at --node-eviction-rate (burst 1) before that pass's handleDisruption lowers the
 * rate. So a partially disrupted small zone evicts nothing marked from the disrupting pass on,
 * and of the nodes marked before it at most one per token of the normal rate.
 */

export interface ZoneRules {
  zoneSize: number;
  monitorPeriodMs: number;
  /** --node-eviction-rate, nodes per second */
  nodeEvictionRate: number;
  unhealthyZoneThreshold: number;
}

export interface PassReading {
  /** The marks grouped by pass, in order. */
  passes: { node: string; at: number }[][];
  /** The pass after which the zone was partially disrupted (-1: never). */
  disrupting: number;
  /** Nodes marked in passes before that one, while the zone still evicted at the normal rate. */
  early: Set<string>;
  /** How many of them may have gone: tokens of the normal rate from the pass after the first mark to the disrupting pass. */
  tokens: number;
}

export function readPasses(marks: { node: string; at: number | undefined }[], rules: ZoneRules): PassReading {
  const passes = monitorPasses(marks, rules.monitorPeriodMs);
  // A mark is queued for its taint at the pass after it.
  return judgePasses(passes, rules, -rules.monitorPeriodMs);
}

/**
 * The same reading for nodes whose kubelets wrote Ready=False themselves (`at`: when each
 * write was answered). The controller writes nothing there that shows its passes, and a pass
 * sees the writes made before it lists the nodes: so a boundary may fall between any two of
 * them, and each is read as a pass of its own. Writes closer together than a period still
 * leave one token of the normal rate to the nodes written before the one that disrupted the zone.
 */
export function readWrites(writes: { node: string; at: number | undefined }[], rules: ZoneRules): PassReading {
  // A write is queued for its taint by the pass that first sees it, up to a period after it;
  // the rate falls at the end of the pass that sees the disrupting write, up to a period after that.
  // Writes in one instant have no pass between them.
  const passes = groupInOrder(writes, (prev, w) => w.at === prev.at);
  return judgePasses(passes, rules, rules.monitorPeriodMs);
}

/** Unknown marks grouped by the monitor pass that wrote them: a pass's marks are status writes a few workers make at once; passes are a period apart. */
export function monitorPasses(
  marks: { node: string; at: number | undefined }[],
  monitorPeriodMs: number,
): { node: string; at: number }[][] {
  return groupInOrder(marks, (prev, m) => m.at - prev.at < monitorPeriodMs / 2);
}

/** The marks that have a time, in order, grouped: each joins the group of the one before when `together` says so. */
function groupInOrder(
  marks: { node: string; at: number | undefined }[],
  together: (prev: { at: number }, m: { at: number }) => boolean,
): { node: string; at: number }[][] {
  const sorted = marks.filter((x): x is { node: string; at: number } => x.at !== undefined).sort((a, b) => a.at - b.at);
  const groups: { node: string; at: number }[][] = [];
  for (const m of sorted) {
    const last = groups[groups.length - 1];
    if (last && together(last[last.length - 1], m)) last.push(m);
    else groups.push([m]);
  }
  return groups;
}

/** `slackMs`: from the first mark to when its taint may first be taken, before the disrupting pass. */
function judgePasses(passes: { node: string; at: number }[][], rules: ZoneRules, slackMs: number): PassReading {
  // PartialDisruption as ComputeZoneState decides it (float32 fraction): more than 2 not ready
  // and a not-ready share of at least the threshold.
  const partial = (notReady: number) =>
    notReady > 2 && Math.fround(notReady / rules.zoneSize) >= Math.fround(rules.unhealthyZoneThreshold);
  let seen = 0;
  const disrupting = passes.findIndex((p) => partial((seen += p.length)));
  const early = new Set(disrupting > 0 ? passes.slice(0, disrupting).flatMap((p) => p.map((m) => m.node)) : []);
  // Burst 1, then one token per 1/rate s; 0.1 of a token's slack for when the watch saw the marks.
  const window = disrupting > 0 ? passes[disrupting][0].at - passes[0][0].at + slackMs : 0;
  const tokens =
    early.size === 0
      ? 0
      : Math.min(early.size, 1 + Math.floor((Math.max(0, window) * rules.nodeEvictionRate) / 1000 + 0.1));
  return { passes, disrupting, early, tokens };
}

export function describePasses(r: PassReading, since: number, what = 'Unknown marks by monitor pass'): string {
  const passes = r.passes.map((p) => `${p.length} at ${((p[0].at - since) / 1000).toFixed(1)} s`).join(', ');
  return `${what}: ${passes || 'none'} after the stop; ${
    r.early.size === 0
      ? 'no node was marked before the zone stopped evicting, so none may go'
      : `${r.early.size} marked while the zone still evicted (${[...r.early].join(', ')}): at most ${r.tokens} of them may go`
  }`;
}

/**
 * The origin for a schedule of `offsets` (seconds) that `actual` (seconds after the first) fits
 * best: the shift that brings the farthest of them closest (the midrange of the differences).
 */
export function bestOrigin(actual: number[], offsets: number[]): number {
  const d = actual.map((a, i) => a - offsets[i]);
  return d.length === 0 ? 0 : (Math.max(...d) + Math.min(...d)) / 2;
}

// The documentation site's pages: an index by catalogue area (the areas follow the source
// documents' structure) with search and status filters, and one page per behaviour with its
// statement, source section, upstream note, scenarios as prose with their status on every run,
// and the pictures its scenarios recorded (eviction timelines, the scheduler's decisions).
import type { Behaviour } from '../catalogue';
import type { FeatureDoc, ScenarioDoc } from '../features';
import type { BehaviourStatus, ConformanceReport, ScenarioEntry } from '../model';
import type { SchedulingDecision } from '../../scheduler/decision';
import { esc, inlineMarkdown, isEmbeddableSvg } from '../html';
import { SOURCES } from '../catalogue';
import { featureAnchor, paragraphs, stepHtml, table } from '../docs';
import { SITE_CSS, SITE_JS } from './assets';

export interface SiteInput {
  catalogue: Behaviour[];
  features: FeatureDoc[];
  report?: ConformanceReport;
  /** inline SVGs for the index's pictures */
  architecture: string;
  zoneChart: string;
}

const STATUS_LABEL: Record<BehaviourStatus | 'not-run', string> = {
  pass: 'pass',
  fail: 'fail',
  'not-applicable': 'not applicable',
  'not-covered': 'not covered',
  'not-run': 'not run',
};

export function behaviourFile(id: string): string {
  return `behaviours/${id}.html`;
}

function page(title: string, body: string, depth: number): string {
  const up = '../'.repeat(depth);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="stylesheet" href="${up}site.css"></head>
<body>${body}
<script src="${up}site.js"></script>
</body></html>
`;
}

function citation(b: Behaviour): string {
  return b.seed
    .map(
      (c) =>
        `<span class="cite"><span class="doc" title="${esc(SOURCES[c.file]?.covers ?? '')}" lang="zh">${esc(SOURCES[c.file]?.title ?? c.file)}</span> <span lang="zh">${esc(c.section)}</span></span>`,
    )
    .join(' · ');
}

function statusChip(status: BehaviourStatus | 'not-run', label?: string): string {
  return `<span class="chip s-${status}"${label ? ` title="${esc(label)}"` : ''}>${esc(STATUS_LABEL[status])}</span>`;
}

/** Scenarios that cite a behaviour (on the feature or on the scenario), in feature order. */
export function scenariosOf(id: string, features: FeatureDoc[]): { feature: FeatureDoc; scenario: ScenarioDoc }[] {
  const tag = `@${id}`;
  return features.flatMap((f) =>
    f.scenarios.filter((s) => f.tags.includes(tag) || s.tags.includes(tag)).map((s) => ({ feature: f, scenario: s })),
  );
}

/** The index: pictures, then every behaviour by area with its status per run, searchable and filterable. */
export function indexPage(input: SiteInput): string {
  const { catalogue, report } = input;
  const rows = new Map((report?.rows ?? []).map((r) => [r.id, r]));
  const runs = report?.runs ?? [];
  const areas = [...new Set(catalogue.map((b) => b.area))];
  const totals = runs
    .map(
      (r) =>
        `<li><b>${esc(r.label)}</b>: ${r.totals.covered}/${r.totals.behaviours} behaviours covered, ${r.totals.scenarios.byStatus.passed} scenarios passed, ${r.totals.scenarios.byStatus.failed} failed, ${r.totals.scenarios.byStatus['not-applicable']} not applicable</li>`,
    )
    .join('');
  const sections = areas
    .map((area, i) => {
      const items = catalogue
        .filter((b) => b.area === area)
        .map((b) => {
          const row = rows.get(b.id);
          const statuses = row ? row.results.map((r) => r.status) : ['not-run' as const];
          const scenarioNames = scenariosOf(b.id, input.features)
            .map((s) => s.scenario.name)
            .join(' ');
          const search =
            `${b.id} ${b.title} ${b.area} ${b.seed.map((c) => c.section).join(' ')} ${scenarioNames}`.toLowerCase();
          return `<li class="behaviour" data-status="${esc([...new Set(statuses)].join(' '))}" data-search="${esc(search)}">
<a class="id" href="${behaviourFile(b.id)}">${esc(b.id)}</a> <span class="title">${inlineMarkdown(b.title)}</span>
<span class="chips">${row ? row.results.map((r, k) => statusChip(r.status, runs[k]?.label)).join(' ') : statusChip('not-run')}</span></li>`;
        })
        .join('\n');
      const cites = [
        ...new Set(
          catalogue.filter((b) => b.area === area).flatMap((b) => b.seed.map((c) => c.section.split(' › ')[0])),
        ),
      ];
      return `<section class="area" id="area-${i + 1}"><h2>${esc(area)}</h2><p class="cites" lang="zh">${cites.map(esc).join(' · ')}</p><ul class="behaviours">${items}</ul></section>`;
    })
    .join('\n');
  const filters = (['pass', 'fail', 'not-applicable', 'not-covered', 'not-run'] as const)
    .filter((s) => (report ? s !== 'not-run' : s === 'not-run'))
    .map(
      (s) =>
        `<label><input type="checkbox" class="status-filter" value="${s}" checked> ${esc(STATUS_LABEL[s])}</label>`,
    )
    .join(' ');
  return page(
    'kubespec — the Kubernetes control plane, specified',
    `
<header><h1>The Kubernetes control plane, specified</h1>
<p>Every behaviour the source documents state, as executable scenarios (<a href="features.html">all features as prose</a>${report ? ' · <a href="conformance.html">the conformance report</a>' : ''}).</p>
${runs.length > 0 ? `<ul class="runs">${totals}</ul>` : '<p class="muted">No results given: run <code>kubespec docs --results reports</code> to show the latest results.</p>'}
</header>
<main>
<section class="pictures">
<figure><figcaption>The reference control plane, drawn from its own list of parts</figcaption>${input.architecture}</figure>
<figure><figcaption>What the node controller does with a zone (<a href="${behaviourFile('NODE-EVICTION-RATE')}">rate</a>, <a href="${behaviourFile('NODE-ZONE-PARTIAL-SMALL')}">small</a> and <a href="${behaviourFile('NODE-ZONE-PARTIAL-LARGE')}">large</a> partially disrupted zones, <a href="${behaviourFile('NODE-ZONE-FULL')}">fully disrupted</a>), computed by the controller's own functions</figcaption>${input.zoneChart}</figure>
</section>
<section class="find">
<input id="search" type="search" placeholder="Search behaviours, scenarios, source sections…" aria-label="Search">
<span class="filters">${filters}</span> <span id="shown" class="muted"></span>
</section>
<nav class="areas">${areas.map((a, i) => `<a href="#area-${i + 1}">${esc(a)}</a>`).join(' · ')}</nav>
${sections}
</main>`,
    0,
  );
}

/** The scheduler's decision as a table: one row per node, the failed predicate or each priority's score. */
export function decisionTable(d: SchedulingDecision): string {
  const priorities = [...new Set(d.nodes.flatMap((n) => Object.keys(n.scores ?? {})))];
  const head = `<tr><th>node</th><th>filter</th>${priorities.map((p) => `<th title="weight ${d.weights[p] ?? ''}">${esc(p)} ×${esc(String(d.weights[p] ?? ''))}</th>`).join('')}<th>total</th></tr>`;
  const body = d.nodes
    .map(
      (n) =>
        `<tr class="${n.node === d.chosen ? 'chosen' : ''}"><td>${esc(n.node)}${n.node === d.chosen ? ' ✔' : ''}</td><td>${n.failedPredicate ? `✗ ${esc(n.failedPredicate)}: ${esc((n.reasons ?? []).join(', '))}` : 'fits'}</td>${priorities.map((p) => `<td>${n.scores?.[p] ?? ''}</td>`).join('')}<td>${n.total ?? ''}</td></tr>`,
    )
    .join('');
  return `<figure class="decision"><figcaption>pod <code>${esc(d.pod)}</code> (${esc(d.provider)}): ${esc(d.chosen ? `bound to ${d.chosen}` : (d.message ?? 'not scheduled'))} — ${d.numAllNodes} nodes, ${d.evaluated} evaluated, ${d.feasible} feasible</figcaption><table class="data">${head}${body}</table></figure>`;
}

/** One behaviour: what it says, where the source says it, how upstream differs, its scenarios and their results. */
export function behaviourPage(b: Behaviour, input: SiteInput): string {
  const row = input.report?.rows.find((r) => r.id === b.id);
  const runs = input.report?.runs ?? [];
  const specs = scenariosOf(b.id, input.features);
  const status = row
    ? `<table class="data status"><tr>${runs.map((r) => `<th>${esc(r.label)}</th>`).join('')}</tr><tr>${row.results.map((r) => `<td>${statusChip(r.status)}${r.reason ? `<br><small>${esc(r.reason)}</small>` : ''}</td>`).join('')}</tr></table>`
    : '<p class="muted">No results given.</p>';
  const scenarios = specs
    .map(({ feature, scenario }) => {
      const location = `${feature.uri}:${scenario.line}`;
      const entries = row
        ? row.results.map((r, k) => ({
            label: runs[k]?.label ?? '',
            entry: pickResult(r.scenarios, feature, scenario),
          }))
        : [];
      const chips = entries
        .map(
          ({ label, entry }) =>
            `<span class="chip s-${entry ? scenarioClass(entry.status) : 'not-run'}" title="${esc(label)}">${esc(label)}: ${esc(entry ? entry.status.replace('-', ' ') : 'not run')}</span>`,
        )
        .join(' ');
      // Pictures come from the first run that recorded them: every target draws the same ones.
      const withPictures = entries.find(
        ({ entry }) => entry && (entry.timelines.length > 0 || (entry.decisions?.length ?? 0) > 0),
      )?.entry;
      const pictures = withPictures
        ? [
            ...withPictures.timelines
              .filter(isEmbeddableSvg)
              .map((svg) => `<figure class="timeline">${svg.trim()}</figure>`),
            ...(withPictures.decisions ?? []).map(decisionTable),
          ].join('\n')
        : '';
      const failures = entries
        .filter(({ entry }) => entry?.status === 'failed')
        .map(
          ({ label, entry }) =>
            `<p class="failure"><b>${esc(label)}</b> failed${entry?.failedStep ? ` at <q>${esc(entry.failedStep)}</q>` : ''}${entry?.error ? `<pre>${esc(entry.error)}</pre>` : ''}</p>`,
        )
        .join('');
      const na = entries
        .filter(({ entry }) => entry?.status === 'not-applicable' && entry.reason)
        .map(({ label, entry }) => `<p class="muted">${esc(label)}: not applicable — ${esc(entry?.reason ?? '')}</p>`)
        .join('');
      return `<section class="scenario" data-location="${esc(location)}">
<h3>${esc(scenario.name)}</h3>
<p class="where">in <a href="../features.html#${featureAnchor(feature)}">${esc(feature.name)}</a> <code>${esc(location)}</code> ${chips}</p>
${scenario.description ? paragraphs(scenario.description) : ''}
${feature.background ? `<details class="background"><summary>Background</summary><ul class="steps">${feature.background.steps.map(stepHtml).join('')}</ul></details>` : ''}
<ul class="steps">${scenario.steps.map(stepHtml).join('')}</ul>
${scenario.examples.map((e) => `<div class="examples"><b>Examples${e.name ? `: ${esc(e.name)}` : ''}</b>${table(e.table, true)}</div>`).join('')}
${failures}${na}${pictures}
</section>`;
    })
    .join('\n');
  return page(
    `${b.id} — kubespec`,
    `
<header><p><a href="../index.html">← all behaviours</a></p><h1><code>${esc(b.id)}</code> ${inlineMarkdown(b.title)}</h1>
<p class="area">${esc(b.area)}</p>
<p>Source: ${citation(b)}</p>
${b.upstream ? `<div class="upstream"><b>Upstream:</b> ${inlineMarkdown(b.upstream)}</div>` : ''}
${b.informative ? `<div class="upstream"><b>Informative:</b> ${inlineMarkdown(b.notApplicableReason ?? '')}</div>` : ''}
${status}
</header>
<main>
<h2>${specs.length} scenario${specs.length === 1 ? '' : 's'}</h2>
${specs.length === 0 ? '<p class="muted">No scenario checks this behaviour yet.</p>' : scenarios}
</main>`,
    1,
  );
}

/**
 * A scenario's result in a run: by its line, or for an outline by its examples' rows (lines
 * between it and the next scenario), the worst of them.
 */
function pickResult(entries: ScenarioEntry[], feature: FeatureDoc, scenario: ScenarioDoc): ScenarioEntry | undefined {
  const exact = entries.find((e) => e.location === `${feature.uri}:${scenario.line}`);
  if (exact || scenario.examples.length === 0) return exact;
  const next = Math.min(
    ...feature.scenarios.map((s) => s.line).filter((l) => l > scenario.line),
    Number.MAX_SAFE_INTEGER,
  );
  const rows = entries.filter((e) => {
    const [uri, line] = [
      e.location.slice(0, e.location.lastIndexOf(':')),
      Number(e.location.slice(e.location.lastIndexOf(':') + 1)),
    ];
    return uri === feature.uri && line > scenario.line && line < next;
  });
  return (
    rows.find((e) => e.status === 'failed') ??
    rows.find((e) => e.status !== 'passed' && e.status !== 'not-applicable') ??
    rows.find((e) => e.status === 'passed') ??
    rows[0]
  );
}

function scenarioClass(s: string): string {
  return s === 'passed' ? 'pass' : s === 'not-applicable' ? 'not-applicable' : 'fail';
}

export { SITE_CSS, SITE_JS };

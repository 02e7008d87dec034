// The living documentation: the catalogue of behaviours and the features that specify
// them, rendered as one static page a person reads instead of the source blog posts, with
// the latest results beside each scenario when a run's report is given.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Behaviour, citationText } from './catalogue';
import type { ConformanceReport } from './model';
import type { FeatureDoc, ScenarioDoc, StepDoc } from './features';
import { esc, inlineMarkdown } from './html';

const BEHAVIOUR_TAG = /^@([A-Z][A-Z0-9-]+)$/;

/** Status of each scenario (by uri:line) in the latest run, if any. */
export type ScenarioResults = Map<string, string>;

export function scenarioResults(report: ConformanceReport | undefined): ScenarioResults {
  const out: ScenarioResults = new Map();
  for (const row of report?.rows ?? []) {
    for (const r of row.results) for (const s of r.scenarios) out.set(s.location, s.status);
  }
  return out;
}

function anchor(id: string): string {
  return `b-${id}`;
}

function tagList(tags: string[], known: Set<string>): string {
  return tags
    .map((t) => {
      const id = BEHAVIOUR_TAG.exec(t)?.[1];
      if (id && known.has(id)) return `<a class="tag id" href="#${anchor(id)}">${esc(id)}</a>`;
      return `<span class="tag">${esc(t.replace(/^@/, ''))}</span>`;
    })
    .join(' ');
}

/** A Gherkin data table (first row as the header when asked). */
export function table(rows: string[][], header: boolean): string {
  if (rows.length === 0) return '';
  return `<table class="data">${rows.map((r, i) => `<tr>${r.map((c) => (i === 0 && header ? `<th>${esc(c)}</th>` : `<td>${esc(c)}</td>`)).join('')}</tr>`).join('')}</table>`;
}

/** One step: keyword, quoted values and <placeholders> marked, its table or doc string. */
export function stepHtml(s: StepDoc): string {
  const text = esc(s.text)
    .replace(/&quot;([^&]*)&quot;/g, '<q>$1</q>')
    .replace(/&lt;([a-z]+)&gt;/g, '<var>&lt;$1&gt;</var>');
  return `<li><b>${esc(s.keyword)}</b> ${text}${s.table ? table(s.table, false) : ''}${s.docString !== undefined ? `<pre>${esc(s.docString)}</pre>` : ''}</li>`;
}

/** A description's paragraphs, with the catalogue's light markup. */
export function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .filter((p) => p.trim())
    .map((p) => `<p>${inlineMarkdown(p.replace(/\s*\n\s*/g, ' '))}</p>`)
    .join('');
}

function scenario(f: FeatureDoc, s: ScenarioDoc, known: Set<string>, results: ScenarioResults): string {
  const statuses =
    s.examples.length > 0
      ? [...results.entries()].filter(([loc]) => loc.startsWith(`${f.uri}:`)).map(([, st]) => st)
      : [results.get(`${f.uri}:${s.line}`)].filter((x): x is string => !!x);
  const status =
    results.size === 0
      ? ''
      : statuses.length === 0
        ? 'not run'
        : statuses.every((x) => x === 'passed')
          ? 'passed'
          : statuses.includes('failed')
            ? 'failed'
            : statuses[0];
  return `<section class="scenario">
<h4>${esc(s.keyword)}: ${esc(s.name)} ${status ? `<span class="st st-${esc(status.replace(/\s/g, '-'))}">${esc(status)}</span>` : ''}</h4>
<div class="tags">${tagList(s.tags, known)}</div>
${s.description ? paragraphs(s.description) : ''}
<ul class="steps">${s.steps.map(stepHtml).join('')}</ul>
${s.examples.map((e) => `<div class="examples"><b>Examples${e.name ? `: ${esc(e.name)}` : ''}</b>${table(e.table, true)}</div>`).join('')}
</section>`;
}

/** The anchor of a feature on the features page. */
export function featureAnchor(f: FeatureDoc): string {
  return `f-${f.uri.replace(/[^a-z0-9]+/gi, '-')}`;
}

export function renderDocs(catalogue: Behaviour[], features: FeatureDoc[], report?: ConformanceReport): string {
  const known = new Set(catalogue.map((b) => b.id));
  const results = scenarioResults(report);
  const byId = new Map<string, { feature: FeatureDoc; scenario: ScenarioDoc }[]>();
  for (const f of features) {
    for (const s of f.scenarios) {
      for (const t of [...f.tags, ...s.tags]) {
        const id = BEHAVIOUR_TAG.exec(t)?.[1];
        if (id) byId.set(id, [...(byId.get(id) ?? []), { feature: f, scenario: s }]);
      }
    }
  }
  const groups = new Map<string, FeatureDoc[]>();
  for (const f of features) {
    const g = f.uri.split('/')[1] ?? 'other';
    groups.set(g, [...(groups.get(g) ?? []), f]);
  }
  const toc = [...groups]
    .map(
      ([g, fs]) =>
        `<li><b>${esc(g)}</b><ul>${fs.map((f) => `<li><a href="#${featureAnchor(f)}">${esc(f.name)}</a></li>`).join('')}</ul></li>`,
    )
    .join('');
  const featureHtml = [...groups]
    .map(
      ([g, fs]) =>
        `<h2>${esc(g)}</h2>${fs
          .map(
            (f) => `<article id="${featureAnchor(f)}">
<h3>${esc(f.name)}</h3>
<div class="tags">${tagList(f.tags, known)} <span class="uri">${esc(f.uri)}</span></div>
${paragraphs(f.description)}
${f.background ? `<section class="background"><h4>Background</h4><ul class="steps">${f.background.steps.map(stepHtml).join('')}</ul></section>` : ''}
${f.scenarios.map((s) => scenario(f, s, known, results)).join('\n')}
</article>`,
          )
          .join('\n')}`,
    )
    .join('\n');
  const areas = [...new Set(catalogue.map((b) => b.area))];
  const catalogueHtml = areas
    .map(
      (area) =>
        `<h3>${esc(area)}</h3><dl>${catalogue
          .filter((b) => b.area === area)
          .map((b) => {
            const specs = byId.get(b.id) ?? [];
            return `<dt id="${anchor(b.id)}">${esc(b.id)}</dt><dd>${inlineMarkdown(b.title)}
<div class="cite">Source: ${b.seed.map((c) => esc(citationText(c))).join(' · ')}</div>
${b.upstream ? `<div class="upstream">${inlineMarkdown(b.upstream)}</div>` : ''}
${b.informative ? `<div class="upstream">Informative: ${inlineMarkdown(b.notApplicableReason ?? '')}</div>` : ''}
<div class="specs">${specs.length === 0 ? '<i>no scenario yet</i>' : specs.map(({ feature, scenario: s }) => `<a href="#${featureAnchor(feature)}">${esc(feature.name)} › ${esc(s.name)}</a>`).join('<br>')}</div></dd>`;
          })
          .join('')}</dl>`,
    )
    .join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>kubespec — the Kubernetes control plane, specified</title>
<style>${CSS}</style></head>
<body>
<header><h1>The Kubernetes control plane, specified</h1>
<p>Every behaviour the source documents state, as executable scenarios. ${report ? `Results: ${esc(report.runs.map((r) => `${r.label} (${r.totals.covered}/${r.totals.behaviours} covered)`).join(', '))}.` : 'Run <code>kubespec docs --results reports</code> to show the latest results.'}</p></header>
<nav><ul>${toc}<li><a href="#catalogue"><b>The behaviour catalogue</b></a></li></ul></nav>
<main>${featureHtml}
<h2 id="catalogue">The behaviour catalogue</h2>${catalogueHtml}</main>
</body></html>
`;
}

export function writeDocs(outDir: string, html: string): string {
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, 'index.html');
  fs.writeFileSync(file, html);
  return file;
}

const CSS = `
body { font: 15px/1.55 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif; color: #1f2937; margin: 0; display: grid; grid-template-columns: 280px 1fr; }
header { grid-column: 1 / 3; padding: 16px 28px; border-bottom: 1px solid #e5e7eb; background: #f9fafb; }
header h1 { margin: 0 0 4px; font-size: 22px; }
nav { padding: 12px 16px; border-right: 1px solid #e5e7eb; font-size: 13px; position: sticky; top: 0; height: 100vh; overflow: auto; }
nav ul { list-style: none; padding-left: 8px; } nav a { color: #1d4ed8; text-decoration: none; }
main { padding: 8px 32px 64px; max-width: 980px; }
h2 { border-bottom: 2px solid #e5e7eb; padding-bottom: 4px; margin-top: 36px; text-transform: capitalize; }
article { margin: 24px 0 40px; } article h3 { margin-bottom: 4px; }
.tags { margin: 2px 0 8px; } .tag { display: inline-block; font-size: 11px; padding: 1px 6px; border-radius: 8px; background: #f3f4f6; color: #4b5563; }
.tag.id { background: #dbeafe; color: #1e40af; text-decoration: none; } .uri { color: #9ca3af; font-size: 12px; }
.scenario { border-left: 3px solid #e5e7eb; padding: 2px 0 2px 14px; margin: 16px 0; } .background { color: #4b5563; }
h4 { margin: 4px 0; font-size: 15px; } ul.steps { list-style: none; padding-left: 0; margin: 6px 0; } ul.steps li { margin: 2px 0; }
ul.steps b { color: #7c3aed; } q { color: #047857; quotes: '"' '"'; } var { color: #b45309; font-style: normal; }
table.data { border-collapse: collapse; margin: 4px 0 6px 16px; font-size: 13px; } table.data td, table.data th { border: 1px solid #e5e7eb; padding: 2px 8px; } table.data th { background: #f9fafb; }
pre { background: #f9fafb; border: 1px solid #e5e7eb; padding: 8px; margin: 4px 0 6px 16px; font-size: 13px; }
.st { font-size: 11px; padding: 1px 7px; border-radius: 8px; vertical-align: middle; } .st-passed { background: #dcfce7; color: #166534; } .st-failed { background: #fee2e2; color: #991b1b; } .st-not-applicable, .st-not-run { background: #e0e7ff; color: #3730a3; }
dl dt { font-weight: 600; font-family: ui-monospace, monospace; margin-top: 14px; } dl dd { margin-left: 16px; }
.cite { color: #6b7280; font-size: 13px; } .upstream { background: #fffbeb; border: 1px solid #fde68a; padding: 4px 8px; font-size: 13px; margin: 4px 0; } .specs { font-size: 13px; }
code { background: #f3f4f6; padding: 0 3px; border-radius: 3px; }
`;

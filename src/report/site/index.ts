// `kubespec docs --out DIR`: the documentation site, static and self-contained (works from
// file://): index.html (behaviours by area, search, filters, pictures), one page per behaviour,
// features.html (every feature as prose), the conformance report when results are given, and
// the pictures as SVG files too.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Behaviour } from '../catalogue';
import type { FeatureDoc } from '../features';
import type { ConformanceReport } from '../model';
import { renderDocs } from '../docs';
import { renderConformanceHtml } from '../html';
import { architectureSvg, type ComponentGroup } from './architecture';
import { zoneStateChart, type ZoneChartParams, SEED_ZONE_PARAMS } from './charts';
import { behaviourFile, behaviourPage, indexPage, SITE_CSS, SITE_JS } from './pages';

export interface SiteOptions {
  catalogue: Behaviour[];
  features: FeatureDoc[];
  report?: ConformanceReport;
  /** the parts of a reference cluster (Cluster.components()) */
  components: ComponentGroup[];
  zoneParams?: ZoneChartParams;
}

/** Every file of the site, path (relative, '/'-separated) → content. */
export function buildSite(o: SiteOptions): Map<string, string> {
  const architecture = architectureSvg(o.components);
  const zoneChart = zoneStateChart(o.zoneParams ?? SEED_ZONE_PARAMS);
  const input = { catalogue: o.catalogue, features: o.features, report: o.report, architecture, zoneChart };
  const files = new Map<string, string>();
  files.set('index.html', indexPage(input));
  files.set(
    'features.html',
    renderDocs(o.catalogue, o.features, o.report).replace(
      '<body>',
      '<body><p style="grid-column: 1 / 3; margin: 8px 28px"><a href="index.html">← the behaviours</a></p>',
    ),
  );
  for (const b of o.catalogue) files.set(behaviourFile(b.id), behaviourPage(b, input));
  if (o.report) files.set('conformance.html', renderConformanceHtml(o.report));
  files.set('architecture.svg', architecture);
  files.set('zone-states.svg', zoneChart);
  files.set('site.css', SITE_CSS);
  files.set('site.js', SITE_JS);
  return files;
}

/** Writes the site under dir; returns the number of files and bytes written. */
export function writeSite(dir: string, files: Map<string, string>): { files: number; bytes: number } {
  let bytes = 0;
  for (const [rel, content] of files) {
    const file = path.join(dir, ...rel.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    bytes += Buffer.byteLength(content);
  }
  return { files: files.size, bytes };
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadCatalogue } from '../../src/report';
import { loadFeatures } from '../../src/report/features';
import { buildSite } from '../../src/report/site';
import { zoneSegments, SEED_ZONE_PARAMS } from '../../src/report/site/charts';
import { architectureSvg } from '../../src/report/site/architecture';

const ROOT = path.resolve(__dirname, '../..');

test('the zone chart follows the controller: 0.55 of a zone, more than 2 nodes, 50 nodes for the secondary rate', () => {
  // 20 nodes: 10 not ready (0.5) is normal, 11 (0.55) partial with no eviction (small zone), 20 full.
  const small = zoneSegments(20, SEED_ZONE_PARAMS);
  assert.deepEqual(
    small.map((s) => [Math.round(s.from * 20), s.state, s.rate]),
    [
      [0, 'Normal', 0.1],
      [11, 'PartialDisruption', 0],
      [20, 'FullDisruption', 0.1],
    ],
  );
  // 60 nodes (more than 50): partial disruption evicts at the secondary rate 0.01/s, from 33 (0.55).
  const large = zoneSegments(60, SEED_ZONE_PARAMS);
  assert.deepEqual(
    large.map((s) => [Math.round(s.from * 60), s.state, s.rate]),
    [
      [0, 'Normal', 0.1],
      [33, 'PartialDisruption', 0.01],
      [60, 'FullDisruption', 0.1],
    ],
  );
  // 4 nodes: 3 not ready (0.75) is partial, 2 (0.5) is not — "more than 2" and the threshold both hold.
  assert.deepEqual(
    zoneSegments(4, SEED_ZONE_PARAMS).map((s) => [Math.round(s.from * 4), s.state]),
    [
      [0, 'Normal'],
      [3, 'PartialDisruption'],
      [4, 'FullDisruption'],
    ],
  );
});

test('the architecture picture draws each process of the component list, the API server between clients and store', () => {
  const svg = architectureSvg([
    { process: 'kube-apiserver', parts: ['ApiServer'] },
    { process: 'store', parts: ['MemoryStore'] },
    { process: 'kube-scheduler', parts: ['Scheduler'] },
  ]);
  for (const p of ['kube-apiserver', 'store', 'kube-scheduler', 'clients'])
    assert.match(svg, new RegExp(`data-process="${p}"`));
  assert.match(svg, /the only path to the store/);
});

test('the site has an index, a page per behaviour, the features page and its assets, every behaviour linked', () => {
  const catalogue = loadCatalogue();
  const files = buildSite({
    catalogue,
    features: loadFeatures(path.join(ROOT, 'features'), ROOT),
    components: [{ process: 'kube-apiserver', parts: ['ApiServer'] }],
  });
  for (const f of ['index.html', 'features.html', 'site.css', 'site.js', 'architecture.svg', 'zone-states.svg'])
    assert.ok(files.has(f), f);
  const index = files.get('index.html')!;
  for (const b of catalogue) {
    assert.ok(files.has(`behaviours/${b.id}.html`), b.id);
    assert.ok(index.includes(`href="behaviours/${b.id}.html"`), `index links ${b.id}`);
  }
  const page = files.get('behaviours/NODE-GRACE-UNKNOWN.html') ?? files.get(`behaviours/${catalogue[0].id}.html`)!;
  assert.match(page, /<span lang="zh">/, 'the source section is marked Chinese, for the font fallback');
  assert.match(page, /class="scenario"/);
  assert.match(files.get('site.css')!, /:lang\(zh\) \{ font-family: var\(--cjk\)/);
});

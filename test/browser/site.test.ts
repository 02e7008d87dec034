/// <reference lib="dom" />
// The documentation site and the conformance report in a real browser: Debian's Chromium driven
// by playwright-core. Runs with `npm run test:browser` (CI installs chromium and a CJK font and
// sets KUBESPEC_REQUIRE_BROWSER=1, so a missing browser fails there instead of skipping).
// Screenshots go to reports/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';

const ROOT = path.resolve(__dirname, '../..');
const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => fs.existsSync(p));
const SHOTS = path.join(ROOT, 'reports', 'screenshots');
const required = process.env.KUBESPEC_REQUIRE_BROWSER === '1';
const skip = CHROMIUM ? false : required ? false : 'no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';

let browser: Browser | undefined;
let site = '';

before(async () => {
  if (skip) return;
  if (!CHROMIUM)
    throw new Error(
      'KUBESPEC_REQUIRE_BROWSER=1 but no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)',
    );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-site-'));
  // A small real run gives the site results, eviction timelines and scheduler decisions to show.
  const results = path.join(work, 'results');
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'bin/kubespec'),
      'run',
      '--profile',
      'seed',
      '--report-dir',
      results,
      '--quiet-summary',
      'features/node/eviction.feature',
      'features/scheduler/priorities.feature',
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  site = path.join(work, 'site');
  execFileSync(process.execPath, [path.join(ROOT, 'bin/kubespec'), 'docs', '--results', results, '--out', site], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  fs.mkdirSync(SHOTS, { recursive: true });
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});

after(async () => {
  await browser?.close();
});

/** Opens a page of the site and collects what it logs as an error (console errors, uncaught exceptions, failed loads). */
async function open(file: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser!.newPage({ viewport: { width: 1200, height: 900 } });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`failed to load ${r.url()}: ${r.failure()?.errorText}`));
  await page.goto(pathToFileURL(path.join(site, file)).href);
  return { page, errors };
}

test('the index loads without errors, with its pictures, and search and filters narrow the behaviours', {
  skip,
}, async () => {
  const { page, errors } = await open('index.html');
  const total = await page.locator('li.behaviour').count();
  assert.ok(total >= 100, `the index lists every behaviour (${total})`);
  assert.equal(
    await page.locator('.pictures figure svg').count(),
    2,
    'the architecture picture and the zone-state chart',
  );
  assert.ok(
    (await page.locator('.pictures svg g.component[data-process="kube-controller-manager"]').count()) === 1,
    'the picture has the controller manager',
  );
  await page.screenshot({ path: path.join(SHOTS, 'index.png'), fullPage: false });
  await page.fill('#search', 'NODE-EVICTION-RATE');
  const found = await page.locator('li.behaviour:not(.hidden) a.id').allInnerTexts();
  assert.ok(
    found.includes('NODE-EVICTION-RATE') && found.length < 5,
    `searching an ID leaves that behaviour and few others: ${found.join(', ')}`,
  );
  assert.match((await page.locator('#shown').textContent()) ?? '', new RegExp(`^${found.length} of ${total} `));
  await page.fill('#search', '节点控制 40');
  const zh = await page.locator('li.behaviour:not(.hidden)').count();
  assert.ok(
    zh > 0 && zh < total,
    `searching the source's words (Chinese section title and a number) narrows the list (${zh})`,
  );
  await page.fill('#search', '');
  // Only "fail" checked: this run has no failure, so nothing is shown; "pass" alone shows some.
  for (const box of await page.locator('input.status-filter').all()) if (await box.isChecked()) await box.uncheck();
  await page.check('input.status-filter[value="fail"]');
  assert.equal(await page.locator('li.behaviour:not(.hidden)').count(), 0, 'no failing behaviour');
  await page.check('input.status-filter[value="pass"]');
  const passing = await page.locator('li.behaviour:not(.hidden)').count();
  assert.ok(passing > 0 && passing < total, `passing behaviours are a part of all (${passing}/${total})`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a behaviour page shows its scenarios with their results and the eviction timelines', { skip }, async () => {
  const { page, errors } = await open('behaviours/NODE-EVICTION-RATE.html');
  assert.ok((await page.locator('section.scenario').count()) > 0, 'scenarios');
  assert.ok((await page.locator('section.scenario .chip.s-pass').count()) > 0, 'a passed result');
  assert.ok((await page.locator('figure.timeline svg').count()) > 0, 'an eviction timeline');
  await page.screenshot({ path: path.join(SHOTS, 'behaviour-eviction-rate.png'), fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a scheduler behaviour page shows the decision as a table', { skip }, async () => {
  const pages = fs.readdirSync(path.join(site, 'behaviours')).filter((f) => /^SCHED-/.test(f));
  let found = '';
  for (const f of pages)
    if (fs.readFileSync(path.join(site, 'behaviours', f), 'utf8').includes('class="decision"')) {
      found = f;
      break;
    }
  assert.ok(found, 'some scheduler behaviour page carries a decision table');
  const { page, errors } = await open(`behaviours/${found}`);
  const rows = await page.locator('figure.decision table tr').count();
  assert.ok(rows >= 2, `a header and a row per node (${rows})`);
  await page
    .locator('figure.decision')
    .first()
    .screenshot({ path: path.join(SHOTS, 'scheduler-decision.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Whether text renders with real glyphs: two different Han characters drawn in the element's own
 * font must give different pixels (a missing glyph draws the same empty box for both).
 */
async function rendersGlyphs(page: Page, selector: string): Promise<{ distinct: boolean; font: string; text: string }> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const style = getComputedStyle(el);
      const font = `${style.fontSize} ${style.fontFamily}`;
      const text = el.textContent ?? '';
      const han = [...new Set([...text].filter((c) => /\p{Script=Han}/u.test(c)))];
      const raster = (ch: string) => {
        const c = document.createElement('canvas');
        c.width = 48;
        c.height = 48;
        const g = c.getContext('2d')!;
        g.font = font.replace(/^[\d.]+px/, '32px');
        g.fillText(ch, 4, 38);
        return Array.from(g.getImageData(0, 0, 48, 48).data).join(',');
      };
      const images = han.slice(0, 4).map(raster);
      return { distinct: han.length >= 2 && new Set(images).size === images.length, font, text };
    });
}

test('the Chinese section titles render with glyphs, not boxes, on the site and in the report', { skip }, async () => {
  for (const [file, name] of [
    ['behaviours/NODE-EVICTION-RATE.html', 'behaviour'],
    ['conformance.html', 'report'],
  ] as const) {
    const { page, errors } = await open(file);
    const r = await rendersGlyphs(page, '[lang="zh"]');
    assert.ok(r.distinct, `${file}: "${r.text}" renders as boxes in ${r.font}`);
    await page
      .locator('[lang="zh"]')
      .first()
      .screenshot({ path: path.join(SHOTS, `cjk-${name}.png`) });
    assert.deepEqual(errors, [], file);
    await page.close();
  }
});

test('every page of the site links only to files that exist', { skip }, () => {
  const pages = [
    'index.html',
    'features.html',
    ...fs.readdirSync(path.join(site, 'behaviours')).map((f) => `behaviours/${f}`),
  ];
  for (const p of pages) {
    const html = fs.readFileSync(path.join(site, p), 'utf8');
    for (const [, href] of html.matchAll(/(?:href|src)="([^"#?]+)(?:[#?][^"]*)?"/g)) {
      if (/^[a-z]+:/.test(href)) continue;
      assert.ok(fs.existsSync(path.join(site, path.dirname(p), href)), `${p} links to ${href}, which is missing`);
    }
  }
});

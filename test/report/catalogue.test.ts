// The behaviour catalogue (features/behaviours.yaml) is well-formed, and every behaviour-like tag
// in the features names a catalogued behaviour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BEHAVIOUR_ID, BEHAVIOUR_TAG, CatalogueError, loadCatalogue, parseCatalogue } from '../../src/report/catalogue';

const ROOT = path.resolve(__dirname, '../..');

test('the catalogue loads, with unique well-formed IDs, a title and a seed citation each', () => {
  const catalogue = loadCatalogue();
  assert.ok(catalogue.length > 0);
  const seen = new Set<string>();
  for (const b of catalogue) {
    assert.match(b.id, BEHAVIOUR_ID);
    assert.ok(!seen.has(b.id), `duplicate ${b.id}`);
    seen.add(b.id);
    assert.ok(b.title.trim().length > 0, `${b.id}: title`);
    assert.ok(b.area.trim().length > 0, `${b.id}: area`);
    assert.ok(b.seed.length >= 1, `${b.id}: at least one seed citation`);
    for (const c of b.seed) {
      assert.match(c.file, /^\d{3}$/, `${b.id}: seed file`);
      assert.match(c.section, /^§\d/, `${b.id}: seed section starts with §<number>`);
    }
    if (b.informative) assert.ok(b.notApplicableReason, `${b.id}: informative needs a reason`);
  }
});

test('areas are contiguous, so the report groups rows in catalogue order', () => {
  const areas = loadCatalogue().map((b) => b.area);
  const order = areas.filter((a, i) => i === 0 || areas[i - 1] !== a);
  assert.equal(new Set(order).size, order.length, `an area is split: ${order.join(' → ')}`);
});

test('SSH tunnels are informative and say why they are not applicable', () => {
  const ssh = loadCatalogue().find((b) => b.id === 'COMM-SSH-TUNNEL');
  assert.ok(ssh);
  assert.equal(ssh.informative, true);
  assert.match(ssh.notApplicableReason ?? '', /v1\.9/);
  assert.match(ssh.notApplicableReason ?? '', /Konnectivity/);
});

test('invalid entries are refused with the file, the entry and the field', () => {
  const ok = { id: 'NODE-X', title: 't', area: 'a', seed: [{ file: '000', section: '§1' }] };
  const bad = (entry: Record<string, unknown>, msg: RegExp): void => {
    assert.throws(
      () => parseCatalogue([ok, entry], 'features/behaviours.yaml'),
      (err: unknown) => {
        assert.ok(err instanceof CatalogueError);
        assert.match(err.message, msg);
        return true;
      },
    );
  };
  bad({ id: 'NODE-Y', area: 'a', seed: ok.seed }, /^features\/behaviours\.yaml: entry 2 \(NODE-Y\): missing "title"$/);
  bad({ title: 't', area: 'a', seed: ok.seed }, /^features\/behaviours\.yaml: entry 2: missing "id"$/);
  bad({ ...ok }, /entry 2 \(NODE-X\): duplicate id "NODE-X" \(first at entry 1\)/);
  bad({ ...ok, id: 'node-y' }, /"id" must match/);
  bad({ ...ok, id: 'NODE-Y', seed: [] }, /"seed" must be a non-empty list/);
  bad({ ...ok, id: 'NODE-Y', seed: [{ file: 0, section: '§1' }] }, /seed\[0\]: "file" must be a quoted three-digit/);
  bad({ ...ok, id: 'NODE-Y', seed: [{ file: '000' }] }, /seed\[0\]: missing "section"/);
  bad({ ...ok, id: 'NODE-Y', upstrem: 'typo' }, /unknown field "upstrem"/);
  bad({ ...ok, id: 'NODE-Y', informative: true }, /missing "notApplicableReason"/);
  bad({ ...ok, id: 'NODE-Y', notApplicableReason: 'why' }, /only for informative/);
  assert.throws(() => parseCatalogue({ behaviours: [] }, 'x.yaml'), /x\.yaml: expected a list/);
});

test('loadCatalogue names the file it could not parse', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-cat-'));
  try {
    const file = path.join(dir, 'behaviours.yaml');
    fs.writeFileSync(file, '- id: NODE-X\n  area: a\n  seed: [{ file: "000", section: "§1" }]\n');
    assert.throws(
      () => loadCatalogue(file),
      new RegExp(`^CatalogueError: ${escapeRe(file)}: entry 1 \\(NODE-X\\): missing "title"$`),
    );
    fs.writeFileSync(file, '- id: [unclosed\n');
    assert.throws(() => loadCatalogue(file), /not valid YAML/);
    assert.throws(() => loadCatalogue(path.join(dir, 'missing.yaml')), /cannot read/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('every behaviour-like tag in features/ is a catalogued ID', () => {
  const ids = new Set(loadCatalogue().map((b) => b.id));
  const unknown: string[] = [];
  for (const file of featureFiles(path.join(ROOT, 'features'))) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const tag of tagsOnLine(line)) {
        if (BEHAVIOUR_TAG.test(tag) && !ids.has(tag.slice(1)))
          unknown.push(`${path.relative(ROOT, file)}:${i + 1}: ${tag}`);
      }
    });
  }
  assert.deepEqual(unknown, [], 'tags that look like behaviour IDs but are not in features/behaviours.yaml');
});

test('the tag scanner sees behaviour tags and ignores lower-case ones and comments', () => {
  assert.deepEqual(tagsOnLine('  @NODE-CIDR @profile-seed @timeline # @NOT-A-TAG'), [
    '@NODE-CIDR',
    '@profile-seed',
    '@timeline',
  ]);
  assert.deepEqual(tagsOnLine('    Given a node "@X"'), []);
  assert.ok(!BEHAVIOUR_TAG.test('@profile-seed') && BEHAVIOUR_TAG.test('@NODE-ZONE-PARTIAL-SMALL'));
});

/** Tags on a Gherkin tag line (a line whose first token starts with @), up to a comment. */
function tagsOnLine(line: string): string[] {
  const trimmed = line.trim();
  if (!trimmed.startsWith('@')) return [];
  const tags: string[] = [];
  for (const token of trimmed.split(/\s+/)) {
    if (token.startsWith('#')) break;
    if (token.startsWith('@')) tags.push(token);
  }
  return tags;
}

function featureFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return featureFiles(full);
    return entry.isFile() && entry.name.endsWith('.feature') ? [full] : [];
  });
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

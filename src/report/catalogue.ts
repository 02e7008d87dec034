// The behaviour catalogue (features/behaviours.yaml): every behaviour the seeds state, with a
// stable ID. Scenarios cite IDs as tags; reports have one row per entry. Validated on load so
// that a typo in the catalogue is a clear error, not a silently missing row.
import * as fs from 'node:fs';
import * as path from 'node:path';
import yaml from 'js-yaml';

/** Where a seed document states the behaviour. */
export interface SeedCitation {
  /** the source document's number, "000" or "002" (SOURCES gives its title) */
  file: string;
  /** heading path as written in the seed, e.g. "§1.2 节点管理 › 1 节点控制（Node Controller)" */
  section: string;
}

/**
 * The two source documents the catalogue cites by number, by their own titles (a reader of a
 * report has the title and the section, not the files) and what each covers.
 */
export const SOURCES: Readonly<Record<string, { title: string; covers: string }>> = {
  '000': {
    title: 'Kubernetes 架构（容器相关 · 基础篇）',
    covers:
      'the Node object, node management, the node controller, master ⇄ node communication, the controller pattern',
  },
  '002': {
    title: 'Kubernetes 的总架构图和各组件的详细总结',
    covers: 'the master workflow, the API server, the controller manager and its controllers, the scheduler',
  },
};

/** A citation as a reader can follow it: the source's title and the section ("Kubernetes 架构… §1.1 节点状态"). */
export function citationText(c: SeedCitation): string {
  return `${SOURCES[c.file]?.title ?? c.file} ${c.section}`;
}

export interface Behaviour {
  id: string;
  title: string;
  /** the catalogue section, e.g. "Node object and status" */
  area: string;
  seed: SeedCitation[];
  /** where the seed is vague or differs from upstream Kubernetes: what the suite encodes */
  upstream?: string;
  /** documented, but not checkable on any current target */
  informative: boolean;
  /** why an informative behaviour is not applicable (present exactly when informative) */
  notApplicableReason?: string;
}

/** A behaviour ID: upper-case letters, digits and hyphens, starting with a letter. */
export const BEHAVIOUR_ID = /^[A-Z][A-Z0-9-]+$/;
/** A tag that names a behaviour (`@NODE-CIDR`); lower-case tags (`@profile-seed`) are not. */
export const BEHAVIOUR_TAG = /^@[A-Z][A-Z0-9-]+$/;

/** The behaviour ID a tag names, or undefined for any other tag. */
export function behaviourIdFromTag(tag: string): string | undefined {
  return BEHAVIOUR_TAG.test(tag) ? tag.slice(1) : undefined;
}

const PACKAGE_ROOT = path.resolve(__dirname, '../..');
export const DEFAULT_CATALOGUE_PATH = path.join(PACKAGE_ROOT, 'features', 'behaviours.yaml');

const KEYS = new Set(['id', 'title', 'area', 'seed', 'upstream', 'informative', 'notApplicableReason']);
const SEED_FILE = /^\d{3}$/;

export class CatalogueError extends Error {
  override name = 'CatalogueError';
}

/** Reads and validates the catalogue; throws CatalogueError naming the file, entry and field. */
export function loadCatalogue(file: string = DEFAULT_CATALOGUE_PATH): Behaviour[] {
  const shown = displayPath(file);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new CatalogueError(`${shown}: cannot read: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = yaml.load(text, { filename: shown });
  } catch (err) {
    throw new CatalogueError(`${shown}: not valid YAML: ${(err as Error).message}`);
  }
  return parseCatalogue(doc, shown);
}

/** Validates an already parsed catalogue document (a list of entries). */
export function parseCatalogue(doc: unknown, source = 'catalogue'): Behaviour[] {
  if (!Array.isArray(doc)) throw new CatalogueError(`${source}: expected a list of behaviours at the top level`);
  const seen = new Map<string, number>();
  return doc.map((raw: unknown, index) => {
    const n = index + 1;
    const where = (): string => {
      const id = isRecord(raw) && typeof raw.id === 'string' ? ` (${raw.id})` : '';
      return `${source}: entry ${n}${id}`;
    };
    const fail = (msg: string): never => {
      throw new CatalogueError(`${where()}: ${msg}`);
    };
    if (!isRecord(raw)) return fail('expected a mapping with id, title, area and seed');
    for (const key of Object.keys(raw)) if (!KEYS.has(key)) fail(`unknown field "${key}"`);

    const id = requireString(raw, 'id', fail);
    if (!BEHAVIOUR_ID.test(id)) fail(`"id" must match ${BEHAVIOUR_ID} (upper case, digits, hyphens), got "${id}"`);
    const first = seen.get(id);
    if (first !== undefined) fail(`duplicate id "${id}" (first at entry ${first})`);
    seen.set(id, n);

    const title = requireString(raw, 'title', fail);
    const area = requireString(raw, 'area', fail);
    const seed = parseSeed(raw.seed, fail);

    const behaviour: Behaviour = { id, title, area, seed, informative: false };
    if (raw.upstream !== undefined) behaviour.upstream = requireString(raw, 'upstream', fail);
    if (raw.informative !== undefined) {
      if (typeof raw.informative !== 'boolean') fail('"informative" must be true or false');
      behaviour.informative = raw.informative === true;
    }
    if (raw.notApplicableReason !== undefined) {
      behaviour.notApplicableReason = requireString(raw, 'notApplicableReason', fail);
      if (!behaviour.informative) fail('"notApplicableReason" is only for informative behaviours (informative: true)');
    }
    if (behaviour.informative && behaviour.notApplicableReason === undefined) {
      fail('missing "notApplicableReason" (required when informative: true)');
    }
    return behaviour;
  });
}

function parseSeed(value: unknown, fail: (msg: string) => never): SeedCitation[] {
  if (value === undefined) return fail('missing "seed"');
  if (!Array.isArray(value) || value.length === 0) return fail('"seed" must be a non-empty list of { file, section }');
  return value.map((c: unknown, i) => {
    const at = `seed[${i}]`;
    if (!isRecord(c)) return fail(`${at}: expected { file, section }`);
    for (const key of Object.keys(c)) if (key !== 'file' && key !== 'section') fail(`${at}: unknown field "${key}"`);
    if (typeof c.file !== 'string' || !SEED_FILE.test(c.file)) {
      fail(`${at}: "file" must be a quoted three-digit seed number such as "000", got ${JSON.stringify(c.file)}`);
    }
    if (typeof c.section !== 'string' || c.section.trim() === '') fail(`${at}: missing "section"`);
    return { file: c.file as string, section: c.section as string };
  });
}

function requireString(obj: Record<string, unknown>, key: string, fail: (msg: string) => never): string {
  const v = obj[key];
  if (v === undefined || v === null) return fail(`missing "${key}"`);
  if (typeof v !== 'string') return fail(`"${key}" must be a string, got ${typeof v}`);
  if (v.trim() === '') return fail(`"${key}" is empty`);
  return v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function displayPath(file: string): string {
  const rel = path.relative(PACKAGE_ROOT, path.resolve(file));
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
}

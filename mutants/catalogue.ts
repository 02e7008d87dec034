// The mutant catalogue (mutants/catalogue.yaml): named, realistic breaks of the reference
// implementation, each one exact edit of a file and the behaviour IDs whose scenarios must
// notice it. Validated on load against the working tree and the behaviour catalogue, so that a
// mutant whose snippet no longer occurs exactly once is a clear error, not a silent no-op.
import * as fs from 'node:fs';
import * as path from 'node:path';
import yaml from 'js-yaml';
import { loadCatalogue } from '../src/report/catalogue';

export const PROFILES = ['seed', 'kubernetes-1.32'] as const;

export interface Edit {
  /** path relative to the project root */
  file: string;
  /** the original text: must occur exactly once in the file */
  find: string;
  replace: string;
}

export interface Mutant {
  /** stable name, lower case with hyphens */
  id: string;
  /** what the break does, in a sentence */
  title: string;
  /** behaviour IDs whose scenarios must turn red */
  behaviours: string[];
  edits: Edit[];
  /** profiles on which the break is reachable (default: both) */
  profiles: string[];
}

export class MutantCatalogueError extends Error {
  override name = 'MutantCatalogueError';
}

export const ROOT = path.resolve(__dirname, '..');
export const DEFAULT_MUTANTS_PATH = path.join(ROOT, 'mutants', 'catalogue.yaml');
const MUTANT_ID = /^[a-z0-9][a-z0-9-]*$/;
const KEYS = new Set(['id', 'title', 'behaviours', 'file', 'find', 'replace', 'edits', 'profiles']);

function occurrences(text: string, snippet: string): number {
  let n = 0;
  for (let i = text.indexOf(snippet); i >= 0; i = text.indexOf(snippet, i + 1)) n++;
  return n;
}

/** Reads and validates the catalogue; `root` is the tree the snippets are checked against. */
export function loadMutants(file = DEFAULT_MUTANTS_PATH, root = ROOT, behaviourIds?: Set<string>): Mutant[] {
  const shown = path.relative(process.cwd(), file) || file;
  const doc = yaml.load(fs.readFileSync(file, 'utf8'), { filename: shown }) as unknown;
  const list = (doc as { mutants?: unknown })?.mutants;
  if (!Array.isArray(list)) throw new MutantCatalogueError(`${shown}: expected { mutants: [...] }`);
  const known = behaviourIds ?? new Set(loadCatalogue(path.join(root, 'features', 'behaviours.yaml')).map((b) => b.id));
  const seen = new Set<string>();
  const texts = new Map<string, string>();
  const read = (f: string): string => {
    if (!texts.has(f)) {
      const full = path.join(root, f);
      if (!fs.existsSync(full)) throw new MutantCatalogueError(`${shown}: file ${f} does not exist`);
      texts.set(f, fs.readFileSync(full, 'utf8'));
    }
    return texts.get(f)!;
  };
  return list.map((entry, index): Mutant => {
    const where = `${shown}: mutant ${index + 1}`;
    if (typeof entry !== 'object' || entry === null) throw new MutantCatalogueError(`${where}: expected a mapping`);
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e))
      if (!KEYS.has(key)) throw new MutantCatalogueError(`${where}: unknown key "${key}"`);
    const id = e.id;
    if (typeof id !== 'string' || !MUTANT_ID.test(id))
      throw new MutantCatalogueError(`${where}: id must be lower case with hyphens, got ${JSON.stringify(id)}`);
    if (seen.has(id)) throw new MutantCatalogueError(`${where}: duplicate id ${id}`);
    seen.add(id);
    const at = `${shown}: ${id}`;
    if (typeof e.title !== 'string' || e.title === '') throw new MutantCatalogueError(`${at}: title missing`);
    if (!Array.isArray(e.behaviours) || e.behaviours.length === 0)
      throw new MutantCatalogueError(`${at}: behaviours must be a non-empty list`);
    for (const b of e.behaviours) {
      if (typeof b !== 'string' || !known.has(b))
        throw new MutantCatalogueError(`${at}: behaviour ${JSON.stringify(b)} is not in features/behaviours.yaml`);
    }
    const rawEdits = e.edits !== undefined ? e.edits : [{ file: e.file, find: e.find, replace: e.replace }];
    if (e.edits !== undefined && (e.file !== undefined || e.find !== undefined))
      throw new MutantCatalogueError(`${at}: give either file/find/replace or edits, not both`);
    if (!Array.isArray(rawEdits) || rawEdits.length === 0)
      throw new MutantCatalogueError(`${at}: edits must be a non-empty list`);
    const edits = rawEdits.map((raw, i): Edit => {
      const r = raw as Record<string, unknown>;
      if (typeof r.file !== 'string' || typeof r.find !== 'string' || typeof r.replace !== 'string') {
        throw new MutantCatalogueError(`${at}: edit ${i + 1} needs file, find and replace (strings)`);
      }
      if (r.find === '' || r.find === r.replace)
        throw new MutantCatalogueError(`${at}: edit ${i + 1}: find must be non-empty and differ from replace`);
      const n = occurrences(read(r.file), r.find);
      if (n !== 1)
        throw new MutantCatalogueError(
          `${at}: the snippet ${JSON.stringify(r.find)} occurs ${n} times in ${r.file} (must be exactly once)`,
        );
      return { file: r.file, find: r.find, replace: r.replace };
    });
    const profiles = e.profiles === undefined ? [...PROFILES] : e.profiles;
    if (
      !Array.isArray(profiles) ||
      profiles.length === 0 ||
      profiles.some((p) => !(PROFILES as readonly string[]).includes(p as string))
    ) {
      throw new MutantCatalogueError(`${at}: profiles must be a non-empty list of ${PROFILES.join(', ')}`);
    }
    return { id, title: e.title, behaviours: e.behaviours as string[], edits, profiles: profiles as string[] };
  });
}

/**
 * The catalogue's `unjudged` map: per profile, the behaviours no mutant is judged on there,
 * each with the reason (its scenarios do not run on that profile). Informative behaviours
 * (features/behaviours.yaml) need no entry: they are checkable on no target at all.
 */
export function loadUnjudged(file = DEFAULT_MUTANTS_PATH): Map<string, Map<string, string>> {
  const shown = path.relative(process.cwd(), file) || file;
  const doc = yaml.load(fs.readFileSync(file, 'utf8'), { filename: shown }) as { unjudged?: unknown };
  const out = new Map<string, Map<string, string>>();
  if (doc.unjudged === undefined) return out;
  if (typeof doc.unjudged !== 'object' || doc.unjudged === null)
    throw new MutantCatalogueError(`${shown}: unjudged must map a profile to { BEHAVIOUR: reason }`);
  for (const [profile, entries] of Object.entries(doc.unjudged)) {
    if (!(PROFILES as readonly string[]).includes(profile))
      throw new MutantCatalogueError(`${shown}: unjudged: unknown profile "${profile}"`);
    const reasons = new Map<string, string>();
    for (const [id, reason] of Object.entries((entries ?? {}) as Record<string, unknown>)) {
      if (typeof reason !== 'string' || reason.trim() === '')
        throw new MutantCatalogueError(`${shown}: unjudged: ${profile}: ${id} needs a reason`);
      reasons.set(id, reason);
    }
    out.set(profile, reasons);
  }
  return out;
}

/** Applies a mutant's edits to the texts of its files (never in place: the caller writes them). */
export function applyMutant(mutant: Mutant, read: (file: string) => string): Map<string, string> {
  const out = new Map<string, string>();
  for (const edit of mutant.edits) {
    const text = out.get(edit.file) ?? read(edit.file);
    const at = text.indexOf(edit.find);
    if (at < 0) throw new MutantCatalogueError(`${mutant.id}: snippet not found in ${edit.file}`);
    out.set(edit.file, text.slice(0, at) + edit.replace + text.slice(at + edit.find.length));
  }
  return out;
}

/** The tag expression that selects a mutant's scenarios. */
export function tagExpression(behaviours: string[]): string {
  return behaviours.map((b) => `@${b}`).join(' or ');
}

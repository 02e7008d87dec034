import * as fs from 'node:fs';
import * as path from 'node:path';
import { AstBuilder, GherkinClassicTokenMatcher, Parser } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';
import type * as messages from '@cucumber/messages';

/** A feature file as the documentation shows it. */
export interface FeatureDoc {
  uri: string;
  name: string;
  description: string;
  tags: string[];
  background?: ScenarioDoc;
  scenarios: ScenarioDoc[];
}

export interface StepDoc {
  keyword: string;
  text: string;
  table?: string[][];
  docString?: string;
}

export interface ScenarioDoc {
  name: string;
  keyword: string;
  line: number;
  description: string;
  tags: string[];
  steps: StepDoc[];
  examples: { name: string; tags: string[]; table: string[][] }[];
}

function steps(s: readonly messages.Step[]): StepDoc[] {
  return s.map((st) => ({
    keyword: st.keyword.trim(),
    text: st.text,
    table: st.dataTable?.rows.map((r) => r.cells.map((c) => c.value)),
    docString: st.docString?.content,
  }));
}

function scenarioDoc(sc: messages.Scenario | messages.Background, tags: readonly messages.Tag[] = []): ScenarioDoc {
  const examples = 'examples' in sc ? sc.examples : [];
  return {
    name: sc.name,
    keyword: sc.keyword,
    line: sc.location.line,
    description: sc.description.trim().replace(/^ +/gm, ''),
    tags: tags.map((t) => t.name),
    steps: steps(sc.steps),
    examples: examples.map((e) => ({
      name: e.name,
      tags: e.tags.map((t) => t.name),
      table: [e.tableHeader, ...e.tableBody]
        .filter((r): r is messages.TableRow => !!r)
        .map((r) => r.cells.map((c) => c.value)),
    })),
  };
}

/** Parses one .feature file (Gherkin) into what the documentation renders. */
export function parseFeature(file: string, root: string): FeatureDoc {
  const parser = new Parser(new AstBuilder(IdGenerator.uuid()), new GherkinClassicTokenMatcher());
  const doc = parser.parse(fs.readFileSync(file, 'utf8'));
  const f = doc.feature;
  const uri = path.relative(root, file).split(path.sep).join('/');
  if (!f) return { uri, name: uri, description: '', tags: [], scenarios: [] };
  let background: ScenarioDoc | undefined;
  const scenarios: ScenarioDoc[] = [];
  for (const child of f.children) {
    if (child.background) background = scenarioDoc(child.background);
    if (child.scenario) scenarios.push(scenarioDoc(child.scenario, child.scenario.tags));
  }
  return {
    uri,
    name: f.name,
    description: f.description.trim().replace(/^ +/gm, ''),
    tags: f.tags.map((t) => t.name),
    background,
    scenarios,
  };
}

/** Every feature under dir, in path order. */
export function loadFeatures(dir: string, root: string): FeatureDoc[] {
  const out: FeatureDoc[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.feature')) out.push(parseFeature(p, root));
    }
  };
  walk(dir);
  return out;
}

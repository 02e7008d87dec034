import { KubeObject } from '../src/api/meta';
import { coreRegistry } from '../src/api/resources';
import { ResourceType } from '../src/api/registry';

// Every release's names (EndpointSlices only served from v1.21; a target says whether it serves them).
const registry = coreRegistry({ endpointSlices: true });

function qualified(rt: ResourceType): string {
  return rt.group ? `${rt.resource}.${rt.group}` : rt.resource;
}

/** The plural resource for a manifest's kind (the API's names, not the reference's code). */
export function resourceFor(obj: KubeObject): string {
  const group = obj.apiVersion?.includes('/') ? obj.apiVersion.split('/')[0] : '';
  const rt = obj.kind ? registry.byKind(obj.kind, group) : undefined;
  if (!rt) throw new Error(`no resource serves kind ${obj.kind} (${obj.apiVersion})`);
  return qualified(rt);
}

/** A resource named as a person writes it in a step: "pod", "pods", "node", "lease". */
export function resourceNamed(word: string): { resource: string; namespaced: boolean; kind: string } {
  const rt = registry.find(word) ?? registry.find(word.replace(/s$/, ''));
  if (!rt) throw new Error(`no resource is called "${word}"`);
  return { resource: qualified(rt), namespaced: rt.namespaced, kind: rt.kind };
}

/** The resource and namespace to address an object a step names by kind ("pod", "deployment") and name. */
export function refFor(kind: string, namespace: string) {
  const r = resourceNamed(kind);
  return { r, ref: { resource: r.resource, namespace: r.namespaced ? namespace : undefined } };
}

/** Reads a dotted path ("status.conditions[0].type", "metadata.labels.app") from an object. */
export function fieldAt(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (cur === undefined || cur === null) return undefined;
    if (part.startsWith('[')) cur = (cur as unknown[])[Number(part.slice(1, -1))];
    else cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** A field's value as a step table writes it: strings bare, others as JSON; <none> for absent. */
export function showField(value: unknown): string {
  if (value === undefined || value === null) return '<none>';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

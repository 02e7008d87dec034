import { KubeObject } from '../src/api/meta';
import { coreRegistry } from '../src/api/resources';

const registry = coreRegistry();

/** The plural resource for a manifest's kind (the API's names, not the reference's code). */
export function resourceFor(obj: KubeObject): string {
  const group = obj.apiVersion?.includes('/') ? obj.apiVersion.split('/')[0] : '';
  const rt = obj.kind ? registry.byKind(obj.kind, group) : undefined;
  if (!rt) throw new Error(`no resource serves kind ${obj.kind} (${obj.apiVersion})`);
  return rt.group ? `${rt.resource}.${rt.group}` : rt.resource;
}

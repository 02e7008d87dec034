import { isoTime } from '../../clock';
import { errors, isStatusError } from '../../api/errors';
import { KubeObject, jsonEqual } from '../../api/meta';
import { apiVersionOf } from '../../api/registry';
import type { ApiServer, RequestContext } from '../apiserver';
import type { RequestTarget } from '../../api/request';

/**
 * Server-side apply (PATCH application/apply-patch+yaml), the part kubectl needs: create
 * the object when it is missing (201), otherwise merge the applied configuration into it
 * with strategic-merge semantics, and record the manager in metadata.managedFields
 * (operation Apply, FieldsV1 of the applied fields). Not modelled: per-manager field
 * ownership, so fields dropped from a later manifest are not removed and no
 * FieldManagerConflict is raised. Upstream: k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager.
 */
export function fieldsV1(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k === 'apiVersion' || k === 'kind') continue;
    out[`f:${k}`] = v !== null && typeof v === 'object' && !Array.isArray(v) ? fieldsV1(v) : {};
  }
  return out;
}

interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

export async function serverSideApply(
  api: ApiServer,
  target: RequestTarget,
  applied: unknown,
  ctx: RequestContext,
  fieldManager: string | undefined,
  /** Throws 403 unless the caller may also create the object (upstream's create-on-patch authorization). */
  authorizeCreate: () => Promise<void>,
): Promise<{ code: number; object: KubeObject }> {
  if (!fieldManager)
    throw errors.badRequest(
      'PATCH requests with content type application/apply-patch+yaml require the fieldManager parameter',
    );
  if (applied === null || typeof applied !== 'object' || Array.isArray(applied))
    throw errors.badRequest('the applied configuration must be an object');
  const rt = api.resolve(target);
  const config = applied as KubeObject;
  if (config.metadata?.name !== undefined && config.metadata.name !== target.name) {
    throw errors.badRequest(
      `the name of the object (${config.metadata.name}) does not match the name on the URL (${target.name})`,
    );
  }
  const entry = (): ManagedFieldsEntry => ({
    manager: fieldManager,
    operation: 'Apply',
    apiVersion: apiVersionOf(rt),
    time: isoTime(api.clock.now()),
    fieldsType: 'FieldsV1',
    fieldsV1: fieldsV1(config),
  });
  let current: KubeObject | undefined;
  try {
    current = await api.get({ ...target, subresource: undefined }, ctx);
  } catch (e) {
    if (!isStatusError(e, 'NotFound')) throw e;
  }
  if (!current) {
    // A subresource never creates its object: the status and scale REST call the store's
    // Update with forceAllowCreate false (pkg/registry/*/storage StatusREST.Update), so
    // applying pods/x/status to a missing pod is NotFound.
    if (target.subresource)
      throw errors.notFound({ kind: rt.resource, group: rt.group || undefined, name: target.name });
    // Create-on-patch is a create: PatchResource wraps createValidation in withAuthorization
    // with verb "create" (endpoints/handlers/patch.go), so patch alone does not create.
    await authorizeCreate();
    const obj = { ...config, metadata: { ...config.metadata, name: target.name, managedFields: [entry()] } };
    return { code: 201, object: (await api.create({ ...target, subresource: undefined }, obj, ctx)) as KubeObject };
  }
  const managed = (current.metadata.managedFields ?? []) as ManagedFieldsEntry[];
  const mine = managed.find((m) => m.manager === fieldManager && m.operation === 'Apply');
  const next = entry();
  // The same fields applied again keep their entry (and its time): a no-op apply keeps the resourceVersion.
  const kept = mine && jsonEqual(mine.fieldsV1, next.fieldsV1) ? mine : next;
  const others = managed.filter((m) => m !== mine);
  const patch = { ...config, metadata: { ...config.metadata, managedFields: [...others, kept] } };
  delete (patch as Partial<KubeObject>).apiVersion;
  delete (patch as Partial<KubeObject>).kind;
  const object = await api.patch(target, 'strategic', patch, ctx);
  return { code: 200, object };
}
